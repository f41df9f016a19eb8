"""What happens to a PenDragon Pass character: wounds, states, Status, increases, oaths, geasa, checks."""

from datetime import datetime
from typing import Any, Literal

from ..model import Model
from .increases import increases_earned
from .rulings import UnconsciousThreshold
from .sheet import Sheet


class Wound(Model):
    """One wound, tracked on its own (seed: First Aid once, magical healing once, per wound)."""

    id: int
    received: int  # damage when dealt
    amount: int  # damage still unhealed: hp = SIZ + CON - sum of these
    major: bool  # one wound of CON or more (docs/rulings.md, PenDragon Pass, Injury)
    needs_chirurgery: bool
    first_aid_done: bool = False
    magic_healed: bool = False
    at: datetime | None = None


class Increase(Model):
    what: str
    by: int
    cause: Literal["status", "experience", "training"]
    event: str  # "<originator_id>:<originator_version>"


class Oath(Model):
    id: str
    text: str
    state: Literal["open", "fulfilled", "broken"] = "open"


class Geas(Model):
    id: str
    text: str
    clan: bool = False
    state: Literal["kept", "broken"] = "kept"


class Condition(Model):
    wounds: tuple[Wound, ...] = ()
    unconscious: bool = False  # decided by the injury and healing events under the ruling then in force
    knocked_down: bool = False  # the last blow, feat or dodge put the character down
    chirurgery_for_unconsciousness: bool = False  # set on falling unconscious, cleared by magic or Chirurgery
    chirurgery_at: datetime | None = None  # the last Chirurgery attempt (one a week: chirurgery.py)
    status: int = 0
    increases_spent: int = 0
    increases: tuple[Increase, ...] = ()
    honours: tuple[str, ...] = ()
    oaths: tuple[Oath, ...] = ()
    geasa: tuple[Geas, ...] = ()
    winters: tuple[int, ...] = ()
    checks: tuple[str, ...] = ()  # values marked for an experience roll
    learned: tuple[str, ...] = ()  # spells and tactics learned by training: "spell:<name>", "tactic:<name>"

    @property
    def damage(self) -> int:
        return sum(w.amount for w in self.wounds)

    @property
    def increases_earned(self) -> int:
        return increases_earned(self.status)

    @property
    def increases_pending(self) -> int:
        return max(self.increases_earned - self.increases_spent, 0)

    def next_wound(self, given: int | None = None) -> int:
        """The number a new wound takes: `given` (the number the command gave it when it was recorded, kept
        by a correction of an earlier wound) unless a wound already has it, else one more than the highest."""
        taken = {w.id for w in self.wounds}
        if given is not None and given not in taken:
            return given
        return max(taken, default=0) + 1

    def wound(self, wound_id: int) -> Wound | None:
        return next((w for w in self.wounds if w.id == wound_id), None)

    def with_wound(self, wound: Wound) -> "Condition":
        return self.model_copy(update={"wounds": tuple(wound if w.id == wound.id else w for w in self.wounds)})

    def with_check(self, *names: str) -> "Condition":
        return self.model_copy(update={"checks": tuple(sorted(set(self.checks) | set(names)))})


def is_unconscious_at(hp: int, max_hp: int, threshold: UnconsciousThreshold) -> bool:
    """docs/rulings.md `unconscious_threshold`: quarter means at or below max_hp // 4."""
    if threshold is UnconsciousThreshold.quarter:
        return hp <= max_hp // 4
    return 4 * hp < max_hp


def hp(sheet: Sheet, condition: Condition) -> int:
    return sheet.max_hp - condition.damage


STATE_WORDS = {  # each state of `states` as people say it: a badge, a summary, a reply's Condition line
    "dead": "dead",
    "unconscious": "unconscious",
    "knocked_down": "knocked down",
    "needs_chirurgery": "needs Chirurgery",
    "major_wound": "a major wound",
}


def states(sheet: Sheet, condition: Condition) -> list[str]:
    current = hp(sheet, condition)
    found = []
    if current <= 0:
        found.append("dead")  # standard Pendragon: no hit points left
    elif condition.unconscious:
        found.append("unconscious")
    if condition.knocked_down:
        found.append("knocked_down")
    if condition.chirurgery_for_unconsciousness or any(w.needs_chirurgery for w in condition.wounds):
        found.append("needs_chirurgery")
    if any(w.major and w.amount > 0 for w in condition.wounds):
        found.append("major_wound")
    return found


def view(sheet: Sheet, condition: Condition) -> dict[str, Any]:
    """The contract's `character show --json` parts for pendragon-pass."""
    return {
        "condition": {
            "hp": hp(sheet, condition),
            "max_hp": sheet.max_hp,
            "wounds": [w.model_dump(mode="json") for w in condition.wounds],
            "states": states(sheet, condition),
        },
        "status": {
            "total": condition.status,
            "increases_earned": condition.increases_earned,
            "increases_spent": condition.increases_spent,
            "increases_pending": condition.increases_pending,
        },
        "increases": [i.model_dump(mode="json") for i in condition.increases],
        "oaths": [o.model_dump(mode="json") for o in condition.oaths],
        "geasa": [g.model_dump(mode="json") for g in condition.geasa],
        "honours": list(condition.honours),
        "checks": list(condition.checks),
        "winters": list(condition.winters),
        "learned": list(condition.learned),
    }


def summary(sheet: Sheet, condition: Condition) -> str:
    """One line, e.g. "hp 14/28, Status 1,100, 1 increase pending, needs Chirurgery, a major wound"."""
    found = [STATE_WORDS[state] for state in states(sheet, condition)]
    pending = condition.increases_pending
    told = f", {pending} increase{'' if pending == 1 else 's'} pending" if pending else ""
    return f"hp {hp(sheet, condition)}/{sheet.max_hp}, Status {condition.status:,}{told}" + "".join(
        f", {words}" for words in found
    )
