"""The PenDragon Pass Winter Phase (docs/rulings.md, PenDragon Pass, Winter Phase): one `WinterBegan` on the campaign
(the year and its land roll), then one `WinterResolved` on every living character, in one unit of work.

The command carries the table's plan (the `--rolls` file's content): each character's choices and
dice. `table_dice` completes a command with every die its winter draws, asking the table for each in
the order drawn: the front end's way of giving them at a terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from ....domain.campaign import Campaign, WinterBegan
from ....domain.character import Character
from ....domain.dice import Dice
from ....domain.errors import BadInput, ChronicleError, OfTheCharacter, Refusal
from ....domain.pendragon import WinterResolved, explain, land_modifier
from ....domain.pendragon.winter import WinterInputs
from ....domain.pendragon.winter_choices import default_productivity, default_worship, die_label
from ..recorded import Recorded
from ..session import Session
from .base import Command, Reply, handles
from .fields import Int64
from .inputs import inputs
from .pendragon_common import D6, SYSTEMS, state

Ask = Callable[[str, str, int], int]  # (who, which die, its sides) -> the face the table gives


def _one_or_more(value: Any) -> Any:
    """A single die is a number or a list of one."""
    return [value] if isinstance(value, int) and not isinstance(value, bool) else value


def _by_name(value: Any) -> Any:
    if isinstance(value, list):
        raise BadInput('training and experience dice are keyed by the skill or check, never by order: {"sword": 17}')
    return value


Faces = Annotated[list[Int64], BeforeValidator(_one_or_more)]
Keyed = Annotated[dict[str, Faces], BeforeValidator(_by_name)]


class _Plan(BaseModel):
    # a plan is JSON, read strictly whichever front end hands it over (a number is a number, not "4")
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class WinterDice(_Plan):
    """The table's dice of one character's winter; any not given are rolled by the ledger."""

    productivity: Faces | None = None
    worship: Faces | None = None
    training: Keyed = Field({}, description="By the skill trained (a list for several months of one).")
    experience: Keyed = Field({}, description="By the check rolled.")

    def table(self) -> dict[str, list[int]]:
        found = {purpose: faces for purpose in ("productivity", "worship") if (faces := getattr(self, purpose))}
        for purpose in ("training", "experience"):
            found |= {f"{purpose}:{what}": faces for what, faces in getattr(self, purpose).items()}
        return found


def _no_physical(value: Any) -> Any:
    if isinstance(value, dict) and "physical" in value:
        raise BadInput('training takes no "physical": the skill decides its cap')
    return value


class TrainingChoice(_Plan):
    kind: Literal["skill", "spell", "tactic"] = "skill"
    what: str


class WinterChoice(_Plan):
    """One character's choices; productivity or worship given as null is skipped, left out is the
    character's default (the best productivity skill on the sheet; religion for an initiate, else
    custom_own for a shaman)."""

    productivity: str | None = None
    productivity_modifier: Int64 = 0
    worship: str | None = None
    worship_modifier: Int64 = 0
    leadership_people: Int64 = 0
    training: list[Annotated[TrainingChoice, BeforeValidator(_no_physical)]] = []
    aging: dict[str, Int64] = {}
    family: str | None = None
    magic_item: str | None = None
    rolls: WinterDice = WinterDice()

    @model_serializer(mode="wrap")
    def _skips_kept(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A null productivity or worship (skipped) stays in the document, even where nulls are left out:
        left out, it would mean the character's default."""
        data: dict[str, Any] = handler(self)
        for key in ("productivity", "worship"):
            if key in self.model_fields_set and getattr(self, key) is None:
                data[key] = None
        return data

    def given(self, session: Session, character: Character, year: int, land_roll: int) -> WinterInputs:
        sheet, condition = state(character)
        values = self.model_dump(exclude={"rolls"}, exclude_unset=True)
        if "productivity" not in values:
            values["productivity"] = default_productivity(sheet)
        if "worship" not in values:
            values["worship"] = default_worship(sheet, condition, session.rulings())
        return inputs(WinterInputs, year=year, land_roll=land_roll, **values)


class WinterPlan(_Plan):
    """The `--rolls` file: the year, the land's d6, and each character's choices and dice."""

    year: Int64 | None = None
    land: D6 | None = None
    characters: dict[str, WinterChoice] = {}


class Winter(Command):
    """Run the campaign's Winter Phase: one land roll (1 terrible -5, 2 bad -2, 3-4 normal, 5 good +2, 6
    excellent +5), then for every living character economics, worship, Status from traits and passions
    at 16+, the religious virtues, geas upkeep and leadership, training and experience rolls for every
    check. A second winter for the same year is refused."""

    command = "winter"
    systems = SYSTEMS
    year: Int64 | None = Field(None, description="The campaign year (default: the last winter + 1, or 1).")
    land_roll: D6 | None = Field(None, description="The table's d6 for the land (else the ledger rolls).")
    rolls: WinterPlan | None = Field(None, description="The table's plan: choices and dice per character.")

    def understood(self) -> None:
        plan = self.rolls or WinterPlan()
        for what, given, planned in (("year", self.year, plan.year), ("land roll", self.land_roll, plan.land)):
            if given is not None and planned is not None and given != planned:
                raise BadInput(f"the {what} {given} disagrees with the plan's {planned}")

    def plan(self) -> WinterPlan:
        return self.rolls or WinterPlan()

    def land(self) -> int | None:
        return self.land_roll if self.land_roll is not None else self.plan().land

    def this_year(self, campaign: Campaign) -> int:
        """The winter's year (given, else the last winter's + 1, or 1); a year wintered already is refused."""
        year = self.year if self.year is not None else self.plan().year
        if year is None:
            year = max(campaign.winters, default=0) + 1
        if year in campaign.winters:
            raise Refusal(f"the winter of year {year} has already been run")
        return year


def wintering(session: Session, plan: WinterPlan) -> tuple[list[tuple[Character, WinterChoice]], list[str]]:
    """The characters who winter, each with its choices, and the names of the dead skipped (a dead
    character the plan names is left to the rules): the party's, and those of the others the plan names."""
    chosen: dict[str, WinterChoice] = {}
    for name, choice in plan.characters.items():
        found = session.character(name).name  # a name the campaign does not have is bad input
        if found in chosen:
            raise BadInput(f"the plan names {found} twice")
        chosen[found] = choice
    living: list[tuple[Character, WinterChoice]] = []
    skipped: list[str] = []
    for character in session.characters():
        if character.kind != "character":
            continue
        planned = chosen.get(character.name)
        if planned is None and character.npc:  # the others winter only where the plan names them
            continue
        if planned is None and "dead" in session.rules.view(*state(character))["condition"]["states"]:
            skipped.append(character.name)
            continue
        living.append((character, WinterChoice() if planned is None else planned))
    return living, skipped


@handles(Winter)
def winter(session: Session, command: Winter) -> Reply:
    campaign = session.campaign
    year = command.this_year(campaign)
    who, skipped = wintering(session, command.plan())
    land = command.land()
    dice = session.dice({"land": [land]} if land is not None else None)
    roll = dice.d(6, "land")
    modifier = land_modifier(roll)
    source = "ledger" if land is None else "table"
    campaign.trigger_event(
        WinterBegan,
        year=year,
        land_roll=roll,
        land_modifier=modifier,
        source=source,
        dice=dice.record(),
        by=session.by,
        timestamp=session.now(),
    )
    began = {"event": campaign.last_event_id, "version": campaign.version}
    told: list[tuple[Recorded, int]] = []
    for character, choice in who:
        try:  # a refusal names the character; the domain's names the check
            given = choice.given(session, character, year, roll)
            recorded = session.record(character, WinterResolved, given, choice.rolls.table())
        except ChronicleError as error:
            said = str(error)  # named already where the ledger names whose sheet lacks a value
            raise type(error)(said if said.startswith(character.name) else f"{character.name}: {said}") from None
        told.append((recorded, state(character)[1].increases_pending))

    def document() -> dict[str, Any]:
        characters = {recorded.name: {**recorded.document, "increases_pending": pending} for recorded, pending in told}
        land_block = {"roll": roll, "modifier": modifier, "source": source}
        return {**began, "year": year, "land": land_block, "characters": characters, "skipped": skipped}

    def text() -> str:
        lines = [explain(recorded.event, recorded.name) for recorded, _ in told]
        if skipped:
            lines.append(f"Skipped, being dead: {', '.join(skipped)}.")
        return "\n\n".join(lines) or f"The winter of year {year} passes."

    return Reply(document, text)


# the table's dice at a terminal --------------------------------------------------------------------


class _Needed(Exception):
    def __init__(self, purpose: str, sides: int):
        super().__init__(purpose)
        self.purpose, self.sides = purpose, sides


class _GivenOnly(Dice):
    """Dice that stop at the first die the table has not given."""

    def __init__(self, table: dict[str, list[int]]):
        super().__init__(0, table=table)
        self._left = {purpose: len(faces) for purpose, faces in table.items()}

    def roll(self, sides: int, count: int = 1, purpose: str = "roll", notation: str | None = None) -> list[int]:
        if self._left.get(purpose, 0) < count:
            raise _Needed(purpose, sides)
        self._left[purpose] -= count
        return super().roll(sides, count, purpose, notation)


def table_dice(session: Session, command: Winter, ask: Ask) -> Winter:
    """COMMAND with every die its winter draws given by the table: ASK is asked for each one the command
    lacks, naming the character and the check. Which dice a winter needs depends on the dice before
    them (a productivity success adds a check), so each character's winter is derived with the dice
    given so far until it needs one more: that one is asked for, and the derivation starts again."""
    campaign = session.campaign
    if campaign.system not in SYSTEMS:
        raise BadInput(
            f"winter is a command of pendragon-pass campaigns; campaign {campaign.name} is {campaign.system}"
        )
    year = command.this_year(campaign)
    land = command.land()
    if land is None:
        land = ask(f"Winter of year {year}", "the land roll", 6)
    who, _ = wintering(session, command.plan())
    characters: dict[str, WinterChoice] = {}
    for character, choice in who:
        given = choice.given(session, character, year, land)
        table = choice.rolls.table()
        while True:
            try:
                WinterResolved.derive(*state(character), given, session.rulings(), _GivenOnly(table))
                break
            except OfTheCharacter as unnamed:
                raise unnamed.of(character.name) from None
            except _Needed as need:
                faces = table.setdefault(need.purpose, [])
                faces.append(
                    ask(character.name, die_label(need.purpose, given.productivity, given.worship), need.sides)
                )
        characters[character.name] = choice.model_copy(update={"rolls": _rolls(table)})
    plan = command.plan().model_copy(update={"characters": characters, "year": year, "land": land})
    return command.model_copy(update={"rolls": plan, "year": year, "land_roll": land})


def _rolls(table: dict[str, list[int]]) -> WinterDice:
    keyed: dict[str, Any] = {"training": {}, "experience": {}}
    single: dict[str, Any] = {}
    for purpose, faces in table.items():
        kind, _, what = purpose.partition(":")
        if what:
            keyed[kind][what] = faces
        else:
            single[kind] = faces
    return WinterDice(**single, **keyed)
