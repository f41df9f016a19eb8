"""`chronicle winter [--year Y] [--land-roll N] [--rolls FILE]`: the campaign's Winter Phase (RULINGS.md
section 3, Winter Phase): one `WinterBegan` on the campaign (the year and its land roll), then one
`WinterResolved` on every living character, all in one transaction."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from ...domain.campaign import WinterBegan
from ...domain.errors import BadInput, ChronicleError, Refusal
from ...domain.pendragon import WinterResolved, explain, land_modifier
from ...domain.pendragon.winter import WinterInputs
from ...domain.pendragon.winter_choices import default_productivity, default_worship
from ..actions import inputs
from ..context import Env
from ..options import common
from ..output import emit
from .pendragon_ask import TableDice, on_terminal
from .pendragon_common import HELP, SYSTEM

if TYPE_CHECKING:
    from ...ledger.session import Session

CHOICES = (
    "productivity",
    "productivity_modifier",
    "worship",
    "worship_modifier",
    "leadership_people",
    "training",
    "aging",
    "family",
    "magic_item",
)
SINGLE = ("productivity", "worship")  # one die each: a number (or a list of one)
KEYED = ("training", "experience")  # dice keyed by the skill trained or the check rolled, never by order


@click.command(context_settings=HELP)
@click.option("--year", type=int, metavar="Y", help="The campaign year (default: the last winter + 1, or 1).")
@click.option(
    "--land-roll", "land_roll", type=int, metavar="N", help="The table's d6 for the land (else the ledger rolls)."
)
@click.option(
    "--rolls",
    "rolls_file",
    type=click.File("r"),
    metavar="FILE",
    help="A JSON file (- for stdin) of choices and table dice per character (shape below).",
)
@click.option(
    "--ask", is_flag=True, help="On a terminal: ask the table for each die in turn, naming character and check."
)
@common
@click.pass_obj
def winter(env: Env, year: int | None, land_roll: int | None, rolls_file: Any, ask: bool) -> None:
    """Run the campaign's Winter Phase: one land roll (1 terrible -5, 2 bad -2, 3-4 normal, 5 good +2,
    6 excellent +5), then for every living character economics, worship, Status from traits and
    passions at 16+, the religious virtues, geas upkeep and leadership, training and experience rolls
    for every check. A second winter for the same year is refused (exit 1) and writes nothing.

    Without --rolls each character rolls its best productivity skill on the sheet (animal_lore,
    bargaining, devise, hunting, industry, mineral_lore, plant_lore, stewardship), worships with
    religion if an initiate (else custom_own if a shaman) and the skill is on the sheet, and the
    ledger rolls every die; with --ask on a terminal the table gives each die instead, asked for in
    turn. --rolls FILE is:

    \b
      {"year": 1621, "land": 4,
       "characters": {"Vasana": {
         "productivity": "stewardship", "productivity_modifier": 0,
         "worship": "religion", "worship_modifier": 0, "leadership_people": 300,
         "training": [{"kind": "skill", "what": "sword"}],
         "aging": {"str": -1}, "family": "a daughter", "magic_item": null,
         "rolls": {"productivity": 12, "worship": 5, "training": {"sword": 17},
                   "experience": {"pow": 3, "valorous": 20}}}}}

    Every key is optional; null skips productivity or worship; dice missing from "rolls" are rolled
    by the ledger. Training and experience dice are keyed by the skill or check (a list for several
    months of one skill), so a later correction moves no die to another check. A refusal names the
    character and the check; training that reaches its cap (15 for physical skills, 20 for any)
    stops there, the remaining months spent.

    \b
    Example:
      chronicle winter --year 1621 --land-roll 4 --rolls winter-1621.json
    """
    plan = _plan(rolls_file)
    year = _agree("--year", year, "year", plan.get("year"))
    land_roll = _agree("--land-roll", land_roll, "land", plan.get("land"))
    if land_roll is not None:
        land_modifier(land_roll)  # a bad d6 is bad input before the ledger is opened
    wanted = plan.get("characters", {})

    def decide(session: Session) -> dict[str, Any]:
        campaign = session.campaign
        if campaign.system != SYSTEM:
            raise BadInput(f"winter is a {SYSTEM} command; campaign {campaign.name!r} is {campaign.system}")
        this_year = year if year is not None else max(campaign.winters, default=0) + 1
        if this_year in campaign.winters:
            raise Refusal(f"the winter of year {this_year} has already been run")
        for name in wanted:
            session.character(name)  # a name the campaign does not have is bad input
        land_die = (
            land_roll
            if land_roll is not None or not ask
            else table.ask(f"Winter of year {this_year}", "the land roll", 6)
        )
        land = session.dice({"land": [land_die]} if land_die is not None else None)
        roll = land.d(6, "land")
        source = "ledger" if land_die is None else "table"
        modifier = land_modifier(roll)
        campaign.trigger_event(
            WinterBegan,
            year=this_year,
            land_roll=roll,
            land_modifier=modifier,
            source=source,
            dice=land.record(),
            by=session.by,
            timestamp=session.now(),
        )
        document = {
            "event": campaign.last_event_id,
            "version": campaign.version,
            "year": this_year,
            "land": {"roll": roll, "modifier": modifier, "source": source},
            "characters": {},
            "skipped": [],
        }
        for character in (c for c in session.characters() if c.kind == "character"):
            choice = wanted.get(character.name)
            if (
                choice is None
                and "dead" in session.rules.view(character.sheet, character.condition)["condition"]["states"]
            ):
                document["skipped"].append(character.name)
                continue
            try:  # a refusal names the character; the domain's names the check
                given, dice = _inputs(session, character, choice or {}, this_year, roll)
                if ask:
                    dice = table.fill(
                        character.name, character.sheet, character.condition, given, session.rulings(), dice
                    )
                recorded = session.record(character, WinterResolved, given, dice)
            except ChronicleError as error:
                raise type(error)(f"{character.name}: {error}") from None
            result = dict(recorded.document)
            result["increases_pending"] = character.condition.increases_pending
            document["characters"][character.name] = result
            told.append(explain(recorded.event, character.name))
        return document

    if ask and not on_terminal():
        raise BadInput("--ask asks the table at a terminal; without one, give the dice with --rolls FILE")
    table = TableDice()  # answers kept across a retried transaction: nobody is asked twice
    told: list[str] = []

    def attempt(session: Session) -> dict[str, Any]:
        told.clear()  # a retried transaction tells its own winter
        return decide(session)

    result = env.write(attempt)
    skipped = f"Skipped, being dead: {', '.join(result['skipped'])}." if result["skipped"] else ""
    emit(
        env,
        result,
        lambda: "\n\n".join([*told, skipped] if skipped else told) or f"The winter of year {result['year']} passes.",
    )


def _plan(rolls_file: Any) -> dict[str, Any]:
    if rolls_file is None:
        return {}
    try:
        plan = json.load(rolls_file)
    except ValueError as error:
        raise BadInput(f"--rolls: not JSON ({error})") from None
    if not isinstance(plan, dict) or set(plan) - {"year", "land", "characters"}:
        raise BadInput('--rolls: expected {"year", "land", "characters": {NAME: {...}}}')
    characters = plan.get("characters", {})
    if not isinstance(characters, dict) or not all(isinstance(c, dict) for c in characters.values()):
        raise BadInput('--rolls: "characters" maps each name to an object of choices')
    for name, choice in characters.items():
        unknown = set(choice) - {*CHOICES, "rolls"}
        if unknown:
            raise BadInput(f"--rolls: {name}: unknown keys {sorted(unknown)}; expected {', '.join(CHOICES)}, rolls")
        rolls = choice.get("rolls", {})
        if not isinstance(rolls, dict) or set(rolls) - {*SINGLE, *KEYED}:
            raise BadInput(f'--rolls: {name}: "rolls" takes {", ".join((*SINGLE, *KEYED))}')
        for item in choice.get("training") or []:
            if isinstance(item, dict) and "physical" in item:
                raise BadInput(f'--rolls: {name}: training takes no "physical": the skill decides its cap')
    return plan


def _agree(option: str, given: Any, key: str, planned: Any) -> Any:
    if planned is not None and not isinstance(planned, int):
        raise BadInput(f"--rolls: {key!r} must be a whole number")
    if given is not None and planned is not None and given != planned:
        raise BadInput(f"{option} {given} disagrees with {key!r}: {planned} in --rolls")
    return given if given is not None else planned


def _inputs(
    session: Session, character: Any, choice: dict[str, Any], year: int, land_roll: int
) -> tuple[WinterInputs, dict[str, list[int]]]:
    sheet, condition = character.sheet, character.condition
    values = {k: v for k, v in choice.items() if k != "rolls"}
    if "productivity" not in values:
        values["productivity"] = default_productivity(sheet)
    if "worship" not in values:
        values["worship"] = default_worship(sheet, condition, session.rulings())
    given = inputs(WinterInputs, year=year, land_roll=land_roll, **values)
    dice: dict[str, list[int]] = {}
    for purpose, faces in choice.get("rolls", {}).items():
        if purpose in KEYED:
            if not isinstance(faces, dict):
                raise BadInput(
                    f"--rolls: {purpose!r} is keyed by {'skill' if purpose == 'training' else 'check'}, "
                    f'never by order: e.g. {{"valorous": 20}}'
                )
            for what, given_faces in faces.items():
                dice[f"{purpose}:{what}"] = _faces(f"{purpose}.{what}", given_faces)
        else:
            dice[purpose] = _faces(purpose, faces)
    return given, dice


def _faces(where: str, faces: Any) -> list[int]:
    faces = [faces] if isinstance(faces, int) and not isinstance(faces, bool) else faces
    if not isinstance(faces, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise BadInput(f"--rolls: {where!r} takes a whole number or a list of them")
    return faces
