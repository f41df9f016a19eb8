"""`recap [--session N|last]`: "previously on ..." for the table: per character what a session of play
changed (`views/recap.py` finds it), in sentences, then the notes; `log` tells every event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..reply import Reply
from ..text import wrapped
from .base import Query, answers, field

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class Recap(Query):
    """Previously on the campaign: per character, what changed in a session, in sentences."""

    query: ClassVar[str] = "recap"
    session: str | int = field("Which session to tell: its number, or `last`.", "last")


@answers(Recap)
def recap(ledger: Ledger, asked: Recap) -> Reply:
    from ..views.recap import session_recap

    data = session_recap(ledger.read(), str(asked.session))
    columns = ledger.presentation.columns
    return Reply(lambda: data, lambda: told(data, columns()))


# A state a character entered during the session, told as what happened to it (the rest of the states,
# such as a wound needing Chirurgery, the wounds and the closing summary say)
FELL = {
    "dead": "died",
    "destroyed": "was destroyed",
    "dying": "fell dying",
    "stable": "was stabilised",
    "unconscious": "fell unconscious",
    "knocked_out": "was knocked out",
    "disabled": "was disabled",
    "staggered": "was staggered",
    "knocked_down": "was knocked down",
    "asleep": "fell asleep",
    "magically_held": "was magically held",
    "held": "was held",
}
VOWS = {
    ("oath", "open"): "swore the oath {text}",
    ("oath", "fulfilled"): "fulfilled the oath {text}",
    ("oath", "broken"): "broke the oath {text}",
    ("geas", "kept"): "took the geas {text}",
    ("geas", "broken"): "broke the geas {text}",
}
SWORN_AND = {"fulfilled": "swore and fulfilled the oath {text}", "broken": "swore and broke the oath {text}"}
CAUSES = {"status": "by Status", "experience": "by experience", "training": "by training"}


def told(data: dict[str, Any], columns: int) -> str:
    """The recap for people, COLUMNS wide: the session, a paragraph per character, the notes, the rest."""
    sitting = data["session"]
    title = f', "{sitting["title"]}"' if sitting["title"] else ""
    running = " (still running)" if sitting["end"] is None else ""
    when = f" of {sitting['start_time']}" if sitting["start_time"] else ""
    lines = wrapped(f"Previously on {data['campaign']}: session {sitting['number']}{title}{when}{running}.", 0, columns)
    if not data["characters"] and not data["campaign_events"] and not data.get("notes"):
        lines.append("Nothing happened to anyone.")
    for character in data["characters"]:
        lines.append("")
        lines += wrapped(character_told(character), 0, columns)
    notes = data.get("notes", [])
    if notes:
        lines += ["", "Notes:"]
        for note in notes:
            about = f" (on {note['character']})" if note["character"] else ""
            lines += wrapped(f"#{note['position']} {_quoted(note['text'])}{about}", 4, columns)
    if data["campaign_events"]:
        lines += ["", "For the whole campaign:"]
        for event in data["campaign_events"]:
            lines += wrapped(f"#{event['position']} {event['summary']}", 4, columns)
    if data["characters"]:
        lines += ["", f"`chronicle log --session {sitting['number']}` tells every event."]
    return "\n".join(lines)


def character_told(character: dict[str, Any]) -> str:
    """One character's session: what happened to it, in the order people ask (joined, wounds, healing,
    Status, oaths and geasa, increases, falls, retired), then where it stands."""
    name, changes = character["name"], character.get("changes") or {}
    done = ["joined the party"] if changes.get("joined") else []
    done += _wounds(changes.get("taken", {}), changes.get("major", 0))
    done += _healed(changes.get("healed", {}))
    status = changes.get("status")
    if status:
        moved = status["to"] - status["from"]
        verb = "gained" if moved >= 0 else "lost"
        done.append(f"{verb} {abs(moved):,} Status (now {status['to']:,})")
    done += [_vow(vow) for vow in changes.get("vows", [])]
    increases = changes.get("increases", [])
    if increases:
        rose = [f"{_title(i['what'])} +{i['by']} ({CAUSES.get(i['cause'], i['cause'])})" for i in increases]
        done.append(f"rose in {_listed(rose)}")
    done += [FELL[state] for state in changes.get("fell", []) if state in FELL]
    if changes.get("retired"):
        done.append("retired")
    deeds = character.get("deeds", [])
    if deeds:  # what it did to others (an attack, a First Aid given): `log NAME` tells each
        others = _listed(list(dict.fromkeys(deed["character"] for deed in deeds)))
        done.append(f"acted on {others} ({_counted(len(deeds), 'event')})")
    count = len(character["events"]) + len(deeds)
    said = f"{name} {_listed(done)}." if done else f"Nothing that lasts changed for {name}."
    return f"{said} At the session's end: {character['after']} ({count} event{'' if count == 1 else 's'})."


def _wounds(taken: dict[str, Any], major: int) -> list[str]:
    if "wounds" in taken and isinstance(taken["wounds"], list):  # PenDragon Pass: each wound's damage
        amounts = taken["wounds"]
        wounds = f"a wound of {amounts[0]}" if len(amounts) == 1 else f"wounds of {_listed([str(a) for a in amounts])}"
        majors = "" if not major else " (a major wound)" if major == 1 == len(amounts) else f" ({major} major)"
        return [f"took {wounds}{majors}"]
    said = []
    for key, noun in (("wounds", "wound"), ("nonlethal_wounds", "nonlethal wound")):
        if taken.get(key):
            said.append(_counted(taken[key], noun))
    real, temporary = taken.get("real_damage", 0), taken.get("temporary_damage", 0)
    if real or temporary:
        parts = [f"{real} real" if real else "", f"{temporary} temporary" if temporary else ""]
        said.append(f"{real + temporary} damage ({_listed([p for p in parts if p])})")
    return [f"took {_listed(said)}"] if said else []


def _healed(healed: dict[str, Any]) -> list[str]:
    said = []
    if healed.get("hp"):
        said.append(_counted(healed["hp"], "hit point"))
    for key, noun in (("wounds", "wound"), ("nonlethal_wounds", "nonlethal wound")):
        if healed.get(key):
            said.append(_counted(healed[key], noun))
    real, temporary = healed.get("real_damage", 0), healed.get("temporary_damage", 0)
    if real or temporary:
        said.append(_counted(real + temporary, "hit point"))
    return [f"healed {_listed(said)}"] if said else []


def _vow(vow: dict[str, Any]) -> str:
    text = _quoted(vow["text"])
    if vow["sworn"] and vow["kind"] == "oath" and vow["state"] in SWORN_AND:
        return SWORN_AND[vow["state"]].format(text=text)
    if vow["sworn"] and vow["kind"] == "geas" and vow["state"] == "broken":
        return f"took and broke the geas {text}"
    return VOWS.get((vow["kind"], vow["state"]), "{text}").format(text=text)


def _title(name: str) -> str:
    from ....domain.pendragon.words import title  # increases are PenDragon Pass's: its names as its rules write them

    return title(name)


def _counted(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _quoted(text: str) -> str:
    return '"' + " ".join(text.split()) + '"'
