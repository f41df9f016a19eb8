"""Which skills are combat skills (Feats) and physical skills (trained to 15 at most).

The seed names neither list: these are Pendragon's weapon and combat skills with Glorantha's
weapons, and its bodily skills (docs/rulings.md, PenDragon Pass; see `rulings.py`, "Decisions without a key").
A sheet's other skills are neither. `KNOWN_SKILLS` and `KNOWN_PASSIONS` are the names a sheet key is
held to when it is one or two letters from one of them (sheet.py: `did you mean`).
"""

from __future__ import annotations

WEAPONS = frozenset(
    {
        "sword",
        "broadsword",
        "shortsword",
        "greatsword",
        "two_handed_sword",
        "rapier",
        "scimitar",
        "kopis",
        "dagger",
        "main_gauche",
        "knife",
        "axe",
        "battleaxe",
        "great_axe",
        "hatchet",
        "mace",
        "club",
        "hammer",
        "war_hammer",
        "maul",
        "flail",
        "great_flail",
        "warflail",
        "spear",
        "great_spear",
        "lance",
        "pike",
        "javelin",
        "halberd",
        "quarterstaff",
        "bow",
        "composite_bow",
        "self_bow",
        "crossbow",
        "sling",
        "thrown_weapons",
        "throwing_axe",
        "dart",
        "shield",
        "large_shield",
        "fist",
        "brawl",
        "grapple",
        "wrestling",
    }
)
COMBAT_SKILLS = WEAPONS | {"battle", "riding", "horsemanship"}  # Pendragon's combat skills; no Feat with Riding
PHYSICAL_SKILLS = WEAPONS | {
    "riding",
    "horsemanship",
    "swimming",
    "climbing",
    "jumping",
    "dancing",
    "boating",
    "sneak",
    "hide",
    "stealth",
    "throwing",
}


PRODUCTIVITY_SKILLS = (
    "animal_lore",
    "bargaining",
    "devise",
    "hunting",
    "industry",
    "mineral_lore",
    "plant_lore",
    "stewardship",
)  # the seed's Economics list, in its order
OTHER_SKILLS = frozenset(
    {
        "awareness",
        "ceremony",
        "chirurgery",
        "compose",
        "courtesy",
        "custom_own",
        "faerie_lore",
        "falconry",
        "first_aid",
        "flirting",
        "folklore",
        "gaming",
        "heraldry",
        "intrigue",
        "orate",
        "play",
        "read",
        "recognize",
        "religion",
        "ritual",
        "romance",
        "singing",
        "tourney",
    }
)  # Pendragon's other skills and those the seed names (Religion, Custom (Own), Ritual, First Aid, Chirurgery)
KNOWN_SKILLS = COMBAT_SKILLS | PHYSICAL_SKILLS | OTHER_SKILLS | frozenset(PRODUCTIVITY_SKILLS)
KNOWN_PASSIONS = ("loyalty_clan", "loyalty_tribe", "loyalty_lord", "loyalty_temple", "love_family", "hate_chaos")


def is_combat_skill(name: str) -> bool:
    return name in COMBAT_SKILLS


def is_physical_skill(name: str) -> bool:
    """Most physical skills cannot be trained past 15 (seed: Training)."""
    return name in PHYSICAL_SKILLS
