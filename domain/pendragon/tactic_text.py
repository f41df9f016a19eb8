"""A special tactic told for people: both sides, the rolls, and what the tactic did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .tactic_base import Effect, TacticOutcome
from .words import and_list, roll_words

if TYPE_CHECKING:
    from .combat import TacticInputs

EFFECTS = {
    "avoided": ("avoids the blow", "does not avoid the blow"),
    "hit": ("the blow lands", "the blow misses"),
    "defended": ("the defence holds", "the defence fails"),
    "held": ("the spear still holds the attacker off", "the spear no longer holds the attacker off"),
    "past_spear": ("the attack gets past the spear", "the spear stops the attack"),
    "parried": ("the shield parries the damage", ""),
    "spell_cast": ("the spell is cast", "the spell fails"),
    "shattered": ("the shield or weapon shatters", "it holds"),
    "disarmed": ("the weapon is knocked away", "no disarm"),
    "second_attack": ("a second, unopposed attack follows", "no second attack"),
    "second_hit": ("the second attack lands", "the second attack misses"),
}
NUMBERS = {
    "damage": "damage {}",
    "extra_damage": "{} extra damage (d6)",
    "metres": "the weapon flies {} metres",
    "extra_armour": "{} extra points of armour",
    "stops": "the parry stops {} points",
    "wins": "{} attacks won",
    "roll": "the weapon's save rolled {}",
    "target": "needing {} or less",
}
ROLES = {
    "attack": "the attack",
    "opponent": "the opponent",
    "dodge": "the dodge",
    "attack_portion": "the attack portion",
    "spear": "the spear",
    "shield": "the shield",
    "spell": "the spell",
    "second_attack": "the second attack",
}


def _effect(key: str, value: Effect) -> str:
    if isinstance(value, bool):
        yes, no = EFFECTS.get(key, (key.replace("_", " "), f"no {key.replace('_', ' ')}"))
        return yes if value else no
    if key in ("weapon", "broken"):
        return (
            "nothing breaks" if value == "none" else f"the weapon is {value}" if key == "weapon" else f"{value} breaks"
        )
    return NUMBERS.get(key, key.replace("_", " ") + " {}").format(value)


def tactic_sentences(inputs: TacticInputs, outcome: TacticOutcome, name: str) -> str:
    opponent = (getattr(inputs, "opponent", "") or "the opponent").partition(":")[0]
    skill = getattr(inputs, "skill", None)
    against = f" with {skill.replace('_', ' ').title()}" if skill else ""
    text = f"{name} uses the tactic {outcome.tactic.replace('-', ' ')}{against} against {opponent}"
    effects = dict(outcome.effects)
    handed = effects.pop("opponent_bonus", None)  # a reflexive modifier: the other side's bonus
    given = f", {handed:+d} to {opponent}" if isinstance(handed, int) and not isinstance(handed, bool) else ""
    text += f" ({outcome.modifier:+d} to {name}{given})." if outcome.modifier else "."
    rolls = []
    for role, roll in outcome.rolls.items():
        base, _, number = role.partition("_")
        who = {"attack": name, "opponent": opponent}.get(base if number.isdigit() else role, ROLES.get(role, role))
        rolls.append(f"{who}{f' (#{number})' if number.isdigit() else ''} rolled {roll_words(roll)}")
    if rolls:
        text += f" {and_list(rolls)[0].upper()}{and_list(rolls)[1:]}."
    if outcome.winner is not None:
        text += {"self": f" {name} wins.", "opponent": f" {opponent} wins."}.get(
            outcome.winner, " A tie." if outcome.tie else " Nobody wins."
        )
    said = [e for e in (_effect(k, v) for k, v in effects.items()) if e]
    if said:
        text += f" {and_list(said)[0].upper()}{and_list(said)[1:]}."
    if outcome.knocked_down:
        text += f" {name} is knocked down."
    return text
