"""Realistic ledgers for the benchmark, written straight in the export format (JSON Lines).

One AD&D 2E campaign of CHARACTERS characters; each event is, in turn, a free roll, an injury
(lethal or sap, small damage) or a night's rest, derived by the domain exactly as the CLI would,
hash-chained and sealed; a refused action (e.g. on a dead character) becomes a free roll.
"""

from __future__ import annotations

import random
from pathlib import Path

import orjson
from chronicle.domain import systems
from chronicle.domain.campaign import Campaign, CampaignStarted, campaign_id
from chronicle.domain.character import Character, CharacterRegistered, character_id
from chronicle.domain.dice import Dice
from chronicle.domain.errors import Refusal
from chronicle.domain.ids import event_id
from chronicle.domain.rolls import DiceRolled, roll

NOTATIONS = ("d20", "2d6+1", "4d6kh3", "d100", "3d8-2")


def line(event) -> bytes:
    state = event.model_dump(mode="json", exclude={"originator_id", "originator_version"})
    return orjson.dumps({"id": event_id(event.originator_id, event.originator_version), "topic": _topic(event),
                         "originator_id": str(event.originator_id), "originator_version": event.originator_version,
                         "state": state}, option=orjson.OPT_SORT_KEYS) + b"\n"


def _topic(event) -> str:
    return f"{type(event).__module__}:{type(event).__qualname__}"


def ledger(path: Path, events: int, characters: int = 1000, name: str = "Bench", seed: int = 1) -> int:
    """Write a campaign of `events` events in all; returns how many were written."""
    rules = systems.get("adnd2e")
    from chronicle.domain.adnd2e.damage import InjureInputs, RestInputs
    from chronicle.domain.adnd2e.events import Injured, Rested

    rulings = rules.Rulings()
    dumped = rulings.model_dump(mode="json")
    chance = random.Random(seed)
    cid = campaign_id(name)
    with path.open("wb") as out:
        campaign = Campaign.start(CampaignStarted, cid, name=name, system="adnd2e", rulings=dumped, by="bench")
        out.write(line(campaign.pending_events.pop()))
        cast = []
        for number in range(characters):
            who = f"C{number:04d}"
            sheet = rules.parse_sheet({"hp": str(chance.randint(20, 80)), "level": str(chance.randint(1, 9))})
            character = Character.start(CharacterRegistered, character_id(cid, who), campaign_id=cid, name=who,
                                        system="adnd2e", kind="character", sheet=sheet.model_dump(mode="json"), by="bench")
            out.write(line(character.pending_events.pop()))
            cast.append(character)
        written = 1 + characters
        turn = 0
        while written < events:
            character = cast[turn % characters]
            turn += 1
            dice = Dice(chance.getrandbits(62))
            kind = turn % 10
            try:
                if kind < 4:
                    raise Refusal("a free roll")
                if kind < 7:
                    inputs = InjureInputs(damage=chance.randint(1, 4), mode=chance.choice(("lethal", "sap")))
                    event_class = Injured
                else:
                    inputs, event_class = RestInputs(hours=8), Rested
                outcome = event_class.derive(character.sheet, character.condition, inputs, rulings, dice)
                character.record(event_class, inputs=inputs, outcome=outcome, rulings=dumped, dice=dice.record(), by="bench")
            except Refusal:
                dice = Dice(chance.getrandbits(62))
                character.record(DiceRolled, **roll(chance.choice(NOTATIONS), dice), reason="bench", by="bench")
            out.write(line(character.pending_events.pop()))
            written += 1
    return written
