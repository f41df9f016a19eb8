"""The choices a form offers: a field whose values the sheet or the rules know carries them as a JSON Schema
`enum` (with `x-labels`, what each value reads as: "sword 15"), and only the forms that can apply now are
offered (no dying save for the unhurt, no First Aid without a wound); `force` is a gm's.

One source for every front door: the table view's forms (`GET /api/me`), `commands --json` given a
campaign, and the assistant's tools (`schemas`), all read the command models' schemas (`commands.schema_of`)
and narrow them here from the campaign's characters as their rows hold them."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from ...domain.potestas.damage import DAMAGE_TYPES

if TYPE_CHECKING:
    from .ledger import Ledger

# the forms a character's page offers (each in the systems it exists in), then the table-wide ones, which the
# campaign's page offers a gm: a session, Status awards, the Winter Phase, rulings and corrections
ACTS = (
    *("attack", "injure", "check", "tactic", "rest", "first-aid", "chirurgery", "heal", "dying-save"),
    *("exert", "fall", "mug", "grab person", "grab object", "grab monster", "grab break-hold", "grab state"),
    *("oath swear", "oath fulfil", "oath break", "geas take", "geas break", "feat", "increase"),
    *("roll", "note"),
)
TABLE = ("session start", "session end", "status award", "winter", "campaign rule", "amend")
# fields naming another character of the campaign (the acting one's field is the form's own)
OTHERS = ("target", "victim", "held_by")


@dataclass(frozen=True)
class Table:
    """What the choices are read from: the campaign's system and its characters' rows (`character show`)."""

    system: str
    characters: list[dict[str, Any]]

    def named(self, name: str | None) -> dict[str, Any] | None:
        folded = (name or "").casefold()
        return next((row for row in self.characters if row["name"].casefold() == folded), None)

    def names(self, but: str | None = None) -> list[str]:
        return [row["name"] for row in self.characters if row["name"] != but and not row.get("retired")]


def table_of(ledger: Ledger, campaign: str) -> Table:
    """The campaign (by id) as its choices are read: its system and its characters' rows."""
    index = ledger.app.index
    index.catch_up()
    found = index.campaign(campaign)
    system = found[1] if found is not None else ""
    return Table(system, ledger.app.characters.list(UUID(campaign)))


# --- which forms apply now ---------------------------------------------------------------------------------


def _states(row: dict[str, Any]) -> set[str]:
    return set(row.get("condition", {}).get("states", []))


def _wounds(row: dict[str, Any]) -> list[dict[str, Any]]:
    return list(row.get("condition", {}).get("wounds", []) or []) if row["system"] == "pendragon-pass" else []


def _open(row: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [vow for vow in row.get(key, []) if vow.get("state", "open") == "open"]


APPLIES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "dying-save": lambda row: "dying" in _states(row),
    "exert": lambda row: bool(_states(row) & {"disabled", "staggered"}),
    "first-aid": lambda row: any(not wound.get("first_aid_done") for wound in _wounds(row)),
    "heal": lambda row: bool(_wounds(row)),
    "chirurgery": lambda row: any(w.get("needs_chirurgery") for w in _wounds(row)) or "unconscious" in _states(row),
    "oath fulfil": lambda row: bool(_open(row, "oaths")),
    "oath break": lambda row: bool(_open(row, "oaths")),
    "geas break": lambda row: bool(_open(row, "geasa")),
    "increase": lambda row: row.get("status", {}).get("increases_pending", 0) > 0,
    "grab break-hold": lambda row: bool(row.get("condition", {}).get("held_by")),
}


def applies(command: str, row: dict[str, Any] | None) -> bool:
    """Whether COMMAND can apply now to the character of ROW (None: no character, every form applies)."""
    check = APPLIES.get(command)
    return row is None or check is None or check(row)


# --- the values a field may take --------------------------------------------------------------------------

Choice = tuple[list[Any], dict[str, str]]  # the values, and what each reads as (when not itself)


def _weapons(row: dict[str, Any] | None) -> Choice:
    found = (row or {}).get("sheet", {}).get("weapons") or []
    names = [weapon["name"] for weapon in found if isinstance(weapon, dict) and "name" in weapon]
    labels = {weapon["name"]: f"{weapon['name']}: {_weapon_words(weapon)}" for weapon in found if "name" in weapon}
    return names, labels


def _weapon_words(weapon: dict[str, Any]) -> str:
    parts = [str(weapon.get("damage", ""))]
    if weapon.get("ranged") or weapon.get("missile"):
        parts.append("ranged" if "ranged" in weapon else "missile")
    parts.extend(weapon.get("types", []) or ([weapon["kind"]] if weapon.get("kind") else []))
    return ", ".join(part for part in parts if part)


def _values(row: dict[str, Any] | None, *groups: str) -> Choice:
    """The sheet's traits, passions or skills, each with its value."""
    sheet = (row or {}).get("sheet", {})
    found: dict[str, int] = {}
    for group in groups:
        found.update(sheet.get(group) or {})
    return list(found), {name: f"{name.replace('_', ' ')} {value}" for name, value in found.items()}


STATISTICS = ("siz", "con", "pow", "dex", "str", "app")


def _statistics(row: dict[str, Any] | None) -> Choice:
    sheet = (row or {}).get("sheet", {})
    found = [name for name in STATISTICS if isinstance(sheet.get(name), int)]
    return found, {name: f"{name.upper()} {sheet[name]}" for name in found}


def _joined(*choices: Choice) -> Choice:
    labels = {value: label for _, said in choices for value, label in said.items()}
    return [value for values, _ in choices for value in values], labels


def _wound_numbers(row: dict[str, Any] | None, treatable: Callable[[dict[str, Any]], bool]) -> Choice:
    wounds = [wound for wound in _wounds(row or {"system": ""}) if treatable(wound)]
    return [w["id"] for w in wounds], {str(w["id"]): f"wound #{w['id']}: {w['amount']} points" for w in wounds}


def _vows(row: dict[str, Any] | None, key: str) -> Choice:
    vows = _open(row or {}, key)
    return [vow["id"] for vow in vows], {vow["id"]: vow["text"] for vow in vows}


def _opposed(table: Table, acting: str | None) -> Choice:
    """NAME:SKILL for every other character's skills and passions: what an opposed roll is against."""
    values: list[str] = []
    labels: dict[str, str] = {}
    for name in table.names(but=acting):
        skills, said = _values(table.named(name), "skills", "passions")
        for skill in skills:
            values.append(f"{name}:{skill}")
            labels[f"{name}:{skill}"] = f"{name}'s {said[skill]}"
    return values, labels


def field_choices(table: Table, command: str, acting: str | None) -> dict[str, Choice]:
    """Per field of COMMAND (in TABLE's system, acting through the character ACTING), the values it may
    take as the sheet and the rules know them."""
    row = table.named(acting)
    found: dict[str, Choice] = {name: (table.names(but=acting), {}) for name in OTHERS}
    found["name"] = (table.names(), {})  # a table-wide form's character
    found["for"] = (table.names(), {})
    if table.system == "potestas":
        found["weapon"] = _weapons(row)
        combined = [",".join(weapon.get("types", [])) for weapon in (row or {}).get("sheet", {}).get("weapons", [])]
        found["type"] = (_unique([*DAMAGE_TYPES, *(c for c in combined if "," in c)]), {})
    elif table.system == "adnd2e":
        found["weapon"] = _weapons(row)
        found["defender_weapon"] = _weapons(None)  # (the target's, once chosen: not known here)
    elif table.system == "pendragon-pass":
        if command in ("check", "feat"):
            key = "skill" if command == "check" else "what"
            sheet = _values(row, "skills", "passions", "traits")
            found[key] = _joined(sheet, _statistics(row)) if key == "skill" else sheet
        if command == "tactic":
            found["skill"] = _values(row, "skills")
        found["opposed_by"] = _opposed(table, acting)
        found["opponent"] = found["opposed_by"]
        found["healer"] = (table.names(but=acting), {})
        if command == "first-aid":
            found["wound"] = _wound_numbers(row, lambda wound: not wound.get("first_aid_done"))
        elif command == "heal":
            found["wound"] = _wound_numbers(row, lambda wound: True)
        found["oath"] = _vows(row, "oaths")
        found["geas"] = _vows(row, "geasa")
    return {key: choice for key, choice in found.items() if choice[0]}


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def narrowed(schema: dict[str, Any], choices: dict[str, Choice], role: str) -> dict[str, Any]:
    """SCHEMA (a command document's) with each field of CHOICES as an `enum` (an array's items), with its
    `x-labels`; a player's without `force`."""
    schema = copy.deepcopy(schema)
    properties = schema.get("properties", {})
    if role != "gm":
        properties.pop("force", None)
    for name, (values, labels) in choices.items():
        if name not in properties:
            continue
        target = _alternative(properties[name])
        if target.get("type") == "array":
            target = target.setdefault("items", {})
        if target.get("type") not in ("string", "integer") or "enum" in target:
            continue
        target["enum"] = values
        if labels:
            properties[name]["x-labels"] = labels
    return schema


def _alternative(property: dict[str, Any]) -> dict[str, Any]:
    """The schema of a field's value (an optional one's is anyOf [it, null])."""
    others = [option for option in property.get("anyOf", []) if option.get("type") != "null"]
    return others[0] if len(others) == 1 else property


# --- what the front doors ask ------------------------------------------------------------------------------


def forms(table: Table, role: str, plays: Iterable[str] = (), character: str | None = None) -> list[dict[str, Any]]:
    """The forms a participant of ROLE (playing PLAYS) may fill in a campaign: with CHARACTER, those acting
    through that character (a gm's, or its player's), else the table-wide ones (a gm's); each with its
    command, title, summary, who may (`role`), the field naming the character it acts through, whether it is
    table-wide (`campaign`) and its document's schema, narrowed to the choices the sheet and rules know."""
    from ...domain.errors import BadInput
    from .commands import model_for, schema_of, summary_of

    row = table.named(character) if character else None
    mine = role == "gm" or (row is not None and row["name"].casefold() in {p.casefold() for p in plays})
    wanted = ACTS if row is not None and mine else () if row is not None else TABLE
    found = []
    for name in wanted:
        try:
            model = model_for(name, table.system)
        except BadInput:  # not a command of this system
            continue
        if (role != "gm" and model.role != "player") or not applies(name, row):
            continue
        field = model.model_fields.get(model.character) if model.character else None
        acting = row["name"] if row is not None else None
        found.append(
            {
                "command": name,
                "title": model.label or name.capitalize(),
                "summary": " ".join(summary_of(model).split()),
                "role": model.role,
                "character": (field.alias or model.character) if field is not None else None,
                "campaign": row is None,  # (a table-wide form: its character, if any, is one of its fields)
                "schema": narrowed(schema_of(model), field_choices(table, name, acting), role),
            }
        )
    return found


def schemas(ledger: Ledger, campaign: str, character: str | None = None, role: str = "gm") -> dict[str, Any]:
    """Every command of the campaign (by id)'s system as its document's schema, each field the sheet or the
    rules know narrowed to an `enum` (for CHARACTER's sheet when given: its weapons, skills, wounds, oaths):
    what `commands --json` given a campaign publishes and the assistant's tools may take."""
    from ...domain.errors import BadInput
    from . import commands

    table = table_of(ledger, campaign)
    found: dict[str, Any] = {}
    for name in commands.CATALOGUE:
        try:
            model = commands.model_for(name, table.system)
        except BadInput:
            continue
        acting = character if model.character else None
        found[name] = narrowed(commands.schema_of(model), field_choices(table, name, acting), role)
    return found
