"""A character's condition: real and temporary damage and the states they and the special attacks cause."""

from __future__ import annotations

from typing import Any

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from ..errors import BadInput
from ..model import Model
from .rulings import Rulings
from .sheet import Sheet


class Condition(Model):
    real_damage: int = Field(0, ge=0)
    temporary_damage: int = Field(0, ge=0)
    unconscious: bool = False  # from damage (docs/rulings.md, AD&D 2E, temporary_unconscious)
    dead: bool = False
    knocked_out_rounds: int = Field(0, ge=0, description="Rounds left of a mugging or sap knockout.")
    asleep: bool = False
    magically_held: bool = False
    held_by: str | None = Field(None, description="Who holds the character after a one-handed grab.")
    hold_strength: str | None = Field(None, description="The holder's Strength as it counted in the grab (18/51, 14).")

    @model_serializer(mode="wrap")
    def _without_unset_newer_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """Dumped as before `hold_strength` existed when it is unset: an amendment stores the dump."""
        dumped: dict[str, object] = handler(self)
        if dumped.get("hold_strength", "") is None:
            del dumped["hold_strength"]
        return dumped

    @property
    def states(self) -> list[str]:
        """The contract's `states` (identifiers; STATE_WORDS says each in words)."""
        flags = {
            "dead": self.dead,
            "unconscious": not self.dead and (self.unconscious or self.knocked_out_rounds > 0),
            "knocked_out": not self.dead and self.knocked_out_rounds > 0,
            "asleep": self.asleep,
            "magically_held": self.magically_held,
            "held": self.held_by is not None,
        }
        return [state for state, on in flags.items() if on]


STATE_WORDS = {  # each state of `Condition.states` as people say it (`states_in_words` adds rounds and holder)
    "dead": "dead",
    "unconscious": "unconscious",
    "knocked_out": "knocked out",
    "asleep": "asleep",
    "magically_held": "magically held",
    "held": "held",
}


def max_hp(sheet: Sheet) -> int:
    if sheet.hp is None:
        raise BadInput("the sheet has no hp: add it with --stat hp=N")
    return sheet.hp


def settle(sheet: Sheet, condition: Condition, real: int, temporary: int, rulings: Rulings) -> tuple[bool, bool]:
    """(unconscious, dead) after damage: death by real damage alone (`death_at`, standard 0);
    real+temporary at or over max hp knocks out when `temporary_unconscious` (docs/rulings.md, AD&D 2E)."""
    top = max_hp(sheet)
    dead = condition.dead or top - real <= rulings.death_at
    knocked = top - real <= 0 or (rulings.temporary_unconscious and real + temporary >= top)
    return (not dead and knocked), dead


def view(sheet: Sheet, condition: Condition) -> dict[str, Any]:
    top = sheet.hp or 0
    return {
        "condition": {
            "hp": top - condition.real_damage - condition.temporary_damage,
            "max_hp": top,
            "real_damage": condition.real_damage,
            "temporary_damage": condition.temporary_damage,
            "states": condition.states,
            "knocked_out_rounds": condition.knocked_out_rounds,
            "held_by": condition.held_by,
        },
        "sheet": sheet.model_dump(mode="json", exclude_none=True),
    }


def states_in_words(condition: Condition) -> list[str]:
    """The condition's states as a table says them ("knocked out for 3 rounds", "held by Brute")."""
    words = []
    for state in condition.states:
        if state == "knocked_out":
            rounds = condition.knocked_out_rounds
            words.append(f"knocked out for {rounds} round{'' if rounds == 1 else 's'}")
        elif state == "held":
            words.append(f"held by {condition.held_by}")
        else:
            words.append(STATE_WORDS[state])
    return words


def summary(sheet: Sheet, condition: Condition) -> str:
    shown = view(sheet, condition)["condition"]
    line = f"{shown['hp']}/{shown['max_hp']} hp ({condition.real_damage} real, {condition.temporary_damage} temporary)"
    states = states_in_words(condition)
    return f"{line}, {', '.join(states)}" if states else line
