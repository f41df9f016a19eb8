"""Oaths and geasa (seed: Oaths; Glory and Ambitions, Other)."""

from pydantic import Field

from ..dice import Dice
from ..errors import NotFound, Refusal
from ..events import Resolution
from ..model import Model
from .condition import Condition, Geas, Oath
from .sheet import Sheet

GEAS_BROKEN_STATUS = 10  # -10 when it was a clan geas
GEAS_UPKEEP_STATUS = 5  # each winter, per geas kept


def find_oath(condition: Condition, ref: str) -> Oath:
    """An oath by the id or the text given at `swear` (CONTRACT.md)."""
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


class OathSworn(Resolution):
    """No dice."""

    inputs: SwearInputs
    outcome: SwearOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: SwearInputs, rulings, dice: Dice) -> SwearOutcome:
        oath_id = inputs.id or f"oath-{len(condition.oaths) + 1}"
        if any(oath_id in (o.id, o.text) for o in condition.oaths):
            raise Refusal(f"an oath {oath_id!r} was already sworn")
        return SwearOutcome(id=oath_id)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        oath = Oath(id=self.outcome.id, text=self.inputs.text)
        return sheet, condition.model_copy(update={"oaths": (*condition.oaths, oath)})


def _closed(condition: Condition, oath_id: str, state: str) -> tuple[Oath, ...]:
    return tuple(o.model_copy(update={"state": state}) if o.id == oath_id else o for o in condition.oaths)


class FulfilInputs(Model):
    oath: str
    status: int = Field(ge=0)  # set by the table: an oath of no weight gains none


class FulfilOutcome(Model):
    id: str
    status: int
    total: int


class OathFulfilled(Resolution):
    """No dice."""

    inputs: FulfilInputs
    outcome: FulfilOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: FulfilInputs, rulings, dice: Dice) -> FulfilOutcome:
        oath = find_oath(condition, inputs.oath)
        return FulfilOutcome(id=oath.id, status=inputs.status, total=condition.status + inputs.status)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.model_copy(
            update={"status": self.outcome.total, "oaths": _closed(condition, self.outcome.id, "fulfilled")})


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


class OathBroken(Resolution):
    """Dice: "honor_loss" (d6) when grave."""

    inputs: BreakOathInputs
    outcome: HonorOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: BreakOathInputs, rulings, dice: Dice) -> HonorOutcome:
        oath = find_oath(condition, inputs.oath)
        loss = dice.d(6, "honor_loss") if inputs.grave else 1
        before, after = honor_loss(sheet, loss)
        return HonorOutcome(id=oath.id, honor_loss=loss, honor_from=before, honor_to=after, total=condition.status)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet.model_copy(update={"honor": self.outcome.honor_to}), condition.model_copy(
            update={"oaths": _closed(condition, self.outcome.id, "broken")})


class GeasInputs(Model):
    text: str = Field(min_length=1)
    clan: bool = False
    id: str | None = None  # default: geas-<n>


class GeasTaken(Resolution):
    """No dice."""

    inputs: GeasInputs
    outcome: SwearOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: GeasInputs, rulings, dice: Dice) -> SwearOutcome:
        geas_id = inputs.id or f"geas-{len(condition.geasa) + 1}"
        if any(geas_id in (g.id, g.text) for g in condition.geasa):
            raise Refusal(f"a geas {geas_id!r} was already taken")
        return SwearOutcome(id=geas_id)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        geas = Geas(id=self.outcome.id, text=self.inputs.text, clan=self.inputs.clan)
        return sheet, condition.model_copy(update={"geasa": (*condition.geasa, geas)})


class BreakGeasInputs(Model):
    geas: str


class GeasBroken(Resolution):
    """Breaking a geas: +10 Status (-10 for a clan geas) and d6 Honor lost. Dice: "honor_loss" (d6)."""

    inputs: BreakGeasInputs
    outcome: HonorOutcome

    @classmethod
    def derive(cls, sheet: Sheet, condition: Condition, inputs: BreakGeasInputs, rulings, dice: Dice) -> HonorOutcome:
        geas = find_geas(condition, inputs.geas)
        loss = dice.d(6, "honor_loss")
        before, after = honor_loss(sheet, loss)
        status = -GEAS_BROKEN_STATUS if geas.clan else GEAS_BROKEN_STATUS
        return HonorOutcome(id=geas.id, honor_loss=loss, honor_from=before, honor_to=after,
                            status=status, total=condition.status + status)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        geasa = tuple(g.model_copy(update={"state": "broken"}) if g.id == self.outcome.id else g for g in condition.geasa)
        return sheet.model_copy(update={"honor": self.outcome.honor_to}), condition.model_copy(
            update={"status": self.outcome.total, "geasa": geasa})
