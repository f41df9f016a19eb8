"""The PenDragon Pass character sheet: statistics, Honor, the thirteen trait pairs, passions, skills.

Sheet field names follow docs/scripting.md: `siz, con, pow, dex, str, app, honor`, then traits, passions
and skills by lower-case name.
"""

import re
from typing import Any

from pydantic import Field

from ..errors import BadInput, NotOnSheet
from ..limits import typed_within_int64
from ..model import Model
from ..spelling import nearest
from .skills import KNOWN_PASSIONS, KNOWN_SKILLS

Name = str  # the field `str` below shadows the builtin inside the class body

TRAIT_PAIRS = (
    ("chaste", "lustful"),
    ("energetic", "lazy"),
    ("forgiving", "vengeful"),
    ("generous", "selfish"),
    ("honest", "deceitful"),
    ("just", "arbitrary"),
    ("merciful", "cruel"),
    ("modest", "proud"),
    ("pious", "worldly"),
    ("prudent", "reckless"),
    ("temperate", "indulgent"),
    ("trusting", "suspicious"),
    ("valorous", "cowardly"),
)
OPPOSITE = {a: b for a, b in TRAIT_PAIRS} | {b: a for a, b in TRAIT_PAIRS}
STATISTICS = ("siz", "con", "pow", "dex", "str", "app")
PHYSICAL_STATISTICS = ("siz", "con", "dex", "str", "app")
PASSION_PREFIXES = ("loyalty_", "love_", "hate_")
NAMED_PASSIONS = ("honor", "hospitality")
FLAGS = ("shaman", "initiate")
_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*\Z")


def is_passion(name: Name) -> bool:
    return name in NAMED_PASSIONS or name.startswith(PASSION_PREFIXES)


def category(name: Name) -> Name:
    """What a name is by its spelling: statistic, trait, passion or skill (docs/scripting.md, Characters)."""
    if name in STATISTICS:
        return "statistic"
    if name in OPPOSITE:
        return "trait"
    if is_passion(name):
        return "passion"
    return "skill"


class Sheet(Model):
    kind: Name = "character"
    siz: int = 10
    con: int = 10
    pow: int = 10
    dex: int = 10
    app: int = 10
    honor: int = 10  # the Honor passion, kept beside the statistics as the contract lists it
    traits: dict[Name, int] = Field(default_factory=lambda: {t: 10 for t in OPPOSITE})
    passions: dict[Name, int] = Field(default_factory=dict)
    skills: dict[Name, int] = Field(default_factory=dict)
    virtues: tuple[Name, ...] = ()  # the five religious virtues (trait names)
    shaman: bool = False
    initiate: bool = False
    str: int = 10  # declared last: from here on `str` in this body is the field, not the builtin

    @property
    def max_hp(self) -> int:
        return self.siz + self.con

    def has(self, name: Name) -> bool:
        return (
            name in STATISTICS or name == "honor" or name in self.traits or name in self.passions or name in self.skills
        )

    def value(self, name: Name) -> int:
        """The current value of any statistic, trait, passion (Honor included) or skill."""
        if name in STATISTICS or name == "honor":
            return getattr(self, name)
        for values in (self.traits, self.passions, self.skills):
            if name in values:
                return values[name]
        near = None  # a name the system knows (bow) is no slip for another (pow): the sheet lacks it
        if name not in known_names():
            near = nearest(name, [*STATISTICS, "honor", *self.traits, *self.passions, *self.skills])
        hint = f": did you mean {near!r}?" if near is not None else ""
        lacking = f"{category(near if near is not None else name)} {name!r}"  # a slip: the kind of what was meant
        raise NotOnSheet(f"{name!r} is not a statistic, trait, passion or skill on this sheet{hint}", lacking, hint)

    def with_value(self, name: Name, value: int) -> "Sheet":
        """The sheet with one value set; a trait's opposite is left alone (see `raised`)."""
        if name in STATISTICS or name == "honor":
            return self.model_copy(update={name: value})
        group = {"trait": "traits", "passion": "passions", "skill": "skills"}[category(name)]
        return self.model_copy(update={group: {**getattr(self, group), name: value}})

    def raised(self, name: Name, by: int = 1) -> "Sheet":
        """+by to a known value, even past normal limits (seed: Status increases). Raising a trait
        lowers its opposite by as much, never below 0 (standard Pendragon trait pairs)."""
        sheet = self.with_value(name, self.value(name) + by)
        if name in OPPOSITE:
            opposite = OPPOSITE[name]
            sheet = sheet.with_value(opposite, max(self.value(opposite) - by, 0))
        return sheet


def _check_name(name: Name) -> None:
    if not _IDENTIFIER.match(name):
        raise BadInput(f"bad sheet key {name!r}: expected a lower-case name such as valorous or loyalty_clan")


NEW_NAME_PREFIXES = ("skill", "passion")  # `skill:NAME=V`: a genuinely new skill, however near a known name


def known_names(held: "Sheet | None" = None) -> list[Name]:
    """What a sheet key may be a slip for: the statistics, Honor, the flags, the traits, the passions and
    skills the system knows, and every value `held` has."""
    names = [*STATISTICS, "honor", *FLAGS, *OPPOSITE, *NAMED_PASSIONS, *KNOWN_PASSIONS, *sorted(KNOWN_SKILLS)]
    if held is not None:
        names += [*held.passions, *held.skills]
    return names


def sheet_key(key: Name, held: "Sheet | None" = None) -> Name:
    """The sheet name a `--stat KEY=V` sets. A key one or two letters from a name the system knows or
    `held` has, and not itself one, is bad input naming the nearest (`valorus`: did you mean
    'valorous'?); a genuinely new one is written `skill:NAME` (or `passion:NAME`) (docs/scripting.md)."""
    prefix, colon, name = key.partition(":")
    if colon:
        if prefix not in NEW_NAME_PREFIXES:
            raise BadInput(f"bad sheet key {key!r}: a new name is written skill:NAME or passion:NAME")
        _check_name(name)
        if category(name) != prefix or name in FLAGS or name == "honor":
            raise BadInput(f"bad sheet key {key!r}: {name} is a {_kind(name)} by its name, not a new {prefix}")
        return name
    _check_name(key)
    near = nearest(key, known_names(held))
    if near is not None:
        kind = "passion" if category(key) == "passion" else "skill"
        raise BadInput(
            f"sheet key {key!r} is not a name the system knows or the sheet holds: did you mean {near!r}? "
            f"(a new {kind} of that name is written {kind}:{key}=V)"
        )
    return key


def _kind(name: Name) -> str:
    return "flag" if name in FLAGS else "statistic" if name == "honor" else category(name)


def _integer(name: Name, text: Name) -> int:
    number = typed_within_int64(text, name)
    if number is None:
        raise BadInput(f"{name}={str(text)[:40]!r} is not an integer")
    return number


def parse_sheet(
    stats: dict[Name, Name], kind: Name = "character", virtues: list[Name] | None = None, held: Sheet | None = None
) -> Sheet:
    """Build a sheet from `--stat KEY=VALUE` strings and `--virtues a,b,c,d,e`; setting a trait sets
    its opposite to 20 minus it (docs/scripting.md). Keys are held to `sheet_key` (and to what `held` has)."""
    fields: dict = {"kind": kind, "traits": {t: 10 for t in OPPOSITE}, "passions": {}, "skills": {}}
    given_traits: dict[Name, int] = {}
    for key, text in stats.items():
        name = sheet_key(key, held)
        value = _integer(key, text)
        kind_of = category(name)
        if name in FLAGS:
            fields[name] = bool(value)
        elif kind_of == "statistic" or name == "honor":
            fields[name] = value
        elif kind_of == "trait":
            opposite = OPPOSITE[name]
            if opposite in given_traits and given_traits[opposite] + value != 20:
                raise BadInput(f"{name}={value} and {opposite}={given_traits[opposite]} must add up to 20")
            given_traits[name] = value
            fields["traits"] |= {name: value, opposite: 20 - value}
        else:
            fields["passions" if kind_of == "passion" else "skills"][name] = value
    if virtues is not None:
        chosen = tuple(v.strip() for v in virtues)
        if len(chosen) != 5 or len(set(chosen)) != 5 or any(v not in OPPOSITE for v in chosen):
            raise BadInput(f"--virtues needs five different trait names, got {','.join(chosen)!r}")
        fields["virtues"] = chosen
    return Sheet(**fields)


def sheet_changes(sheet: Sheet, stats: dict[Name, Name]) -> dict[Name, Any]:
    """`character set`: the sheet fields KEY=VALUE strings set, keys held to the names the system knows and
    this sheet has. A trait sets its opposite to 20 minus it, whatever the opposite was."""
    parsed = parse_sheet(stats, kind=sheet.kind, held=sheet)
    changes: dict[Name, Any] = {}
    for key in stats:
        name = sheet_key(key, sheet)
        kind_of = category(name)
        if name in FLAGS or kind_of == "statistic" or name == "honor":
            changes[name] = getattr(parsed, name)
        elif kind_of == "trait":
            changes.setdefault("traits", {}).update({t: parsed.traits[t] for t in (name, OPPOSITE[name])})
        else:
            group = "passions" if kind_of == "passion" else "skills"
            changes.setdefault(group, {})[name] = getattr(parsed, group)[name]
    return changes


def sheet_keys() -> list[dict[str, str]]:
    """The keys `character add --stat KEY=VALUE` (and a sheet file) takes, each with its meaning."""
    found = [{"key": key, "for": "character", "meaning": "A statistic."} for key in STATISTICS]
    found.append({"key": "honor", "for": "character", "meaning": "Honor, a passion."})
    for first, second in TRAIT_PAIRS:
        for trait, opposite in ((first, second), (second, first)):
            found.append({"key": trait, "for": "character", "meaning": f"A trait; sets {opposite} to 20 minus it."})
    for prefix in PASSION_PREFIXES:
        found.append({"key": f"{prefix}NAME", "for": "character", "meaning": f"A passion (e.g. {prefix}clan)."})
    found.append({"key": "hospitality", "for": "character", "meaning": "A passion."})
    found += [{"key": key, "for": "character", "meaning": "A skill."} for key in sorted(KNOWN_SKILLS)]
    found.append(
        {
            "key": "skill:NAME",
            "for": "character",
            "meaning": "Any other skill by lower-case name; skill:NAME for one within two letters of a known name.",
        }
    )
    found += [
        {"key": flag, "for": "character", "meaning": f"1 if the character is {'an' if flag[0] == 'i' else 'a'} {flag}."}
        for flag in FLAGS
    ]
    found.append(
        {"key": "virtues", "for": "character", "meaning": "The five religious virtues, comma-separated trait names."}
    )
    return found
