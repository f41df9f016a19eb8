"""Realistic ledgers for the benchmark, written straight in the export format (JSON Lines, closed by
the count-and-digest line `import` requires).

One AD&D 2E campaign of CHARACTERS characters; each event is, in turn, a free roll, an injury
(lethal or sap, small damage) or a night's rest, derived by the domain exactly as the CLI would,
hash-chained and sealed; a refused action (e.g. on a dead character) becomes a free roll. Event
times are a millisecond apart, from a fixed start. `widen` makes a bigger campaign of one
generated at the JSON level: its characters again under other names (new ids, hashes and chains).
"""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson

from chronicle.domain import systems
from chronicle.domain.campaign import Campaign, CampaignStarted, campaign_id
from chronicle.domain.character import Character, CharacterRegistered, character_id
from chronicle.domain.dice import Dice
from chronicle.domain.errors import Refusal
from chronicle.domain.ids import event_id
from chronicle.domain.rolls import DiceRolled, roll
from chronicle.ledger.bulk.transfer import closing_line

NOTATIONS = ("d20", "2d6+1", "4d6kh3", "d100", "3d8-2")


def line(event) -> bytes:
    state = event.model_dump(mode="json", exclude={"originator_id", "originator_version"})
    return (
        orjson.dumps(
            {
                "id": event_id(event.originator_id, event.originator_version),
                "topic": _topic(event),
                "originator_id": str(event.originator_id),
                "originator_version": event.originator_version,
                "state": state,
            },
            option=orjson.OPT_SORT_KEYS,
        )
        + b"\n"
    )


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
    ticks = iter(range(1 << 62))
    start = datetime(2026, 1, 1, tzinfo=UTC)

    def now() -> datetime:
        return start + timedelta(milliseconds=next(ticks))

    with path.open("wb") as out:
        campaign = Campaign.start(
            CampaignStarted, cid, name=name, system="adnd2e", rulings=dumped, by="bench", timestamp=now()
        )
        out.write(line(campaign.pending_events.pop()))
        cast = []
        for number in range(characters):
            who = f"C{number:04d}"
            sheet = rules.parse_sheet({"hp": str(chance.randint(20, 80)), "level": str(chance.randint(1, 9))})
            character = Character.start(
                CharacterRegistered,
                character_id(cid, who),
                campaign_id=cid,
                name=who,
                system="adnd2e",
                kind="character",
                sheet=sheet.model_dump(mode="json"),
                by="bench",
                timestamp=now(),
            )
            out.write(line(character.pending_events.pop()))
            cast.append(character)
        written = 1 + characters
        turn = 0
        while written < events:
            character = cast[turn % characters]
            turn += 1
            dice = Dice(chance.getrandbits(62))
            kind = turn % 10
            inputs: Any
            event_class: Any  # (this system's: each takes its own sheet, condition and rulings)
            try:
                if kind < 4:
                    raise Refusal("a free roll")
                if kind < 7:
                    inputs = InjureInputs(damage=chance.randint(1, 4), mode=chance.choice(("lethal", "sap")))
                    event_class = Injured
                else:
                    inputs, event_class = RestInputs(hours=8), Rested
                outcome = event_class.derive(character.sheet, character.condition, inputs, rulings, dice)
                character.record(
                    event_class,
                    inputs=inputs,
                    outcome=outcome,
                    rulings=dumped,
                    dice=dice.record(),
                    by="bench",
                    timestamp=now(),
                )
            except Refusal:
                dice = Dice(chance.getrandbits(62))
                character.trigger_event(
                    DiceRolled, **roll(chance.choice(NOTATIONS), dice), reason="bench", by="bench", timestamp=now()
                )
            out.write(line(character.pending_events.pop()))
            written += 1
        out.write(closing_line({c.id: (c.version, c.head_hash) for c in [campaign, *cast]}) + b"\n")
    return written


def widen(template: Path, out_path: Path, name: str, copies: int) -> int:
    """One campaign NAME holding the template campaign's characters `copies` times over (copy k's
    C0007 is C0007 + k x the template's cast), each copy's events after the one before: new ids,
    hashes and chains, the same events. Returns how many events were written."""
    new_campaign = campaign_id(name)
    heads: dict[str, tuple[int, str]] = {}
    count = 0
    with out_path.open("wb") as out:
        cast = 0
        for copy in range(copies):
            ids: dict[str, str] = {}
            with template.open("rb") as source:
                for text in source:
                    record = orjson.loads(text)
                    if "closing" in record:
                        continue
                    state = record["state"]
                    if record["topic"].endswith(":CampaignStarted"):
                        ids[record["originator_id"]] = str(new_campaign)
                        if copy:
                            continue
                        state["name"] = name
                    elif record["topic"].endswith(":CharacterRegistered"):
                        if copy == 0:
                            cast += 1
                        state["name"] = f"C{int(state['name'][1:]) + copy * cast:04d}"
                        ids[record["originator_id"]] = str(character_id(new_campaign, state["name"]))
                        state["campaign_id"] = str(new_campaign)
                    out.write(_rechained(record, ids[record["originator_id"]], heads))
                    count += 1
        out.write(closing_line({UUID(k): head for k, head in heads.items()}) + b"\n")
    return count


def _rechained(record: dict[str, Any], owner: str, heads: dict[str, tuple[int, str]]) -> bytes:
    state, version = record["state"], record["originator_version"]
    state["prev_hash"] = heads.get(owner, (0, ""))[1]
    body = {k: v for k, v in state.items() if k != "hash"}
    body.update(originator_id=owner, originator_version=version)
    state["hash"] = hashlib.sha256(orjson.dumps([record["topic"], body], option=orjson.OPT_SORT_KEYS)).hexdigest()
    heads[owner] = (version, state["hash"])
    return (
        orjson.dumps(
            {
                "id": event_id(UUID(owner), version),
                "topic": record["topic"],
                "originator_id": owner,
                "originator_version": version,
                "state": state,
            },
            option=orjson.OPT_SORT_KEYS,
        )
        + b"\n"
    )
