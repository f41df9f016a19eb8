"""PenDragon Pass commands (docs/rulings.md, PenDragon Pass): check, status award, increase, feat and experience.

Oaths and geasa are in `pendragon_oaths`, injuries and healing in `pendragon_injury` (`Injure` and
`Rest`, the system's variants of the commands every system has, are named from here), tactics in
`pendragon_tactic` and the Winter Phase in `pendragon_winter`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from ....domain.errors import BadInput
from ....domain.pendragon import FOES, HONOURS, Checked, ExperienceRolled, FeatAttempted, IncreaseSpent, StatusAwarded
from ....domain.pendragon.checks import CheckInputs, ExperienceInputs
from ....domain.pendragon.feats import FeatInputs, described
from ....domain.pendragon.status import MOST_AWARDED, AwardAmount, AwardInputs, IncreaseInputs
from ..session import Session
from .base import Reply, handles
from .fields import D20, Int64
from .inputs import inputs
from .pendragon_common import NameSkill, OnCharacter, opponent_value, record, table
from .pendragon_injury import Injure, Rest

__all__ = ["Check", "Experience", "Feat", "Increase", "Injure", "Rest", "StatusAward"]


class Check(OnCharacter):
    """A d20 against NAME's SKILL (any statistic, trait, passion or skill), unopposed or opposed.

    Equal is a critical, under a success, 20 a fumble, over a failure; a value over 20 adds its
    excess to the roll. Opposed: a critical beats a success; two successes: the higher roll wins and
    the loser has a partial success. The opponent's value is copied from its sheet into the event."""

    command = "check"
    skill: str = Field(description="A statistic, trait, passion or skill of NAME's sheet.")
    roll: D20 | None = None
    modifier: Int64 = Field(0, description="Added to NAME's value (e.g. -5).")
    opposed_by: NameSkill | None = Field(None, description="An opposed roll against another character's value.")
    opposed_value: Int64 | None = Field(None, description="An opposed roll against a value not on any sheet.")
    opposed_roll: D20 | None = Field(None, description="The table's d20 for the opponent.")
    award_check: bool = Field(False, description="A success earns an experience check (rolled in winter).")

    def understood(self) -> None:
        if self.opposed_by is not None and self.opposed_value is not None:
            raise BadInput("an opposed check is against another character's value or a given value, not both")
        if self.opposed_roll is not None and self.opposed_by is None and self.opposed_value is None:
            raise BadInput("the opponent's roll needs an opponent: opposed by NAME:SKILL, or an opposed value")


@handles(Check)
def check(session: Session, command: Check) -> Reply:
    value = command.opposed_value
    if command.opposed_by is not None:
        value, _ = opponent_value(session, command.opposed_by)
    given = inputs(
        CheckInputs,
        what=command.skill,
        modifier=command.modifier,
        opponent=command.opposed_by,
        opponent_value=value,
        award_check=command.award_check,
    )
    return record(session, command, Checked, given, table(check=command.roll, opponent=command.opposed_roll))


def _one_of(known: dict[str, int], what: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in known:
            raise BadInput(f"unknown {what} {value[:60]!r}: choose from {', '.join(known)}")
        return value

    return check


Foe = Annotated[str, AfterValidator(_one_of(FOES, "foe")), Field(json_schema_extra={"enum": list(FOES)})]
Honour = Annotated[str, AfterValidator(_one_of(HONOURS, "honour")), Field(json_schema_extra={"enum": list(HONOURS)})]


class StatusAward(OnCharacter):
    """Award Status to NAME from exactly one source; head, yoke and missile modify foes and amounts
    (ruling status_modifiers: additive or multiplicative). Every full 1,000 earns one increase."""

    command = "status award"
    label = "Award Status"
    role = "gm"
    foe: Foe | None = Field(None, description="A foe defeated (its Status value from the table).")
    honour: Honour | None = Field(None, description="A one-time honour; a second award of it is refused.")
    amount: AwardAmount | None = Field(
        None, description=f"An explicit amount, at most {MOST_AWARDED:,} either way (needs a reason)."
    )
    reason: str | None = Field(None, description="Why an explicit amount was awarded.")
    leadership: Int64 | None = Field(None, description="People led: 1 per full 100, at most 100.")
    magic_item: Int64 | None = Field(None, description="A flashy magic item: 1 to 10, as the table sets.")
    head: bool = Field(False, description="+10%: took the enemy's head after a challenge.")
    yoke: bool = Field(False, description="+50%: fought balancing on a chariot yoke.")
    missile: bool = Field(False, description="-50%: bows, crossbows or slings were used.")

    def understood(self) -> None:
        self.given()  # one source, an amount's reason, the item's range: checked before the ledger opens

    def given(self) -> AwardInputs:
        return inputs(
            AwardInputs,
            foe=self.foe,
            honour=self.honour,
            amount=self.amount,
            reason=self.reason,
            leadership_people=self.leadership,
            magic_item=self.magic_item,
            head=self.head,
            yoke=self.yoke,
            missile=self.missile,
        )


@handles(StatusAward)
def status_award(session: Session, command: StatusAward) -> Reply:
    return record(session, command, StatusAwarded, command.given())


class Increase(OnCharacter):
    """Spend one pending increase of NAME: +1 to WHAT (a trait, passion, statistic or skill), even past
    normal limits; a trait's opposite falls by 1. Refused when none is pending."""

    command = "increase"
    what: str = Field(description="The trait, passion, statistic or skill raised.")


@handles(Increase)
def increase(session: Session, command: Increase) -> Reply:
    return record(session, command, IncreaseSpent, inputs(IncreaseInputs, what=command.what))


class Feat(OnCharacter):
    """A Feat with a combat skill or physical statistic WHAT (never Riding), named and described: a d20
    at or under half the value (ruling feat_threshold) is a critical; anything else a fumble with a
    knockdown."""

    command = "feat"
    what: str = Field(description="The combat skill or physical statistic.")
    roll: D20 | None = None
    describe: str = Field(min_length=1, description="What the Feat is (the rules: always name and describe it).")

    def understood(self) -> None:
        described(self.describe)


@handles(Feat)
def feat(session: Session, command: Feat) -> Reply:
    given = inputs(FeatInputs, what=command.what, description=command.describe)
    return record(session, command, FeatAttempted, given, table(feat=command.roll))


def _keyed(value: Any) -> Any:
    """`sword=17,pow=4` (the command line's form) is `{"sword": 17, "pow": 4}`: dice keyed by check,
    never by order; a mapping stays a mapping."""
    if not isinstance(value, str):
        return value
    found: dict[str, int] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        name, sep, face = part.partition("=")
        if not sep or not name.strip() or not face.strip().isdigit():
            raise BadInput(f"experience dice are CHECK=N pairs such as sword=17,pow=4, got {part.strip()[:60]!r}")
        found[name.strip()] = int(face)
    return found


class Experience(OnCharacter):
    """Experience rolls for NAME's checks a month after an adventure (only under the ruling
    experience_timing=month_after_adventure; otherwise they wait for the Winter Phase): a d20 over the
    value, or a 20, raises it by 1, and a trait's opposite falls by 1. Dice the table does not give are
    rolled by the ledger."""

    command = "experience"
    dice: Annotated[dict[str, D20], BeforeValidator(_keyed)] = Field(
        {}, description="The table's d20s by check (on the command line: sword=17,pow=4)."
    )


@handles(Experience)
def experience(session: Session, command: Experience) -> Reply:
    dice: dict[str, list[int] | None] = {f"experience:{name}": [face] for name, face in command.dice.items()}
    return record(session, command, ExperienceRolled, ExperienceInputs(), dice)
