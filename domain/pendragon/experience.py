"""Checks and experience rolls (docs/rulings.md, PenDragon Pass, Winter Phase: Experience)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from ..dice import Dice
from ..errors import Refusal
from ..model import Model
from .condition import Condition, Increase
from .sheet import STATISTICS, Sheet


class Gain(Model):
    """One experience roll, the contract's `experience` item: {"what", "roll", "from", "to"}."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    what: str
    roll: int
    from_: int = Field(alias="from")
    to: int


def checkable(name: str) -> bool:
    """POW is the only statistic experience can raise."""
    return name not in STATISTICS or name == "pow"


def mark_check(condition: Condition, name: str) -> Condition:
    if not checkable(name):
        raise Refusal(f"{name} is a statistic other than POW: experience cannot raise it")
    return condition.with_check(name)


def experience_roll(sheet: Sheet, name: str, dice: Dice, purpose: str = "experience") -> Gain:
    """A d20 over the current value, or a 20, raises it by 1. Dice: "<purpose>:<name>", keyed by the
    value rolled for (never by order), so a correction that adds or drops a check moves no other die."""
    before = sheet.value(name)
    roll = dice.d(20, f"{purpose}:{name}")
    return Gain(what=name, roll=roll, from_=before, to=before + 1 if roll > before or roll == 20 else before)


def apply_gains(
    sheet: Sheet, condition: Condition, gains: list[Gain], cause: str, event: str
) -> tuple[Sheet, Condition]:
    """Raise each gained value; a trait's opposite falls by 1 (standard Pendragon). A skill new to the sheet
    (learned by training) is written from the value it was trained from."""
    increases = list(condition.increases)
    for gain in gains:
        if gain.to > gain.from_:
            if not sheet.has(gain.what):
                sheet = sheet.with_value(gain.what, gain.from_)
            sheet = sheet.raised(gain.what, gain.to - gain.from_)
            increases.append(Increase(what=gain.what, by=gain.to - gain.from_, cause=cause, event=event))
    return sheet, condition.model_copy(update={"increases": tuple(increases)})


def key_dice_by_check(state: dict[str, Any], purposes: dict[str, list[str]]) -> None:
    """Upcast: an event of class_version 1 drew `experience` (and `training`) dice in order, one per
    check; `purposes` gives, per purpose, the names its outcome rolled for in that order. Each recorded
    roll is renamed `experience:<name>`, so the event re-derives from the dice it was recorded with."""
    dice = state.get("dice") or {}
    taken = {purpose: 0 for purpose in purposes}
    rolls = []
    for roll in dice.get("rolls", []):
        names, index = purposes.get(roll["purpose"]), taken.get(roll["purpose"], 0)
        if names is not None and index < len(names):
            taken[roll["purpose"]] += 1
            roll = {**roll, "purpose": f"{roll['purpose']}:{names[index]}"}
        rolls.append(roll)
    if dice:
        state["dice"] = {**dice, "rolls": rolls}
