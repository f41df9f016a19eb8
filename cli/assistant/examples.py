"""One example call per tool, shown in its description: the arguments of a common use (docs/scripting.md's
command documents, without `command`)."""

from __future__ import annotations

from typing import Any

# a tool whose command's own summary says it for the command line
SENTENCES = {
    "participant add": "Add a participant, or change one's role, characters or key.",
    "rest": "Natural healing for NAME over hours, minutes, days or weeks (exactly one of them).",
    "replay": "What if: re-derive the recorded outcomes under other rulings and show what changes.",
    "experience": "Experience rolls for NAME's checks a month after an adventure (under the ruling that says so).",
}

EXAMPLES: dict[str, dict[str, Any]] = {
    "amend": {"ref": "12", "reason": "the save was a 14", "save_roll": 14, "dry_run": True},
    "attack": {"attacker": "Aric", "target": "Orc"},
    "campaign archive": {"name": "Greyhawk", "reason": "the table moved on"},
    "campaign new": {"name": "Greyhawk", "system": "potestas"},
    "campaign rule": {"assignment": "massive_damage=false", "reason": "the table's house rule"},
    "character add": {"name": "Aric", "stat": ["fort=5", "dr=2"]},
    "character rename": {"old": "Aric", "new": "Aric the Bold"},
    "character retire": {"name": "Aric", "reason": "left the party"},
    "character set": {"name": "Aric", "assignments": ["dr=3"], "reason": "new armour"},
    "check": {"name": "Vinga", "skill": "Sword", "roll": 12},
    "chirurgery": {"name": "Vinga", "healer": "Harmast"},
    "dying-save": {"name": "Aric", "roll": 12},
    "exert": {"name": "Aric", "action": "charge"},
    "experience": {"name": "Vinga"},
    "fall": {"name": "Aric", "feet": 30},
    "feat": {"name": "Vinga", "what": "DEX", "describe": "leaps the chasm"},
    "first-aid": {"name": "Vinga", "wound": 1, "healer": "Harmast"},
    "geas break": {"name": "Vinga", "geas": "g1"},
    "geas take": {"name": "Vinga", "text": "Never eat duck"},
    "grab break-hold": {"name": "Aric"},
    "grab monster": {"grabber": "Aric", "target": "Troll"},
    "grab object": {"grabber": "Aric", "target": "Orc"},
    "grab person": {"grabber": "Aric", "target": "Orc"},
    "grab state": {"name": "Aric", "released": True},
    "heal": {"name": "Vinga", "wound": 1, "points": 4},
    "increase": {"name": "Vinga", "what": "Sword"},
    "injure": {"name": "Aric", "damage": 14},
    "mug": {"mugger": "Aric", "victim": "Guard"},
    "note": {"text": "The party reached the keep.", "for": "Aric"},
    "oath break": {"name": "Vinga", "oath": "o1"},
    "oath fulfil": {"name": "Vinga", "oath": "o1", "status": 2},
    "oath swear": {"name": "Vinga", "text": "Avenge my father"},
    "participant add": {"name": "Ann", "role": "player", "plays": ["Brand"], "key": "ed25519:BASE64"},
    "participant invite": {"name": "Ann", "role": "player", "plays": ["Brand"]},
    "participant join": {"invitation": "TOKEN"},
    "participant remove": {"name": "Ann", "reason": "left the table"},
    "replay": {"ruling": ["massive_damage=false"], "name": "Aric"},
    "rest": {"name": "Aric", "hours": 8},
    "roll": {"notation": "2d6+1", "for": "Aric", "reason": "damage"},
    "session end": {},
    "session start": {"title": "The road to Hommlet"},
    "status award": {"name": "Vinga", "foe": "troll"},
    "tactic": {"name": "Vinga", "tactic": "dodge", "opponent": ["Troll:Maul"]},
    "winter": {"year": 1621},
    "log": {"name": "Aric", "tail": 10},
    "character show": {"name": "Aric", "campaign": "Greyhawk"},
    "campaign show": {"campaign": "Greyhawk"},
    "recap": {},
    "verify": {},
}
