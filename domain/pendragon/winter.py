"""One character's Winter Phase (docs/rulings.md, PenDragon Pass, Winter Phase; seed: The Winter Phase).

The campaign rolls the land once (`land_modifier`); each character then records one `WinterResolved`
whose inputs carry the year, that roll and the character's declared choices.
"""

from typing import Any, Literal

from pydantic import Field

from ..dice import Dice
from ..errors import BadInput, Refusal
from ..model import Model
from .common import moved
from .condition import Condition, hp
from .experience import Gain, apply_gains, checkable, experience_roll, key_dice_by_check
from .oaths import GEAS_UPKEEP_STATUS
from .resolution import Result, Roll, check
from .rulings import PowTraining, Rulings
from .sheet import STATISTICS, Sheet, category, sheet_key
from .skills import is_physical_skill
from .status import is_shaman, leadership_status
from .winter_choices import check_worship

LAND = {1: -5, 2: -2, 3: 0, 4: 0, 5: 2, 6: 5}  # terrible, bad, normal, normal, good, excellent
ECONOMICS = {
    Result.critical: (25, 120, "ordinary"),
    Result.success: (10, 60, "ordinary"),
    Result.failure: (0, 0, "poor"),
    Result.fumble: (0, 0, "impoverished"),
}  # Status, pennies, Stable/Family
PASSION_STATUS_FROM = 16
VIRTUES_STATUS = 100
TRAINING_SILVERS = 120
TRAINING_CAP = {True: 15, False: 20}  # physical skills, any skill
NEW_SKILL = 0  # a skill learned by training starts from nothing: its first month's roll (any but 0) makes it 1


def land_modifier(roll: int) -> int:
    if roll not in LAND:
        raise BadInput(f"the land roll is a d6, not {roll}")
    return LAND[roll]


class Training(Model):
    """One month and 120 silvers: an experience roll for a skill (or POW), or learning a spell or tactic."""

    kind: Literal["skill", "spell", "tactic"] = "skill"
    what: str
    physical: bool | None = None  # as requested in class_version 1 events; since then the skill decides (skills.py)


class WinterInputs(Model):
    year: int
    land_roll: int = Field(ge=1, le=6)
    productivity: str | None = None  # the skill a character supporting a family rolls
    productivity_modifier: int = 0  # spells such as Bless Crops
    worship: str | None = None  # religion (initiates at the High Holy Days) or custom_own (shamanic cultures)
    worship_modifier: int = 0  # from the presiding priest's or shaman's roll
    leadership_people: int = Field(0, ge=0)
    training: tuple[Training, ...] = ()
    aging: dict[str, int] = {}  # statistic losses the table rolled, e.g. {"str": -1}
    family: str | None = None  # recorded result of the Family roll
    magic_item: str | None = None  # recorded result of a magic-item creation (Ritual roll)
    legacy: bool = False  # class_version 1: recorded before worship needed an initiate; not re-checked
    training_first: bool = False  # class_version 1 and 2 trained before rolling the experience checks
    force: bool = False  # class_version 1 and 2 gave the dead a winter too; none is given one since


class StatusSource(Model):
    source: str
    amount: int


class Economics(Model):
    skill: str
    roll: Roll
    status: int
    pennies: int
    standard: str  # ordinary, poor or impoverished, for Stable and Family rolls


class Trained(Model):
    kind: str
    what: str
    gain: Gain | None = None  # skill training's experience roll
    silvers: int = TRAINING_SILVERS
    capped: int | None = None  # the skill was already at this cap: the month is spent, nothing rolled


class WinterOutcome(Model):
    year: int
    land_roll: int
    land_modifier: int
    status: int  # gained this winter (the contract's per-character "status")
    total: int
    sources: tuple[StatusSource, ...]
    economics: Economics | None
    worship: Roll | None
    training: tuple[Trained, ...]
    checks: tuple[str, ...]  # every check rolled this winter
    experience: tuple[Gain, ...]


def status_sources(sheet: Sheet, condition: Condition, inputs: WinterInputs) -> list[StatusSource]:
    """Traits and passions at 16+ gain their value; all five virtues at 16+ add 100; each kept geas 5;
    leadership 1 per 100 people (at most 100)."""
    values = {**sheet.traits, "honor": sheet.honor, **sheet.passions}
    found = [StatusSource(source=name, amount=v) for name, v in sorted(values.items()) if v >= PASSION_STATUS_FROM]
    if sheet.virtues and all(sheet.traits[v] >= PASSION_STATUS_FROM for v in sheet.virtues):
        found.append(StatusSource(source="religious_virtues", amount=VIRTUES_STATUS))
    kept = sum(g.state == "kept" for g in condition.geasa)
    if kept:
        found.append(StatusSource(source="geas_upkeep", amount=GEAS_UPKEEP_STATUS * kept))
    if leadership_status(inputs.leadership_people):
        found.append(StatusSource(source="leadership", amount=leadership_status(inputs.leadership_people)))
    return found


def training_cap(item: Training, name: str | None = None) -> int:
    """Most physical skills cannot be trained past 15, no skill past 20 (seed: Training)."""
    physical = item.physical if item.physical is not None else is_physical_skill(name or item.what)
    return TRAINING_CAP[physical]


def trained_name(sheet: Sheet, item: Training) -> str:
    """The value a month of skill training raises: one on the sheet, or a new skill ("Characters may try to
    learn new skills"), held to the names the system knows as a sheet key is (`skill:NAME` for a new one
    near a known name)."""
    return item.what if sheet.has(item.what) else sheet_key(item.what, sheet)


def train(sheet: Sheet, condition: Condition, item: Training, rulings: Rulings, dice: Dice) -> Trained:
    """Dice: "training:<skill>" (d20, skills and POW). Refusals name the training refused. A skill not on
    the sheet is learned from NEW_SKILL: the month's experience roll is against that value."""
    if item.kind == "tactic" and not rulings.tactic_training:
        raise Refusal(
            f"training the tactic {item.what}: tactics cannot be learned by training (ruling tactic_training=false)"
        )
    if item.kind != "skill":
        return Trained(kind=item.kind, what=item.what)  # learning a spell is automatic
    name = trained_name(sheet, item)
    if name == "pow" and rulings.pow_training is PowTraining.shamans_only and not is_shaman(sheet, condition):
        raise Refusal(
            "training pow: only a shaman or assistant shaman may train POW (ruling pow_training=shamans_only)"
        )
    if category(name) in ("trait", "passion") or not checkable(name):
        raise Refusal(f"training {name}: training raises skills and POW, not a {category(name)}")
    if not sheet.has(name):
        sheet = sheet.with_value(name, NEW_SKILL)
    cap = training_cap(item, name)
    if sheet.value(name) >= cap:
        return Trained(kind=item.kind, what=name, capped=cap)
    return Trained(kind=item.kind, what=name, gain=experience_roll(sheet, name, dice, "training"))


def resolve_winter(
    sheet: Sheet, condition: Condition, inputs: WinterInputs, rulings: Rulings, dice: Dice
) -> WinterOutcome:
    """Dice: "productivity", "worship", "experience:<check>" (one per check) and "training:<skill>" (one per
    month of skill training), each a d20. As the seed orders the Winter Phase, the experience checks are
    rolled first, then training and practice: a month of training rolls against the value experience left."""
    if hp(sheet, condition) <= 0 and not inputs.force:
        raise Refusal(f"a dead character ({hp(sheet, condition)} hit points) has no Winter Phase")
    if inputs.year in condition.winters:
        raise Refusal(f"the winter of year {inputs.year} is already recorded")
    if any(name not in STATISTICS or change > 0 for name, change in inputs.aging.items()):
        raise BadInput("aging lowers statistics: give e.g. str=-1")
    modifier = land_modifier(inputs.land_roll)
    checks, sources, economics, worship = set(condition.checks), [], None, None
    if inputs.productivity:
        roll = check(dice, sheet.value(inputs.productivity) + modifier + inputs.productivity_modifier, "productivity")
        status, pennies, standard = ECONOMICS[roll.result]
        economics = Economics(skill=inputs.productivity, roll=roll, status=status, pennies=pennies, standard=standard)
        if roll.result.succeeded:
            checks.add(inputs.productivity)
            sources.append(StatusSource(source="economics", amount=status))
    if inputs.worship:
        if not inputs.legacy:
            check_worship(sheet, condition, inputs.worship, rulings)
        worship = check(dice, sheet.value(inputs.worship) + inputs.worship_modifier, "worship")
        if worship.result.succeeded:
            checks.add("pow")
    sources += status_sources(sheet, condition, inputs)
    rolled = sorted(name for name in checks if checkable(name))
    if inputs.training_first:  # as versions 1 and 2 were decided
        sheet, trained = _training(sheet, condition, inputs, rulings, dice)
        experience = [experience_roll(sheet, name, dice) for name in rolled]
    else:
        experience = [experience_roll(sheet, name, dice) for name in rolled]
        sheet, _ = apply_gains(sheet, condition, experience, "experience", "")
        sheet, trained = _training(sheet, condition, inputs, rulings, dice)
    gained = sum(s.amount for s in sources)
    return WinterOutcome(
        year=inputs.year,
        land_roll=inputs.land_roll,
        land_modifier=modifier,
        status=gained,
        total=condition.status + gained,
        sources=tuple(sources),
        economics=economics,
        worship=worship,
        training=tuple(trained),
        checks=tuple(rolled),
        experience=tuple(experience),
    )


def _training(
    sheet: Sheet, condition: Condition, inputs: WinterInputs, rulings: Rulings, dice: Dice
) -> tuple[Sheet, list[Trained]]:
    """Each month of training in turn, on the sheet as the months before it left it."""
    trained = []
    for item in inputs.training:
        month = train(sheet, condition, item, rulings, dice)
        trained.append(month)
        if month.gain:  # a second month on the same skill rolls against the raised value
            sheet, _ = apply_gains(sheet, condition, [month.gain], "training", "")
    return sheet, trained


def after_winter(
    sheet: Sheet, condition: Condition, inputs: WinterInputs, out: WinterOutcome, here: str
) -> tuple[Sheet, Condition]:
    steps = [("training", [t.gain for t in out.training if t.gain]), ("experience", list(out.experience))]
    for cause, gains in steps if inputs.training_first else reversed(steps):  # in the order they were rolled
        sheet, condition = apply_gains(sheet, condition, gains, cause, here)
    for name, change in inputs.aging.items():
        sheet = sheet.with_value(name, sheet.value(name) + change)
    learned = tuple(f"{t.kind}:{t.what}" for t in out.training if t.kind != "skill")
    return sheet, condition.model_copy(
        update={
            "status": out.total,
            "winters": (*condition.winters, out.year),
            "checks": (),
            "learned": condition.learned + learned,
        }
    )


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)


def upcast_winter_v1_v2(state: dict[str, Any]) -> None:
    """Version 1 drew training and experience dice in order and checked neither worship nor caps
    by the skill: key its dice by check and mark it as recorded before those rules."""
    outcome = state.get("outcome", {})
    key_dice_by_check(
        state,
        {
            "training": [t["gain"]["what"] for t in outcome.get("training", []) if t.get("gain")],
            "experience": [g["what"] for g in outcome.get("experience", [])],
        },
    )
    state["inputs"] = {**state.get("inputs", {}), "legacy": True}


def upcast_winter_v2_v3(state: dict[str, Any]) -> None:
    """Version 2 trained before rolling the experience checks, and gave the dead a winter: it re-derives so."""
    state["inputs"] = {**state.get("inputs", {}), "training_first": True, "force": True}
