"""PenDragon Pass special tactics and weapon cases (docs/rulings.md, PenDragon Pass, Feats, tactics, weapons): one
recorded `TacticResolved` on the character, its opponents' values copied from their sheets."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, TypeAdapter, ValidationError

from ....domain.errors import BadInput
from ....domain.model import Model
from ....domain.pendragon import TacticResolved
from ....domain.pendragon.combat import TacticInputs
from ..session import Session
from . import problem
from .base import Reply, handles
from .fields import Faces, Int64, Pairs, pairs, whole_numbers
from .pendragon_common import NameSkill, OnCharacter, opponent_value, record

MODELS: dict[str, type[Model]] = {
    model.model_fields["tactic"].default: model for model in get_args(get_args(TacticInputs)[0])
}
ADAPTER: TypeAdapter[Any] = TypeAdapter(TacticInputs)
OPPONENTS = ("opponent", "opponent_value")  # the command's fields that name the opponents
# the command's fields that are the table's dice, or say something other than the tactic's own fields
NOT_INPUTS = frozenset({"name", "tactic", *OPPONENTS, "roll", "opponent_roll", "dice", "released"})

TacticName = Literal[
    "break-shield",
    "disarm",
    "great-blow",
    "flurry",
    "multiple-opponents",
    "spell-with-attack",
    "dodge",
    "dodge-and-fight",
    "hold-off",
    "large-shield",
    "formation",
    "missile-against-shield",
    "spell-weapon-fumble",
    "sword-ties-magic-weapon",
    "sword-clash",
    "special-parry",
]
Metal = Literal["iron", "bronze"]


class Tactic(OnCharacter):
    """Resolve one special TACTIC for NAME and record it (one event on NAME).

    Tactics: break-shield and disarm (-5; damage vs parry armour 6 or the foe's STR), great-blow (-5,
    +1d6 on a win), flurry (a critical allows a second attack), multiple-opponents (-5 per extra),
    spell-with-attack, dodge (DEX), dodge-and-fight, hold-off (-3 until the attacker wins),
    large-shield (-3; +3 armour on a partial success), formation, missile-against-shield (-5),
    spell-weapon-fumble, sword-ties-magic-weapon, sword-clash (iron breaks bronze on a tie),
    special-parry (main gauche or quarterstaff stop 4 on a partial success). Options a tactic does not
    take are bad input."""

    command = "tactic"
    tactic: TacticName
    skill: str | None = Field(None, description="NAME's combat skill (the parrying skill for special-parry).")
    modifier: Int64 | None = Field(None, description="Added to NAME's skill.")
    opponent: list[NameSkill] = Field(
        [],
        description="The opposing character and skill, each value copied from its sheet (several for "
        "multiple-opponents).",
    )
    opponent_value: list[Int64] = Field([], description="Opposing values not on any sheet.")
    opponent_modifier: Int64 | None = Field(None, description="Added to the opponent's value.")
    damage: str | None = Field(None, description="break-shield, disarm: the weapon's damage dice (e.g. 4d6).")
    small_weapon: bool = Field(False, description="break-shield: a dagger or other small weapon (refused).")
    parry_armour: Int64 | None = Field(None, description="break-shield: the shield's parry armour (default 6).")
    opponent_str: Int64 | None = Field(None, description="disarm: the foe's STR (default: from the opponent's sheet).")
    spell_skill: str | None = Field(None, description="spell-with-attack: the value the spell is cast with.")
    defence: Int64 | None = Field(None, description="dodge-and-fight: how much of the skill goes into defence.")
    side: Literal["holder", "facing"] | None = Field(None, description="hold-off: NAME holds the spear, or faces it.")
    released: bool = Field(False, description="hold-off: the attacker is no longer held off (no -3).")
    spear_value: Int64 | None = Field(None, description="formation: the second rank's spear value.")
    shield_value: Int64 | None = Field(None, description="formation: the first rank's Battle + Defense value.")
    spell_points: Int64 | None = Field(
        None, description="spell-weapon-fumble, sword-ties-magic-weapon: spirit magic points."
    )
    rune_points: Int64 | None = Field(None, description="... rune magic and enchantment points (count double).")
    metal: Metal | None = Field(None, description="sword-clash: NAME's sword.")
    opponent_metal: Metal | None = Field(None, description="sword-clash: the other sword.")
    weapon: Literal["main-gauche", "quarterstaff"] | None = Field(None, description="special-parry: the weapon.")
    against_sword: bool = Field(False, description="special-parry: the attacker uses a sword.")
    roll: Faces | None = Field(None, description="The table's d20 for NAME (several for multiple-opponents).")
    opponent_roll: Faces | None = Field(None, description="The table's d20 for the opponent(s).")
    dice: Pairs = Field(
        [],
        description="Other table dice, PURPOSE=FACES: damage, distance, great_blow, flurry, spell, attack, "
        "spear, shield, weapon_save.",
    )

    def understood(self) -> None:
        wanted = MODELS[self.tactic].model_fields
        for field in sorted(self.options()):
            if field not in wanted:
                raise BadInput(f"{self.tactic} takes no {field.replace('_', ' ')}")
        if self.released and "held" not in wanted:
            raise BadInput(f"{self.tactic} takes no released")
        if (self.opponent or self.opponent_value) and not {"opponent_value", "opponent_values"} & set(wanted):
            raise BadInput(f"{self.tactic} takes no opponent")
        self.table()  # the dice's form, before the ledger opens

    def options(self) -> dict[str, Any]:
        """The tactic's own inputs the command gives (those not given keep the tactic's defaults)."""
        return {
            field: value
            for field, value in self
            if field not in NOT_INPUTS and value is not None and value is not False
        }

    def table(self) -> dict[str, list[int] | None]:
        found: dict[str, list[int] | None] = {"check": self.roll, "opponent": self.opponent_roll}
        for purpose, faces in pairs(self.dice).items():
            found[purpose] = whole_numbers(faces, f"the table's {purpose} dice")
        return found


@handles(Tactic)
def tactic(session: Session, command: Tactic) -> Reply:
    wanted = MODELS[command.tactic].model_fields
    data: dict[str, Any] = {"tactic": command.tactic, **command.options()}
    if command.released:
        data["held"] = False
    values, sheets = list(command.opponent_value), []
    for ref in command.opponent:
        value, sheet = opponent_value(session, ref)
        values.append(value)
        sheets.append(sheet)
    if "opponent_values" in wanted:
        data["opponent_values"] = values
    elif "opponent_value" in wanted:
        if len(values) != 1:
            raise BadInput(f"{command.tactic} needs one opponent: a character's NAME:SKILL or a value")
        data["opponent_value"] = values[0]
        if command.opponent and "opponent" in wanted:
            data["opponent"] = command.opponent[0]  # named in the log
        if "opponent_str" in wanted and "opponent_str" not in data and sheets:
            data["opponent_str"] = sheets[0].str
    try:
        given = ADAPTER.validate_python(data)
    except ValidationError as error:
        raise BadInput(problem(error)) from None
    return record(session, command, TacticResolved, given, command.table())
