"""Status (Glory): awards, modifiers, and spending the increase every full 1,000 earns (seed: Glory and Ambitions;
the rule itself: increases.py)."""

from fractions import Fraction
from math import floor, prod
from typing import Annotated, ClassVar

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from ..errors import BadInput, Refusal
from ..model import Model
from .common import moved
from .condition import Condition, Increase
from .rulings import Rulings, StatusModifiers
from .sheet import OPPOSITE, Sheet, category

FOES = {
    "armoured-mounted-warrior": 35,
    "notable-mounted-warrior": 50,
    "rune-master": 100,
    "shaman": 100,
    "notable-rune-master": 250,
    "famous-rune-master": 500,
    "hero": 750,
    "trollkin": 10,
    "dwarf": 20,
    "elf": 20,
    "troll": 20,
    "notable-dwarf": 50,
    "notable-elf": 50,
    "notable-troll": 50,
}
HONOURS = {
    "initiate": 50,
    "acolyte": 200,
    "priest": 500,
    "high-priest": 500,
    "rune-lord": 600,
    "shaman": 250,
    "thane": 200,
}
MODIFIERS = {"head": 10, "yoke": 50, "missile": -50}  # percent of the base
RELIGIOUS_HONOURS = ("initiate", "acolyte", "priest", "high-priest", "rune-lord")  # each makes an initiate
# The most an explicit amount may give or take in one award: the seed's greatest single award is a hero's 750;
# a thousand of those is a whole saga. (One award of 10^12 made every chart of it unbounded work.)
MOST_AWARDED = 1_000_000


def _within_most_awarded(amount: int) -> int:
    if abs(amount) > MOST_AWARDED:
        raise PydanticCustomError(
            "award_amount",
            "an award's amount is at most {most} Status either way, not {amount}:"
            " record a greater deed as several awards, each with its reason",
            {"most": f"{MOST_AWARDED:,}", "amount": f"{amount:,}"},
        )
    return amount


AwardAmount = Annotated[
    int,
    AfterValidator(_within_most_awarded),
    Field(json_schema_extra={"minimum": -MOST_AWARDED, "maximum": MOST_AWARDED}),
]
"""An explicit amount as a command gives it: at most MOST_AWARDED either way, a clear error beyond."""


def is_initiate(sheet: Sheet, condition: Condition) -> bool:
    """The sheet's flag, or the Initiate or a higher religious honour."""
    return sheet.initiate or any(h in RELIGIOUS_HONOURS for h in condition.honours)


def is_shaman(sheet: Sheet, condition: Condition) -> bool:
    """The sheet's flag (shaman or assistant shaman), or the Shaman honour."""
    return sheet.shaman or "shaman" in condition.honours


def new_total(condition: Condition, change: int) -> int:
    """Status after a gain or loss: never below 0."""
    return max(condition.status + change, 0)


def leadership_status(people: int) -> int:
    """1 per full 100 people led, at most 100 (civic or religious)."""
    return min(people // 100, 100)


def modified(base: int, percents: list[int], how: StatusModifiers) -> int:
    """Additive: base x (1 + sum); multiplicative: base x product of (1 + each); floored."""
    if how is StatusModifiers.additive:
        factor = 1 + Fraction(sum(percents), 100)
    else:
        factor = prod((1 + Fraction(p, 100) for p in percents), start=Fraction(1))
    return floor(base * factor)


class AwardInputs(Model):
    """Exactly one source: a foe, a one-time honour, leadership, a flashy magic item, or an amount with a reason."""

    CORRECTED_AT_MOST: ClassVar[dict[str, int]] = {"amount": MOST_AWARDED}  # what an amendment may set, either way

    foe: str | None = None
    honour: str | None = None
    leadership_people: int | None = Field(None, ge=0)
    magic_item: int | None = Field(None, ge=1, le=10)
    amount: int | None = None  # (unbounded here: events recorded before MOST_AWARDED keep their amounts)
    reason: str | None = None
    head: bool = False
    yoke: bool = False
    missile: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> "AwardInputs":
        sources = [
            s for s in (self.foe, self.honour, self.leadership_people, self.magic_item, self.amount) if s is not None
        ]
        if len(sources) != 1:
            raise ValueError("give exactly one of foe, honour, leadership people, magic item or amount")
        if self.amount is not None and not self.reason:
            raise ValueError("an explicit amount needs a reason")
        return self


class AwardOutcome(Model):
    source: str
    base: int
    modifiers: tuple[str, ...]
    amount: int  # after modifiers: what the total gains
    total: int


def award(condition: Condition, inputs: AwardInputs, rulings: Rulings) -> AwardOutcome:
    source, base = _base(condition, inputs)
    applied = tuple(name for name in MODIFIERS if getattr(inputs, name))
    if applied and source not in ("foe", "amount"):
        raise BadInput("head, yoke and missile modify Status for defeating foes, not honours, leadership or items")
    amount = modified(base, [MODIFIERS[m] for m in applied], rulings.status_modifiers)
    return AwardOutcome(source=source, base=base, modifiers=applied, amount=amount, total=new_total(condition, amount))


def after_award(condition: Condition, inputs: AwardInputs, outcome: AwardOutcome) -> Condition:
    honours = condition.honours + ((inputs.honour,) if inputs.honour else ())
    return condition.model_copy(update={"status": outcome.total, "honours": honours})


def _base(condition: Condition, inputs: AwardInputs) -> tuple[str, int]:
    if inputs.foe is not None:
        if inputs.foe not in FOES:
            raise BadInput(f"unknown foe {inputs.foe!r}: choose from {', '.join(FOES)}")
        return "foe", FOES[inputs.foe]
    if inputs.honour is not None:
        if inputs.honour not in HONOURS:
            raise BadInput(f"unknown honour {inputs.honour!r}: choose from {', '.join(HONOURS)}")
        if inputs.honour in condition.honours:
            raise Refusal(f"the honour {inputs.honour} is awarded only once")
        return "honour", HONOURS[inputs.honour]
    if inputs.leadership_people is not None:
        return "leadership", leadership_status(inputs.leadership_people)
    if inputs.magic_item is not None:
        return "magic_item", inputs.magic_item
    assert inputs.amount is not None  # AwardInputs takes exactly one source
    return "amount", inputs.amount


class IncreaseInputs(Model):
    what: str


class IncreaseOutcome(Model):
    what: str
    category: str
    from_value: int
    to_value: int
    opposite: str | None = None  # a trait's opposite falls by the same point
    pending_after: int


def spend_increase(sheet: Sheet, condition: Condition, inputs: IncreaseInputs) -> IncreaseOutcome:
    """+1 to any trait, passion, statistic or skill, even past normal limits."""
    before = sheet.value(inputs.what)  # unknown names are bad input
    if condition.increases_pending < 1:
        raise Refusal(f"no increase pending: Status {condition.status}, {condition.increases_spent} already spent")
    return IncreaseOutcome(
        what=inputs.what,
        category=category(inputs.what),
        from_value=before,
        to_value=before + 1,
        opposite=OPPOSITE.get(inputs.what),
        pending_after=condition.increases_pending - 1,
    )


def after_increase(sheet: Sheet, condition: Condition, inputs: IncreaseInputs, here: str) -> tuple[Sheet, Condition]:
    increase = Increase(what=inputs.what, by=1, cause="status", event=here)
    return sheet.raised(inputs.what), condition.model_copy(
        update={"increases_spent": condition.increases_spent + 1, "increases": (*condition.increases, increase)}
    )


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
