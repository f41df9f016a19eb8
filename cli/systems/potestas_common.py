"""What the Potestas commands share: the system check, table rolls that the rules may not ask for,
recording on one character, and the sentences that explain an injury save to a disputing player."""

from __future__ import annotations

from typing import Any

from ...domain.dice import Dice
from ...domain.errors import BadInput
from ..actions import Later, describe

# Dispatched commands run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}

# The rulings an injury save depends on, echoed in the result so the table can see what decided it.
INJURY_RULINGS = ("save_naturals", "disable_margin", "drop_margin", "coup_de_grace_save", "wound_while_stable")


def potestas_character(session: Any, name: str, command: str) -> Any:
    """The character NAME of a potestas campaign (`dying-save`, `exert`, `fall` are not dispatched by system)."""
    system = session.campaign.system
    if system != "potestas":
        raise BadInput(f"{command} is a potestas command; campaign {session.campaign.name!r} is {system}")
    return session.character(name)


def d20(value: int | None, option: str) -> list[int] | None:
    """A table's d20 result as a dice-table entry; 0, 21 and the like are bad input even if unused."""
    if value is None:
        return None
    if not 1 <= value <= 20:
        raise BadInput(f"{option}: a d20 shows 1 to 20, not {value}")
    return [value]


def rolls_a_save(session: Any, character: Any, event_class: type, given: Any) -> bool:
    """Whether resolving `given` rolls an injury save (a dry run: no save when DR or hardness removes
    all damage). Refusals and bad input surface here just as they would in the real resolution."""
    outcome = event_class.derive(character.sheet, character.condition, given, session.rulings(), Dice(0))
    injury = getattr(outcome, "injury", outcome)
    return injury.save is not None


def save_table(session: Any, character: Any, event_class: type, given: Any, roll: int | None, purpose: str,
               option: str = "--save-roll") -> tuple[dict[str, list[int] | None], list[str]]:
    """The dice table for an injury save and any notes. A save roll given for a blow that DR (or
    hardness) reduced to nothing is accepted and ignored, with a note: the table could not know."""
    table = {purpose: d20(roll, option)}
    if roll is None or rolls_a_save(session, character, event_class, given):
        return table, []
    return {}, [f"{option} {roll} ignored: no damage got past {reducer(character.sheet)}, so no save was rolled"]


def reducer(sheet: Any) -> str:
    return f"hardness {sheet.hardness}" if sheet.is_object else f"DR {sheet.dr}"


def record_on(session: Any, character: Any, event_class: type, given: Any, table: dict[str, Any] | None = None) -> Later:
    """Resolve and record `event_class` on `character`; the result document plus the condition `before`
    it, built when read."""
    rules, sheet, condition = session.rules, character.sheet, character.condition
    event = session.resolve(character, event_class, given, table)
    return describe(character, event).then(lambda result: {**result, "before": rules.view(sheet, condition)["condition"]})


def injury_context(session: Any, character: Any, given: Any) -> dict[str, Any]:
    """What the bare outcome does not say: the reducer, the save bonus's parts, the rulings used."""
    sheet = character.sheet
    rulings = session.rulings()
    return {
        "kind": sheet.kind,
        "dr": str(sheet.hardness) if sheet.is_object else sheet.dr,
        "types": sorted(given.types),
        "nonlethal": given.nonlethal,
        "bonus_parts": bonus_parts(sheet),
        "rulings": {key: getattr(rulings, key) for key in INJURY_RULINGS},
    }


def bonus_parts(sheet: Any) -> str:
    if not sheet.is_object:
        return f"Fort {sheet.fort:+d}"
    holder = sheet.holder_fort is not None and sheet.holder_fort > sheet.fort
    base = f"holder's Fort {sheet.holder_fort:+d}" if holder else f"base {sheet.fort:+d}"
    return f"{base}, hardness {sheet.hardness:+d}, thickness {sheet.thickness - 1:+d}"


def condition_line(condition: dict[str, Any]) -> str:
    counts = f"{condition['wounds']} wound{'s' if condition['wounds'] != 1 else ''}"
    if condition["nonlethal_wounds"]:
        counts += f", {condition['nonlethal_wounds']} nonlethal"
    return f"{counts}; {', '.join(condition['states'])}" if condition["states"] else counts


DEGREES = {
    (False, 1): "a wound", (False, 2): "a wound, and disabled", (False, 3): "a wound, and dying",
    (True, 1): "a nonlethal wound", (True, 2): "a nonlethal wound, and staggered",
    (True, 3): "a nonlethal wound, and unconscious",
}


def injury_lines(name: str, r: dict[str, Any]) -> list[str]:
    """Everything a disputing player would ask about one injury: damage, DR, DC, the save, the degree."""
    kind = "nonlethal" if r["nonlethal"] else "lethal"
    types = f" ({', '.join(r['types'])})" if r["types"] else ""
    lines = [f"{name} takes {r['damage']} {kind} damage{types}."]
    reducer_name = "Hardness" if r["kind"] == "object" else "DR"
    if r["reduction"]:
        lines.append(f"{reducer_name} {r['dr']} removes {r['reduction']}: {r['after_dr']} left.")
    elif r["dr"] not in ("0", "0/-"):
        lines.append(f"{reducer_name} {r['dr']} does not apply to this damage: {r['after_dr']} left.")
    if r["dc"] is None:
        lines.append(f"{reducer_name} removed all damage: no save, no effect"
                     + (" (riders such as injury poison, stunning or disease are negated)." if r["riders_negated"] else "."))
    else:
        lines.extend(_save_lines(r))
    lines.extend(f"Note: {note}" for note in r.get("notes", ()))
    lines.append(f"Condition: {condition_line(r['before'])} -> {condition_line(r['condition'])}.  "
                 f"[event {r['event']}, version {r['version']}]")
    return lines


def _save_lines(r: dict[str, Any]) -> list[str]:
    s, rulings = r["save"], r["rulings"]
    wounds = r["before"]["wounds"]
    penalty = f"{wounds} wound{'s' if wounds != 1 else ''}"
    if r["nonlethal"]:
        penalty += f", {r['before']['nonlethal_wounds']} nonlethal"
    verdict = f"made by {s['margin']}" if s["margin"] >= 0 else f"failed by {-s['margin']}"
    lines = [f"Fortitude DC {r['dc']} = 15 + {r['after_dr']} // 5.",
             f"Save: rolled {s['roll']} + {s['bonus']} ({r['bonus_parts']}) - {s['penalty']} ({penalty}) "
             f"= {s['total']} vs DC {r['dc']}: {verdict}."]
    if rulings["save_naturals"] == "standard" and s["roll"] == 20:
        lines.append("Natural 20: the save succeeds (save_naturals=standard).")
    if rulings["save_naturals"] == "standard" and s["roll"] == 1:
        lines.append(f"Natural 1: counts as failing by {rulings['disable_margin']} (save_naturals=standard).")
    if r.get("coup_de_grace") and rulings["coup_de_grace_save"] == "one_degree_worse":
        lines.append("Coup de grace: the save counts one degree worse (coup_de_grace_save=one_degree_worse).")
    if r["degree"] == 0:
        lines.append("Outcome: no effect.")
    else:
        margin = f"disable_margin {rulings['disable_margin']}"
        if rulings["drop_margin"] is not None:
            margin += f", drop_margin {rulings['drop_margin']}"
        lines.append(f"Outcome: {DEGREES[(r['nonlethal'], r['degree'])]} (degree {r['degree']}; {margin}).")
    if r["ignored"]:
        lines.append("An unconscious character ignores further nonlethal wounds.")
    return lines
