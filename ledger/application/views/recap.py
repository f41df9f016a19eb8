""" "Previously on ...": what a session changed, per character, not a copy of its log.

Each character that took part is folded from where it stood when the session began through its events
of the session, and every step's view (the contract's JSON of `character show`) is compared with the
one before: wounds taken and healed, Status gained or lost, oaths and geasa sworn, kept, fulfilled or
broken, increases, and the states a character fell into. Then the session's notes, and the campaign's
other events (rulings, winters). `cli/recap.py` tells it in sentences; `recap --json` is this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....domain.errors import NotFound
from ....domain.growth import NoteTaken
from ....domain.parts import named
from .campaigns import session_bounds, sessions
from .characters import load
from .history import events as log_events

if TYPE_CHECKING:
    from ....domain.character import Character
    from ....domain.events import Event
    from ..session import Session

ROW_KEYS = ("id", "position", "time", "local_time", "by", "type", "summary")


def session_recap(session: Session, which: str = "last") -> dict[str, Any]:
    """Session WHICH (N or `last`): per character its condition when the session began and ended
    (`before`, `after`: one-line summaries; `before` None for one that joined during it), its events
    (as `log` tells them), and `changes` (`changes_of`); the notes taken; the campaign's other events."""
    start, _ = session_bounds(session, which)
    sitting = next(s for s in sessions(session) if s["start"] == start)
    kept: list[Event] = []
    rows = list(log_events(session, sitting=which, data=False, keep=kept))
    played: dict[str, list[tuple[dict[str, Any], Event]]] = {}
    deeds: dict[str, list[dict[str, Any]]] = {}  # the events on others that name a character (domain/parts.py)
    known = {who.casefold(): who for _, who, _ in session.app.index.characters(session.campaign.id)}
    notes, campaign_rows = [], []
    for row, event in zip(rows, kept, strict=True):
        inputs = getattr(event, "inputs", None)
        for part in named(inputs.model_dump(mode="json")) if inputs is not None else ():
            actor = known.get(part)
            if actor is not None and actor != row["character"]:
                deeds.setdefault(actor, []).append({key: row[key] for key in (*ROW_KEYS, "character")})
        if isinstance(event, NoteTaken):
            notes.append(
                {"position": row["position"], "by": row["by"], "character": row["character"], "text": event.text}
            )
        if row["character"] is not None:
            played.setdefault(row["character"], []).append((row, event))
        elif row["type"] not in ("SessionStarted", "SessionEnded", "NoteTaken"):
            campaign_rows.append({key: row[key] for key in ROW_KEYS})
    for actor in deeds:
        played.setdefault(actor, [])
    party = party_first(session, list(played))
    characters = [{**_character(session, name, start, played[name]), "deeds": deeds.get(name, [])} for name in party]
    times = (
        {"start_time": rows[0]["local_time"], "end_time": rows[-1]["local_time"]}
        if rows
        else {"start_time": None, "end_time": None}
    )
    return {
        "campaign": session.campaign.name,
        "session": {**sitting, **times},
        "characters": characters,
        "notes": notes,
        "campaign_events": campaign_rows,
    }


def party_first(session: Session, names: list[str]) -> list[str]:
    """NAMES, the party's (player characters) first, then the others (npc), each in their order."""
    others = {row["name"] for row in session.app.characters.list(session.campaign.id) if row.get("npc")}
    return [name for name in names if name not in others] + [name for name in names if name in others]


def _character(session: Session, name: str, start: int, steps: list[tuple[dict[str, Any], Event]]) -> dict[str, Any]:
    rules = session.rules
    try:
        character: Character | None = load(session, name, f"#{start}")
    except NotFound:  # registered during the session: its first event here creates it
        character = None
    first = None if character is None else _seen(rules, character)
    views = [first]
    for _, event in steps:
        character = event.mutate(character)
        views.append(_seen(rules, character))
    last = views[-1]
    assert last is not None  # (the character exists after its events: the first creates one that joined)
    return {
        "name": name,
        "before": None if first is None else first["summary"],
        "after": last["summary"],
        "events": [{key: row[key] for key in ROW_KEYS} for row, _ in steps],
        "changes": changes_of(views),
    }


def _seen(rules: Any, character: Character) -> dict[str, Any]:
    """What the recap compares of a character at one step: its view, summary and whether it is retired."""
    return {
        **rules.view(character.sheet, character.condition),
        "summary": rules.summary(character.sheet, character.condition),
        "retired": character.retired,
    }


def changes_of(views: list[dict[str, Any] | None]) -> dict[str, Any]:
    """What changed from the first view to the last, step by step (the first None: the character joined):

    `joined`, `retired`; `taken` and `healed`: wounds (PenDragon Pass: each wound's damage, and hit points
    healed; Potestas: wounds and nonlethal wounds; AD&D 2E: real and temporary damage); `major`: major
    wounds taken; `status`: {"from", "to"} when it moved; `vows`: each oath or geas sworn or taken, or
    whose state changed, with its `state` at the end and whether it was `sworn` in the session;
    `increases`: each new increase; `fell`: the states entered at some step (contract identifiers, in the
    order first entered); `states`: those at the end."""
    present = [v for v in views if v is not None]
    first, last = present[0], present[-1]  # (one that joined: as registered)
    found: dict[str, Any] = {
        "joined": views[0] is None,
        "retired": last["retired"] and not first["retired"],
        "taken": {},
        "healed": {},
        "major": 0,
        "status": None,
        "vows": _vows(first, last),
        "increases": last.get("increases", [])[len(first.get("increases", [])) :],
        "fell": [],
        "states": list(last["condition"]["states"]),
    }
    if "status" in last and first["status"]["total"] != last["status"]["total"]:
        found["status"] = {"from": first["status"]["total"], "to": last["status"]["total"]}
    for before, after in zip(views, views[1:], strict=False):
        if after is None:
            continue
        if before is not None:
            _harm(before["condition"], after["condition"], found)
        was = set() if before is None else set(before["condition"]["states"])
        found["fell"] += [s for s in after["condition"]["states"] if s not in was and s not in found["fell"]]
    return found


def _add(into: dict[str, Any], key: str, amount: int) -> None:
    if amount > 0:
        into[key] = into.get(key, 0) + amount


def _harm(before: dict[str, Any], after: dict[str, Any], found: dict[str, Any]) -> None:
    """One step's wounds taken and healed, as the system's condition counts them."""
    taken, healed = found["taken"], found["healed"]
    if isinstance(after.get("wounds"), list):  # PenDragon Pass: each wound on its own
        was = {w["id"]: w for w in before["wounds"]}
        for wound in after["wounds"]:
            old = was.get(wound["id"])
            if old is None:
                taken.setdefault("wounds", []).append(wound["received"])
                found["major"] += int(bool(wound.get("major")))
            else:
                _add(healed, "hp", old["amount"] - wound["amount"])
        return
    for key in ("wounds", "nonlethal_wounds", "real_damage", "temporary_damage"):  # Potestas, AD&D 2E
        if key in after:
            _add(taken, key, after[key] - before[key])
            _add(healed, key, before[key] - after[key])


def _vows(first: dict[str, Any], last: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for kind, key in (("oath", "oaths"), ("geas", "geasa")):
        was = {v["id"]: v for v in first.get(key, [])}
        for vow in last.get(key, []):
            old = was.get(vow["id"])
            if old is None or old["state"] != vow["state"]:
                found.append(
                    {"kind": kind, "id": vow["id"], "text": vow["text"], "state": vow["state"], "sworn": old is None}
                )
    return found
