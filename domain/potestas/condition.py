"""The condition ladders (docs/rulings.md, Potestas, Condition ladder): pure steps from one Condition to the next.

Lethal track: healthy -> wounded(n) -> disabled -> dying -> dead, with `stable` resting a dying
character (objects: disabled means destroyed). Nonlethal track: fresh -> bruised(n) -> staggered ->
unconscious. The tracks are independent, except that a lethal wound also worsens staggered.
"""

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..model import Model

if TYPE_CHECKING:
    from .sheet import Sheet

Lethal = Literal["healthy", "disabled", "dying", "stable", "dead", "destroyed"]
Nonlethal = Literal["fresh", "staggered", "unconscious"]

# Injury degrees: how badly a failed save went (docs/rulings.md, Potestas, Injury: disable_margin, drop_margin).
NONE, WOUND, DISABLING, DROPPING = 0, 1, 2, 3

STATE_ORDER = ("disabled", "staggered", "unconscious", "dying", "stable", "dead", "destroyed")
STATE_WORDS = {state: state for state in STATE_ORDER}  # the seed's own words for its states, as people say them
_LETHAL_BY_DEGREE: dict[int, Lethal] = {WOUND: "healthy", DISABLING: "disabled", DROPPING: "dying"}
_NONLETHAL_BY_DEGREE: dict[int, Nonlethal] = {WOUND: "fresh", DISABLING: "staggered", DROPPING: "unconscious"}
_LETHAL_HEALED: dict[str, Lethal] = {"dying": "disabled", "stable": "disabled", "disabled": "healthy"}
_NONLETHAL_HEALED: dict[str, Nonlethal] = {"unconscious": "staggered", "staggered": "fresh"}


class Condition(Model):
    wounds: int = Field(0, ge=0, description="Lethal wounds: -1 each on every injury save.")
    nonlethal_wounds: int = Field(0, ge=0, description="Nonlethal wounds: -1 each on saves against nonlethal damage.")
    lethal: Lethal = "healthy"
    nonlethal: Nonlethal = "fresh"
    dying_saves: int = Field(
        0, ge=0, description="Dying saves made since the character began dying (dying_dc=10_plus_prior)."
    )
    rounds_unconscious: int = Field(
        0, ge=0, description="Rounds of the current spell of unconsciousness the log shows (dying_dc=10_plus_rounds)."
    )

    @property
    def states(self) -> list[str]:
        """The contract's `states`: the lethal and nonlethal steps past wounded/bruised, in a fixed order."""
        present = {self.lethal, self.nonlethal}
        return [s for s in STATE_ORDER if s in present]

    @property
    def conscious(self) -> bool:
        return self.lethal in ("healthy", "disabled") and self.nonlethal != "unconscious"

    @property
    def finished(self) -> bool:
        """Dead or destroyed: further injury is refused unless forced."""
        return self.lethal in ("dead", "destroyed")

    def contract(self) -> dict:
        return {
            "wounds": self.wounds,
            "nonlethal_wounds": self.nonlethal_wounds,
            "states": self.states,
            "dying_saves": self.dying_saves,
            "rounds_unconscious": self.rounds_unconscious,
            "conscious": self.conscious,
        }

    def settled(self) -> "Condition":
        """The round count belongs to one spell of unconsciousness: waking ends it."""
        return self.model_copy(update={"rounds_unconscious": 0}) if self.conscious and self.rounds_unconscious else self

    def after_rounds(self, rounds: int) -> "Condition":
        """`rounds` more rounds passed; they count only while the character is unconscious."""
        if self.conscious or rounds <= 0:
            return self
        return self.model_copy(update={"rounds_unconscious": self.rounds_unconscious + rounds})

    def with_lethal(self, lethal: Lethal) -> "Condition":
        """Move the lethal track; entering dying anew starts the dying-save count again."""
        saves = self.dying_saves if lethal == "dying" and self.lethal == "dying" else 0
        return self.model_copy(update={"lethal": lethal, "dying_saves": saves})


class StatesAfter(Model):
    """An outcome that keeps the character's states after it, so its explanation can say them. Outcomes
    recorded before it was kept have None, and match a re-derivation of them on everything else."""

    states: tuple[str, ...] | None = Field(
        None, description="The states after this event (None: recorded before kept)."
    )

    def __eq__(self, other: object) -> bool:
        if (
            not isinstance(other, StatesAfter)
            or type(other) is not type(self)
            or None not in (self.states, other.states)
        ):
            return super().__eq__(other)
        return {**self.__dict__, "states": None} == {**other.__dict__, "states": None}

    def __hash__(self) -> int:
        return hash(tuple(v for k, v in self.__dict__.items() if k != "states"))


def after_wound(condition: Condition, degree: int, wound_while_stable: Lethal, is_object: bool) -> Condition:
    """A lethal wound: disabled -> dying -> dead, stable -> `wound_while_stable`; staggered -> unconscious."""
    state = condition.lethal
    if state == "healthy":
        lethal = _LETHAL_BY_DEGREE[degree]
    elif state == "disabled":
        lethal = "dying"
    elif state == "dying":
        lethal = "dead"
    elif state == "stable":
        lethal = wound_while_stable
    else:
        lethal = state
    if is_object and lethal in ("disabled", "dying"):
        lethal = "destroyed"  # seed, Objects: a disabled object is destroyed
    nonlethal: Nonlethal = "unconscious" if condition.nonlethal == "staggered" else condition.nonlethal
    worse = condition.with_lethal(lethal)
    return worse.model_copy(update={"wounds": condition.wounds + 1, "nonlethal": nonlethal}).settled()


def after_nonlethal_wound(condition: Condition, degree: int) -> Condition:
    """A nonlethal wound: staggered -> unconscious; a character knocked out ignores it entirely (a dying or
    stable one too, but that is decided when the wound is derived: `InjuryOutcome.ignored`)."""
    if condition.nonlethal == "unconscious":
        return condition
    nonlethal = "unconscious" if condition.nonlethal == "staggered" else _NONLETHAL_BY_DEGREE[degree]
    return condition.model_copy(update={"nonlethal": nonlethal, "nonlethal_wounds": condition.nonlethal_wounds + 1})


def after_exertion(condition: Condition) -> Condition:
    """A standard action, moving over half speed or other strenuous action:
    disabled -> dying, staggered -> unconscious."""
    lethal: Lethal = "dying" if condition.lethal == "disabled" else condition.lethal
    nonlethal: Nonlethal = "unconscious" if condition.nonlethal == "staggered" else condition.nonlethal
    return condition.with_lethal(lethal).model_copy(update={"nonlethal": nonlethal}).settled()


def heal_wound(condition: Condition) -> Condition:
    """One healed wound: one fewer (never below zero) and one step up (dying/stable -> disabled -> wounded)."""
    healed = condition.with_lethal(_LETHAL_HEALED.get(condition.lethal, condition.lethal))
    return healed.model_copy(update={"wounds": max(0, condition.wounds - 1)}).settled()


def heal_nonlethal_wound(condition: Condition) -> Condition:
    """One healed nonlethal wound: unconscious -> staggered (conscious again) -> bruised."""
    nonlethal = _NONLETHAL_HEALED.get(condition.nonlethal, condition.nonlethal)
    healed = condition.model_copy(
        update={"nonlethal": nonlethal, "nonlethal_wounds": max(0, condition.nonlethal_wounds - 1)}
    )
    return healed.settled()


def needs_lethal_healing(condition: Condition) -> bool:
    return condition.wounds > 0 or condition.lethal in _LETHAL_HEALED


def needs_nonlethal_healing(condition: Condition) -> bool:
    return condition.nonlethal_wounds > 0 or condition.nonlethal in _NONLETHAL_HEALED


def view(sheet: "Sheet", condition: Condition) -> dict[str, Any]:
    """The contract's JSON for `character show`: the condition (wounds, nonlethal_wounds, states) and the sheet."""
    return {
        "kind": sheet.kind,
        "condition": condition.contract(),
        "sheet": sheet.model_dump(mode="json", exclude={"kind"}),
    }


def summary(sheet: "Sheet", condition: Condition) -> str:
    """One line, e.g. "2 wounds, 1 nonlethal; disabled"."""
    counts = []
    if condition.wounds:
        counts.append(f"{condition.wounds} wound{'s' if condition.wounds != 1 else ''}")
    if condition.nonlethal_wounds:
        counts.append(f"{condition.nonlethal_wounds} nonlethal")
    text = ", ".join(counts) or ("intact" if sheet.is_object else "unhurt")
    states = [STATE_WORDS[state] for state in condition.states]
    return f"{text}; {', '.join(states)}" if states else text
