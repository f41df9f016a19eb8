"""The events of AD&D 2E non-lethal combat: one per action, each deriving its outcome by a pure rule
and folding it into the character. Two-character actions are recorded on the victim or target, with
what they need of the other character copied into their inputs."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from ..dice import Dice
from ..events import Resolution
from ..model import Model
from .attacks import AttackInputs, AttackOutcome, attack
from .condition import Condition
from .damage import InjureInputs, InjureOutcome, RestInputs, RestOutcome, injure, rest
from .grab import BreakHoldInputs, ContestOutcome, GrabInputs, break_hold, grab
from .mugging import MugInputs, MugOutcome, mug
from .rulings import Rulings
from .sheet import Sheet


def _rulings(rulings: Rulings | dict[str, Any]) -> Rulings:
    return rulings if isinstance(rulings, Rulings) else Rulings.model_validate(rulings)


def _knockout_rounds(condition: Condition, rounds: int | None) -> int:
    """The rounds out cold after a new knockout of `rounds`: the longer of it and the one running."""
    return max(condition.knocked_out_rounds, rounds or 0)


def _unlinked(attack: int | str | None) -> bool:
    return attack is None


class Injured(Resolution):
    """Damage taken: from `injure`, or a hit of an attack, which names its Attacked event (`attack`) and is
    decided again from it (domain/refold.py); `attack` is left out of the stored JSON when None, so injuries
    recorded before hits dealt their damage keep their bytes."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"knockout", "knockout_rounds"})
    inputs: InjureInputs
    outcome: InjureOutcome
    attack: int | None = Field(None, exclude_if=_unlinked, description="The version of the hit's Attacked event.")
    strike: str | None = Field(
        None,
        exclude_if=_unlinked,
        description="The id of the Attacked event (on another character) whose armed defender's strike this is.",
    )

    def answers(self, attack: str, defender: str, linked_only: bool) -> bool:
        """Whether this is the injury the armed defender's strike of the attack `attack` dealt: linked to it, or
        (`linked_only` False, for one recorded before strikes named their attack) a lethal blow by `defender`."""
        if self.strike is not None or linked_only:
            return self.strike == attack
        return self.attack is None and self.inputs.mode == "lethal" and self.inputs.attacker == defender

    def source(self) -> tuple[int, int] | None:
        """(its attack's version, 1) for the hit of an attack, else None (an injure, linked to nothing)."""
        return None if self.attack is None else (self.attack, 1)

    @staticmethod
    def follow(blow: InjureInputs, condition: Condition, recorded: InjureInputs | None) -> InjureInputs:
        return blow

    @staticmethod
    def linked(attack: int) -> dict[str, Any]:
        return {"attack": attack}

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: InjureInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> InjureOutcome:
        return injure(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        o = self.outcome
        return sheet, condition.model_copy(
            update={
                "real_damage": condition.real_damage + o.real,
                "temporary_damage": condition.temporary_damage + o.temporary,
                "unconscious": o.unconscious,
                "dead": o.dead,
                "asleep": condition.asleep and not o.woken,
                "knocked_out_rounds": _knockout_rounds(condition, o.knockout_rounds),
            }
        )


class Rested(Resolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset()
    inputs: RestInputs
    outcome: RestOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: RestInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> RestOutcome:
        return rest(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        o = self.outcome
        return sheet, condition.model_copy(
            update={
                "real_damage": condition.real_damage - o.real_healed,
                "temporary_damage": condition.temporary_damage - o.temporary_healed,
                "knocked_out_rounds": o.knocked_out_rounds,
                "unconscious": o.unconscious,
                "dead": o.dead,
            }
        )


class Attacked(Resolution):
    """The record of one attack roll on this character: its modifiers, whether it hit and a hit's damage,
    which follows as an Injured event naming it (an armed defender's strike is the attacker's injury)."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"defence", "attack", "damage", "defence_damage"})
    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Attacks recorded before the ruling monster_thac0 gave a monster without a THAC0 20."""
        state["rulings"] = {"monster_thac0": "twenty", **(state.get("rulings") or {})}

    inputs: AttackInputs
    outcome: AttackOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: AttackInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> AttackOutcome:
        return attack(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition

    CONSEQUENCE: ClassVar[type[Injured]] = Injured
    ANSWER: ClassVar[type[Injured]] = Injured  # the armed defender's strike, recorded on the attacker

    def answer(self, defender: str) -> InjureInputs | None:
        """The injury the armed defender's strike deals the attacker (recorded on the attacker, lethal, its +4
        counted), or None: no strike, a miss, or damage left to the table."""
        strike = self.outcome.defender_strike
        if strike is None or strike.damage is None:
            return None
        return InjureInputs(damage=strike.damage, attacker=defender, mode="lethal")

    def consequences(self) -> tuple[InjureInputs, ...]:
        """A hit's damage, recorded as an Injured event naming this attack (none for a miss, or an attack
        recorded before hits dealt their damage)."""
        damage = self.outcome.damage
        blow = None if damage is None else self.inputs.blow(damage)
        return () if blow is None else (blow,)


class Mugged(Resolution):
    PURPOSES: ClassVar[frozenset[str]] = frozenset({"save", "knockout_rounds"})
    inputs: MugInputs
    outcome: MugOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: MugInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> MugOutcome:
        return mug(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        rounds = _knockout_rounds(condition, self.outcome.knockout_rounds)
        return sheet, condition.model_copy(update={"knocked_out_rounds": rounds})


class Grabbed(Resolution):
    """A grab that hit: the Strength contest against this character (the object's holder or the grabbed)."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"grab_round"})
    inputs: GrabInputs
    outcome: ContestOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: GrabInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> ContestOutcome:
        return grab(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        if self.inputs.target == "object" or not self.outcome.won:
            return sheet, condition
        return sheet, condition.model_copy(
            update={"held_by": self.inputs.grabber or "someone", "hold_strength": self.outcome.first_strength}
        )


class HoldContested(Resolution):
    """A held character's attempt to break the hold by the Strength contest."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset({"hold_round"})
    inputs: BreakHoldInputs
    outcome: ContestOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: BreakHoldInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> ContestOutcome:
        return break_hold(sheet, condition, inputs, _rulings(rulings), dice)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        return sheet, condition.model_copy(
            update={"held_by": None, "hold_strength": None}
        ) if self.outcome.won else condition


class StateInputs(Model):
    state: Literal["asleep", "magically_held", "held"]
    active: bool = True
    holder: str | None = None  # who holds, for "held"


class StateOutcome(Model):
    state: str
    active: bool


class StateChanged(Resolution):
    """A state set or cleared from outside these rules (a sleep spell, hold person, a released hold)."""

    PURPOSES: ClassVar[frozenset[str]] = frozenset()
    inputs: StateInputs
    outcome: StateOutcome

    @classmethod
    def derive(
        cls, sheet: Sheet, condition: Condition, inputs: StateInputs, rulings: Rulings | dict[str, Any], dice: Dice
    ) -> StateOutcome:
        return StateOutcome(state=inputs.state, active=inputs.active)

    def evolve(self, sheet: Sheet, condition: Condition) -> tuple[Sheet, Condition]:
        state, active = self.outcome.state, self.outcome.active
        if state == "held":
            return sheet, condition.model_copy(
                update={"held_by": (self.inputs.holder or "someone") if active else None, "hold_strength": None}
            )
        return sheet, condition.model_copy(update={state: active})


EVENTS = (Injured, Rested, Attacked, Mugged, Grabbed, HoldContested, StateChanged)
