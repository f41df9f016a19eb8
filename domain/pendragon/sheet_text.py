"""The PenDragon Pass sheet as a player reads it: hit points and wounds,
statistics, traits as opposed pairs, passions, skills, Status with the next 1,000, oaths, geasa, honours,
increases and checks."""

from __future__ import annotations

from .condition import STATE_WORDS, Condition, Wound, hp, states
from .increases import STATUS_PER_INCREASE, next_increase_at
from .sheet import STATISTICS, TRAIT_PAIRS, Sheet
from .status import is_initiate, is_shaman
from .words import and_list, number, plural, quoted, title

SAID = {**STATE_WORDS, "major_wound": "has a major wound"}  # the states in the sheet's first sentence


def _wound(wound: Wound) -> str:
    notes = (["major"] if wound.major else []) + (["needs Chirurgery"] if wound.needs_chirurgery else [])
    notes += (["First Aid given"] if wound.first_aid_done else []) + (["healed by magic"] if wound.magic_healed else [])
    left = "healed" if wound.amount == 0 else f"{wound.amount} of its {wound.received} points unhealed"
    return f"wound #{wound.id}: {left}" + (f" ({', '.join(notes)})" if notes else "")


def sheet_lines(sheet: Sheet, condition: Condition) -> list[str]:
    found = [SAID[s] for s in states(sheet, condition)]
    lines = [f"Hit points {hp(sheet, condition)} of {sheet.max_hp}" + (f"; {and_list(found)}" if found else "") + "."]
    if condition.wounds:
        lines.append(f"Wounds: {'; '.join(_wound(w) for w in condition.wounds)}.")
    lines.append(", ".join(f"{title(s)} {getattr(sheet, s)}" for s in STATISTICS) + f"; Honor {sheet.honor}.")
    virtues = set(sheet.virtues)
    pairs = [
        f"{title(a)}{'*' if a in virtues else ''} {sheet.traits.get(a, 0)} / "
        f"{title(b)}{'*' if b in virtues else ''} {sheet.traits.get(b, 0)}"
        for a, b in TRAIT_PAIRS
    ]
    lines.append("Traits: " + ", ".join(pairs) + "." + (" (* a religious virtue)" if virtues else ""))
    if sheet.passions:
        lines.append("Passions: " + ", ".join(f"{title(k)} {v}" for k, v in sorted(sheet.passions.items())) + ".")
    if sheet.skills:
        lines.append("Skills: " + ", ".join(f"{title(k)} {v}" for k, v in sorted(sheet.skills.items())) + ".")
    to_next = next_increase_at(condition.status) - condition.status
    lines.append(
        f"Status {number(condition.status)}: {number(to_next)} more earns the next increase (one every "
        f"{number(STATUS_PER_INCREASE)}); "
        f"{plural(condition.increases_earned, 'increase')} earned, {condition.increases_spent} spent, "
        f"{condition.increases_pending} pending."
    )
    standing = (["an initiate"] if is_initiate(sheet, condition) else []) + (
        ["a shaman"] if is_shaman(sheet, condition) else []
    )
    if condition.honours or standing:
        honours = f"Honours: {and_list([title(h) for h in condition.honours])}" if condition.honours else "No honours"
        lines.append(honours + (f"; {and_list(standing)}." if standing else "."))
    open_oaths = [f"{o.id} {quoted(o.text)}" for o in condition.oaths if o.state == "open"]
    closed = [f"{o.id} {o.state}" for o in condition.oaths if o.state != "open"]
    if open_oaths or closed:
        lines.append("Oaths: " + "; ".join([*(f"open: {o}" for o in open_oaths), *closed]) + ".")
    if condition.geasa:
        lines.append(
            "Geasa: "
            + "; ".join(f"{g.id} {quoted(g.text)}{' (clan)' if g.clan else ''}, {g.state}" for g in condition.geasa)
            + "."
        )
    if condition.increases:
        lines.append(
            "Increases: " + ", ".join(f"{title(i.what)} +{i.by} ({i.cause})" for i in condition.increases) + "."
        )
    if condition.checks:
        lines.append("Checks pending: " + and_list([title(c) for c in condition.checks]) + ".")
    if condition.learned:
        lines.append(
            "Learned: "
            + and_list([f"the {k} {title(w)}" for k, _, w in (x.partition(":") for x in condition.learned)])
            + "."
        )
    if condition.winters:
        lines.append("Winters: " + ", ".join(str(y) for y in condition.winters) + ".")
    return lines
