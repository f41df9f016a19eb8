"""What a character does in the Winter Phase when the table names nothing, who may worship, and what
each winter die is called when the table is asked for it (seed: The Winter Phase)."""

from __future__ import annotations

from ..errors import BadInput, Refusal
from .condition import Condition
from .rulings import CustomWorship, Rulings
from .sheet import Sheet
from .skills import PRODUCTIVITY_SKILLS
from .status import is_initiate, is_shaman


def default_productivity(sheet: Sheet) -> str | None:
    """The character's best productivity skill on the sheet (the seed's list), if any."""
    known = [s for s in PRODUCTIVITY_SKILLS if s in sheet.skills]
    return max(known, key=lambda s: sheet.skills[s]) if known else None


def check_worship(sheet: Sheet, condition: Condition, skill: str, rulings: Rulings) -> None:
    """Religion for an initiate at the High Holy Days; Custom (Own) for a shamanic character (ruling custom_worship)."""
    if skill == "custom_own":
        if rulings.custom_worship is CustomWorship.shamans and not is_shaman(sheet, condition):
            raise Refusal(
                "worship with custom_own: only a shaman (the shaman flag or the Shaman honour) rolls "
                "Custom (Own) at the clan's rituals (ruling custom_worship=shamans)"
            )
    elif skill == "religion" or skill.startswith("religion_"):
        if not is_initiate(sheet, condition):
            raise Refusal(
                f"worship with {skill}: only an initiate (the initiate flag, or the Initiate or a higher "
                "religious honour) worships at the High Holy Days"
            )
    else:
        raise BadInput(f"worship with {skill}: worship is a Religion roll (religion or religion_<cult>) or custom_own")


def default_worship(sheet: Sheet, condition: Condition, rulings: Rulings) -> str | None:
    """The worship a character makes when the table names none: Religion for an initiate, else
    Custom (Own) for a shamanic character, when the sheet has the skill."""
    for skill in ("religion", "custom_own"):
        if skill in sheet.skills:
            try:
                check_worship(sheet, condition, skill, rulings)
            except Refusal:
                continue
            return skill
    return None


def die_label(purpose: str, productivity: str | None, worship: str | None) -> str:
    """A winter die as the table is asked for it: "the productivity roll (stewardship)",
    "the experience roll for valorous"."""
    kind, _, what = purpose.partition(":")
    if kind == "productivity":
        return f"the productivity roll ({productivity})"
    if kind == "worship":
        return f"the worship roll ({worship})"
    if kind == "training":
        return f"a month's training roll for {what}"
    return f"the experience roll for {what}"
