"""`amend` and `replay --fork` as commands, and the replay read, through the application layer without Click,
on SQLite and PostgreSQL (Corrections). The numbers are those of tests/cli/test_corrections.py:
Kara (Str 10, a 2d6 longsword) attacks Orc (Fortitude +1, defence 0); a hit's save is against
DC 15 + damage // 5, and failing it by 10 or more disables."""

from __future__ import annotations

from typing import Any

import pytest
from reliability.forge import before_signatures

from chronicle.domain.character import character_id
from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.potestas import Attacked, Injured
from chronicle.ledger.application.audit import history
from chronicle.ledger.application.commands.audit import Amend, Replay, what_if
from chronicle.ledger.application.commands.table import CampaignNew, CharacterAdd
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.application.views.characters import character_view
from chronicle.ledger.trust.verify import verify


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=7)
    yield opened
    opened.close()


def fight(ledger: Ledger, **attack: Any) -> tuple[str, list[str]]:
    """The campaign, Kara's attack on Orc: the ids of the attack and of its hits."""
    ledger.execute(CampaignNew(name="Fight", system="potestas"))
    ledger.execute(CharacterAdd(name="Kara", stat=["weapons=longsword:damage=2d6,types=slashing"]))
    ledger.execute(CharacterAdd(name="Orc", stat=["fort=1"]))
    reply = ledger.execute_document({"command": "attack", "attacker": "Kara", "target": "Orc", **attack})
    first, *hits = reply.document["events"]
    return first, hits


def orc(ledger: Ledger, as_of: str | None = None) -> dict[str, Any]:
    return character_view(ledger.read(), "Orc", as_of)["condition"]


def position(ledger: Ledger, ident: str) -> int:
    session = ledger.read()
    found = session.app.index.by_event_id(session.campaign.id, ident)
    assert found is not None
    return found


def count(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


def orc_events(ledger: Ledger) -> list[Any]:
    return history(ledger.app, character_id(ledger.read().campaign.id, "Orc"))


def test_an_attack_amended_to_a_miss_takes_its_hits_wounds_away(ledger):
    attack, (hit,) = fight(ledger, roll=15, dice=[6, 6], save_roll=[5])  # 12 damage, DC 17, save 6: disabled
    recorded = orc_events(ledger)
    assert isinstance(recorded[-1], Injured) and recorded[-1].attack == recorded[-2].originator_version  # linked
    reply = ledger.execute(Amend(ref=attack, reason="the die showed 2", roll=["attack=2"]))
    changes = {(c["position"], c["field"]): (c["recorded"], c["replayed"]) for c in reply.document["changes"]}
    assert changes[(position(ledger, hit), "counts")] == (True, False)
    assert orc(ledger)["wounds"] == 0
    assert verify(ledger.read())["ok"] is True
    assert orc(ledger, reply.document["event"]) == orc(ledger) and orc(ledger, hit)["wounds"] == 1
    assert what_if(ledger.read(), "Orc", ["disable_margin=5"]).document["final"]["Orc"] == orc(ledger)


def test_amending_an_attacks_damage_dice_re_derives_its_hits(ledger):
    attack, (hit,) = fight(ledger, roll=15, dice=[1, 1], save_roll=[14])  # 2 damage, DC 15, save 15: no effect
    reply = ledger.execute_document(
        {"command": "amend", "ref": attack, "roll": ["damage:1:1=6,6"], "reason": "misread"}
    )  # 12 damage, DC 17: 15 fails by 2
    at = position(ledger, hit)
    changed = {c["field"]: (c["recorded"], c["replayed"]) for c in reply.document["changes"] if c["position"] == at}
    assert (changed["damage"], changed["dc"], changed["outcome"]) == ((2, 12), (15, 17), ("no_effect", "wound"))
    assert orc(ledger)["wounds"] == 1
    assert verify(ledger.read())["ok"] is True


def test_a_miss_amended_to_a_hit_makes_the_hit(ledger):
    attack, hits = fight(ledger, roll=5)
    assert hits == []
    ledger.execute(Amend(ref=attack, reason="misread", roll=["attack=15", "damage:1:1=6,6"], save_roll=5))
    assert orc(ledger)["wounds"] == 1 and orc(ledger)["states"] == ["disabled"]
    assert verify(ledger.read())["ok"] is True


def test_save_roll_is_the_hits_save(ledger):
    _, (hit,) = fight(ledger, roll=15, dice=[1, 1], save_roll=[3])  # DC 15, save 4: disabled
    reply = ledger.execute(Amend(ref=hit, reason="the die was misread", save_roll=15))  # 16: no effect
    assert orc(ledger)["wounds"] == 0
    amendment = orc_events(ledger)[-1]
    assert amendment.table == {"save:1": [15]} and reply.document["version"] == amendment.originator_version


def test_a_purpose_or_an_input_the_event_does_not_have_is_bad_input_and_writes_nothing(ledger):
    attack, (hit,) = fight(ledger, roll=15, dice=[1, 1], save_roll=[3])
    before = count(ledger)
    with pytest.raises(BadInput, match=r"rolls no 'sav' die: the dice it rolls are save:1"):
        ledger.execute(Amend(ref=hit, reason="typo", roll=["sav=12"]))
    with pytest.raises(BadInput, match=r"takes no input 'dmg': the inputs it records are"):
        ledger.execute(Amend(ref=attack, reason="typo", set_=["dmg=3"]))
    with pytest.raises(BadInput, match="unknown key 'dmg'"):
        ledger.execute_document({"command": "amend", "ref": hit, "reason": "typo", "dmg": 3})
    assert count(ledger) == before


def test_an_amendment_that_changes_nothing_is_refused(ledger):
    _, (hit,) = fight(ledger, roll=15, dice=[1, 1], save_roll=[3])
    before = count(ledger)
    with pytest.raises(Refusal, match="changes no recorded outcome of Orc: nothing was written"):
        ledger.execute(Amend(ref=hit, reason="the same", save_roll=3))
    assert count(ledger) == before


def test_the_reply_speaks_in_positions(ledger):
    attack, (hit,) = fight(ledger, roll=15, dice=[6, 6], save_roll=[5])
    reply = ledger.execute(Amend(ref=attack, reason="misread", roll=["attack=2"]))
    at, struck = position(ledger, attack), position(ledger, hit)
    assert reply.document["position"] == at
    assert reply.text.startswith(f'Corrected #{at} (Orc) with the attack roll 2: "misread". It changed #{at}: hit')
    assert f"#{struck}: no longer counts" in reply.text and "event 2" not in reply.text


def test_verify_re_derives_a_hits_link_to_its_attack(ledger, monkeypatch):
    before_signatures(monkeypatch)  # (a signed event's link is its command's: run again from its document)
    fight(ledger, roll=15, dice=[6, 6], save_roll=[5])
    given = next(e for e in orc_events(ledger) if isinstance(e, Attacked)).inputs
    session = ledger.session()
    target = session.character("Orc")
    struck = session.record(target, Attacked, given, {"attack": [15], "damage:1:1": [6, 6]})
    blow = struck.event.outcome.hits[0].model_copy(update={"damage": 40})  # not what the attack dealt
    session.record(target, Injured, blow, {"save:1": [5]}, attack=struck.event.originator_version)
    session.save()
    session.catch_up(rows=True)
    problems = verify(ledger.read())["problems"]
    assert [p["problem"] for p in problems] == [
        "Injured: recorded inputs differ from consequence 1 of the Attacked it names"
    ]


def test_hits_recorded_before_they_named_their_attack_follow_it_too(ledger, monkeypatch):
    before_signatures(monkeypatch)  # (hits named their attack before chronicle signed what it records)
    fight(ledger, roll=5)
    given = next(e for e in orc_events(ledger) if isinstance(e, Attacked)).inputs
    session = ledger.session()
    target = session.character("Orc")
    struck = session.record(target, Attacked, given, {"attack": [15], "damage:1:1": [6, 6]})
    session.record(target, Injured, struck.event.outcome.hits[0], {"save:1": [5]})  # no link, as before
    session.save()
    session.catch_up(rows=True)
    assert orc(ledger)["wounds"] == 1
    ledger.execute(Amend(ref=struck.event_id, reason="it missed", roll=["attack=2"]))
    assert orc(ledger)["wounds"] == 0
    assert verify(ledger.read())["ok"] is True


def test_replay_fork_is_a_command_and_replay_alone_a_read(ledger):
    attack, _ = fight(ledger, roll=15, dice=[6, 6], save_roll=[5])  # failing by 11 disables
    before = count(ledger)
    read = what_if(ledger.read(), None, ["disable_margin=12"])
    assert [c["field"] for c in read.document["changed"] if c["character"] == "Orc"] == ["degree", "states"]
    assert "Orc, #" in read.text and count(ledger) == before
    with pytest.raises(BadInput):
        ledger.execute_document({"command": "replay", "ruling": ["disable_margin=12"]})  # a write needs its fork
    reply = ledger.execute(Replay(ruling=["disable_margin=12"], fork="Fight (what if)"))
    assert reply.document["fork"]["campaign"] == "Fight (what if)" and count(ledger) > before
    forked = Ledger(ledger.target, by="gm", campaign="Fight (what if)")
    try:
        events = history(forked.app, character_id(forked.read().campaign.id, "Orc"))
        struck = next(e for e in events if isinstance(e, Attacked))
        hit = next(e for e in events if isinstance(e, Injured))
        assert struck.origin == attack and hit.attack == struck.originator_version
        assert character_view(forked.read(), "Orc", None)["condition"]["states"] == []  # no longer disabled
    finally:
        forked.close()
