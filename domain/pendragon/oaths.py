"""Oaths and geasa (seed: Oaths; Glory and Ambitions, Other)."""

from typing import ClassVar

from pydantic import Field

from ..dice import Dice
from ..errors import NotFound, Refusal
from ..model import Model
from .common import moved
from .condition import Condition, Geas, Oath
from .sheet import Sheet
from .status import MOST_AWARDED

GEAS_BROKEN_STATUS = 10  # -10 when it was a clan geas
GEAS_UPKEEP_STATUS = 5  # each winter, per geas kept


def find_oath(condition: Condition, ref: str) -> Oath:
    """An oath by the id or the text given at `swear` (docs/scripting.md)."""
    oath = next((o for o in condition.oaths if ref in (o.id, o.text)), None)
    if oath is None:
        raise NotFound(f"no oath {ref!r}")
    if oath.state != "open":
        raise Refusal(f"oath {oath.id} is already {oath.state}")
    return oath


def find_geas(condition: Condition, ref: str) -> Geas:
    geas = next((g for g in condition.geasa if ref in (g.id, g.text)), None)
    if geas is None:
        raise NotFound(f"no geas {ref!r}")
    if geas.state == "broken":
        raise Refusal(f"geas {geas.id} is already broken")
    return geas


def honor_loss(sheet: Sheet, loss: int) -> tuple[int, int]:
    """Honor before and after a loss; Honor does not fall below 0."""
    return sheet.honor, max(sheet.honor - loss, 0)


class SwearInputs(Model):
    text: str = Field(min_length=1)
    id: str | None = None  # default: oath-<n>


class SwearOutcome(Model):
    id: str


def swear(condition: Condition, inputs: SwearInputs) -> SwearOutcome:
    oath_id = inputs.id or f"oath-{len(condition.oaths) + 1}"
    if any(oath_id in (o.id, o.text) for o in condition.oaths):
        raise Refusal(f"an oath {oath_id!r} was already sworn")
    return SwearOutcome(id=oath_id)


def after_swearing(condition: Condition, inputs: SwearInputs, outcome: SwearOutcome) -> Condition:
    return condition.model_copy(update={"oaths": (*condition.oaths, Oath(id=outcome.id, text=inputs.text))})


def _closed(condition: Condition, oath_id: str, state: str) -> tuple[Oath, ...]:
    return tuple(o.model_copy(update={"state": state}) if o.id == oath_id else o for o in condition.oaths)


class FulfilInputs(Model):
    CORRECTED_AT_MOST: ClassVar[dict[str, int]] = {"status": MOST_AWARDED}  # as an award's amount

    oath: str
    status: int = Field(ge=0)  # set by the table: an oath of no weight gains none


class FulfilOutcome(Model):
    id: str
    status: int
    total: int


def fulfil(condition: Condition, inputs: FulfilInputs) -> FulfilOutcome:
    oath = find_oath(condition, inputs.oath)
    return FulfilOutcome(id=oath.id, status=inputs.status, total=condition.status + inputs.status)


def after_fulfilling(condition: Condition, outcome: FulfilOutcome) -> Condition:
    return condition.model_copy(update={"status": outcome.total, "oaths": _closed(condition, outcome.id, "fulfilled")})


class BreakOathInputs(Model):
    oath: str
    grave: bool = False  # the table rules it grave: d6 Honor instead of 1


class HonorOutcome(Model):
    id: str
    honor_loss: int
    honor_from: int
    honor_to: int
    status: int = 0  # Status gained (negative: lost)
    total: int = 0


def break_oath(sheet: Sheet, condition: Condition, inputs: BreakOathInputs, dice: Dice) -> HonorOutcome:
    """Dice: "honor_loss" (d6) when grave."""
    oath = find_oath(condition, inputs.oath)
    loss = dice.d(6, "honor_loss") if inputs.grave else 1
    before, after = honor_loss(sheet, loss)
    return HonorOutcome(id=oath.id, honor_loss=loss, honor_from=before, honor_to=after, total=condition.status)


def after_breaking_oath(sheet: Sheet, condition: Condition, outcome: HonorOutcome) -> tuple[Sheet, Condition]:
    return sheet.model_copy(update={"honor": outcome.honor_to}), condition.model_copy(
        update={"oaths": _closed(condition, outcome.id, "broken")}
    )


class GeasInputs(Model):
    text: str = Field(min_length=1)
    clan: bool = False
    id: str | None = None  # default: geas-<n>


def take_geas(condition: Condition, inputs: GeasInputs) -> SwearOutcome:
    geas_id = inputs.id or f"geas-{len(condition.geasa) + 1}"
    if any(geas_id in (g.id, g.text) for g in condition.geasa):
        raise Refusal(f"a geas {geas_id!r} was already taken")
    return SwearOutcome(id=geas_id)


def after_taking_geas(condition: Condition, inputs: GeasInputs, outcome: SwearOutcome) -> Condition:
    geas = Geas(id=outcome.id, text=inputs.text, clan=inputs.clan)
    return condition.model_copy(update={"geasa": (*condition.geasa, geas)})


class BreakGeasInputs(Model):
    geas: str


def break_geas(sheet: Sheet, condition: Condition, inputs: BreakGeasInputs, dice: Dice) -> HonorOutcome:
    """+10 Status (-10 for a clan geas) and d6 Honor lost. Dice: "honor_loss" (d6)."""
    geas = find_geas(condition, inputs.geas)
    loss = dice.d(6, "honor_loss")
    before, after = honor_loss(sheet, loss)
    status = -GEAS_BROKEN_STATUS if geas.clan else GEAS_BROKEN_STATUS
    return HonorOutcome(
        id=geas.id,
        honor_loss=loss,
        honor_from=before,
        honor_to=after,
        status=status,
        total=max(condition.status + status, 0),
    )  # never below 0


def after_breaking_geas(sheet: Sheet, condition: Condition, outcome: HonorOutcome) -> tuple[Sheet, Condition]:
    geasa = tuple(g.model_copy(update={"state": "broken"}) if g.id == outcome.id else g for g in condition.geasa)
    return sheet.model_copy(update={"honor": outcome.honor_to}), condition.model_copy(
        update={"status": outcome.total, "geasa": geasa}
    )


def __getattr__(name: str) -> type:
    """Event classes this module held before `events.py` (their topics in older events)."""
    return moved(__name__, name)
