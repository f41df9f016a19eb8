"""`chronicle grab object|person|monster|break-hold|state`: the Strength contests of the seed's Grab
section after a grab hit (`chronicle attack A B --maneuver grab-...`), and the states they hinge on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ...domain.adnd2e import (
    BreakHoldInputs,
    Grabbed,
    GrabInputs,
    HoldContested,
    StateChanged,
    StateInputs,
    Strength,
    monster_strength,
)
from ...domain.errors import BadInput, Refusal
from ...ledger.recorded import Recorded
from ...ledger.session import Session
from ..actions import inputs
from ..context import Env
from ..options import common, faces
from ..output import emit
from .adnd2e_common import adnd2e_character, document, record_on, told

DICE_HELP = "The table's d20s in rolled order, two an exchange (first the grabber's), e.g. 5,4 or 6,6,9,3 after a tie."


def strength(text: str | None, option: str) -> Strength | None:
    if text is None:
        return None
    try:
        return Strength.parse(text)
    except ValueError as problem:
        raise BadInput(f"{option}: {problem}") from None


@click.group()
def grab() -> None:
    """Strength contests after a grab hits, breaking holds, and the asleep/held states.

    Roll the grab itself first (a called shot at -4) with
    `chronicle attack GRABBER TARGET --maneuver grab-object|grab-person|grab-monster`.

    \b
    Example:
      chronicle grab person Brute Guard --dice 1,1
    """


def contest(target: str, summary: str) -> Callable[..., Any]:
    """One `grab object|person|monster GRABBER OTHER` command, recorded on OTHER."""

    @click.argument("grabber")
    @click.argument("other", metavar="TARGET")
    @click.option("--strength", "own", metavar="S", help="The grabber's Strength (e.g. 18/76), if not on its sheet.")
    @click.option("--target-strength", "theirs", metavar="S", help="TARGET's Strength, if not on its sheet.")
    @click.option("--dice", "given", metavar="FACES", help=DICE_HELP)
    @common
    @click.pass_obj
    def command(
        env: Env,
        grabber: str,
        other: str,
        own: str | None,
        theirs: str | None,
        given: str | None,
        attacks: str | None = None,
        carrier: bool = False,
    ) -> None:
        def decide(session: Session) -> Recorded:
            hand = adnd2e_character(session, grabber, "grab")
            grabber_strength = strength(own, "--strength") or hand.sheet.strength
            if grabber_strength is None:
                raise BadInput(f"{grabber} has no str on its sheet: give --strength")
            target_strength = strength(theirs, "--target-strength")
            if attacks is not None:
                if target_strength is not None:
                    raise BadInput("give --target-strength or --attacks, not both")
                target_strength = Strength(score=monster_strength(attacks, carrier))
            grab_inputs = inputs(
                GrabInputs,
                target=target,
                grabber=grabber,
                grabber_strength=grabber_strength,
                grabber_size=hand.sheet.size,
                target_strength=target_strength,
            )
            return record_on(session, other, Grabbed, grab_inputs, {"grab_round": faces(given)})

        recorded = env.write(decide)
        emit(env, lambda: document(recorded, grabber=grabber), lambda: told(recorded))

    command.__doc__ = summary
    return command


grab.command("object")(
    contest(
        "object",
        """GRABBER tries to wrest an object from TARGET, its holder: both roll d20
    against Strength, the better margin wins (18/xx count 18; ties go to the higher percentile, else re-roll).

    \b
    Example:
      chronicle grab object Thief Guard --dice 5,4
    """,
    )
)

grab.command("person")(
    contest(
        "person",
        """GRABBER grabs TARGET one-handed: Strength 3 lower (18/xx by the seed's
    table), adjusted for size; a win holds TARGET (at -4 except with wrestling attacks).

    \b
    Example:
      chronicle grab person Brute Guard --dice 1,1
    """,
    )
)

_monster = contest(
    "monster",
    """GRABBER grabs the monster TARGET: Strength +3 against a smaller, -6 against a larger
    one (halved for player races); the monster's Strength from its sheet, --target-strength or --attacks.

    \b
    Example:
      chronicle grab monster Brute Nightmare --attacks 2-8/4-10/4-10 --carrier --dice 4,9
    """,
)
_monster = click.option("--carrier", is_flag=True, help="With --attacks: known for carrying, +8.")(_monster)
_monster = click.option(
    "--attacks", metavar="DAMAGE", help="The monster's attacks (2-8/4-10/4-10) for its rough Strength."
)(_monster)
grab.command("monster")(_monster)


@grab.command("break-hold")
@click.argument("name")
@click.option(
    "--holder-strength",
    metavar="S",
    help="The holder's Strength, held one-handed (default: as it counted in the grab).",
)
@click.option("--strength", "own", metavar="S", help="NAME's own Strength, if not on its sheet.")
@click.option(
    "--attacks", metavar="DAMAGE", help="NAME is a monster: its attacks (2-8/4-10/4-10) give its rough Strength."
)
@click.option("--carrier", is_flag=True, help="With --attacks: known for carrying, +8.")
@click.option("--dice", "given", metavar="FACES", help="The table's d20s, two an exchange (first NAME's).")
@common
@click.pass_obj
def break_hold(
    env: Env,
    name: str,
    holder_strength: str | None,
    own: str | None,
    attacks: str | None,
    carrier: bool,
    given: str | None,
) -> None:
    """NAME, held, spends its attack on the Strength contest against the holder's Strength as it counted in
    the grab (one-handed, size-adjusted), or the --holder-strength given, held one-handed.

    \b
    Example:
      chronicle grab break-hold Guard --dice 3,9
    """

    def decide(session: Session) -> Recorded:
        held = adnd2e_character(session, name, "grab")
        holder = held.condition.held_by
        if holder is None:
            raise Refusal(f"{name} is not held")
        theirs = strength(holder_strength, "--holder-strength")
        if theirs is None and held.condition.hold_strength is None and session.has_character(holder):
            theirs = session.character(holder).sheet.strength
        if theirs is None and held.condition.hold_strength is None:
            raise BadInput(f"the Strength of {name}'s holder ({holder}) is unknown: give --holder-strength")
        mine = strength(own, "--strength")
        if attacks is not None:
            if mine is not None:
                raise BadInput("give --strength or --attacks, not both")
            mine = Strength(score=monster_strength(attacks, carrier))
        hold_inputs = inputs(BreakHoldInputs, holder=holder, holder_strength=theirs, held_strength=mine)
        return record_on(session, name, HoldContested, hold_inputs, {"hold_round": faces(given)})

    recorded = env.write(decide)
    emit(env, lambda: document(recorded, holder=recorded.condition_before.held_by), lambda: told(recorded))


@grab.command("state")
@click.argument("name")
@click.option("--asleep/--awake", default=None, help="A sleep spell took hold, or the sleeper woke.")
@click.option(
    "--magically-held/--magic-released", "magically_held", default=None, help="Hold person and the like, or its end."
)
@click.option("--held-by", metavar="HOLDER", help="NAME is held by HOLDER (outside a recorded grab).")
@click.option("--released", is_flag=True, help="NAME's hold ends (the holder let go).")
@common
@click.pass_obj
def state(
    env: Env, name: str, asleep: bool | None, magically_held: bool | None, held_by: str | None, released: bool
) -> None:
    """Record one state change of NAME: exactly one of --asleep/--awake, --magically-held/--magic-released,
    --held-by HOLDER or --released. Asleep or magically held victims are hit automatically by a sap.

    \b
    Example:
      chronicle grab state Guard --asleep
    """
    changes = [
        ("asleep", asleep, None),
        ("magically_held", magically_held, None),
        ("held", True if held_by else None, held_by),
        ("held", False if released else None, None),
    ]
    chosen = [change for change in changes if change[1] is not None]
    if len(chosen) != 1:
        raise BadInput(
            "give exactly one of --asleep/--awake, --magically-held/--magic-released, --held-by or --released"
        )
    which, active, holder = chosen[0]
    given = inputs(StateInputs, state=which, active=active, holder=holder)
    recorded = env.write(lambda session: record_on(session, name, StateChanged, given))
    emit(env, lambda: document(recorded), lambda: told(recorded))
