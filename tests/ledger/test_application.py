"""The application layer without Click, on SQLite and PostgreSQL (after cosmicpython's handler tests): each
command loads, decides once and saves in one unit of work; a refusal writes nothing."""

from __future__ import annotations

import pytest

from chronicle.domain.errors import BadInput, NotFound, Refusal
from chronicle.ledger.application.commands import adnd2e, potestas, table
from chronicle.ledger.application.ledger import Ledger


def count(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=7)
    yield opened
    opened.close()


def test_a_rule_action_is_one_event_with_its_author_rulings_dice_and_signature(ledger):
    ledger.execute(table.CampaignNew(name="Saltmarsh", system="potestas"))
    ledger.execute(table.CharacterAdd(name="Brand", stat=["fort=3"]))
    reply = ledger.execute(potestas.Injure(name="Brand", damage=12, save_roll=9))
    assert reply.document["outcome"] == "wound" and reply.document["condition"]["wounds"] == 1
    assert reply.document["version"] == 2 and "Brand takes 12 lethal damage" in reply.text
    *_, last = ledger.app.events.get(ledger.read().character_id("Brand"))
    assert (type(last).__name__, last.by) == ("Injured", "gm")
    assert last.dice.rolls[0].faces == (9,) and last.dice.rolls[0].source == "table"
    assert last.rulings["save_naturals"] == "standard"
    assert last.signed is not None and last.signed.key == ledger.identity.public_key_text
    assert last.signed.document == {
        "command": "injure",
        "name": "Brand",
        "damage": 12,
        "nonlethal": False,
        "save_roll": 9,
        "force": False,
    }
    assert count(ledger) == 3


def test_table_dice_the_rules_did_not_need_are_ignored_and_reported(ledger):
    ledger.execute(table.CampaignNew(name="Saltmarsh", system="potestas"))
    ledger.execute(table.CharacterAdd(name="Brand", stat=["fort=3", "dr=20"]))
    reply = ledger.execute(potestas.Injure(name="Brand", damage=5, save_roll=9))
    assert reply.document["ignored"] == {"save": [9]}
    assert "was not needed" in reply.text
    with pytest.raises(BadInput):
        ledger.execute_document({"command": "injure", "name": "Brand", "damage": 5, "knockout_roll": 50})
    assert count(ledger) == 3


def test_a_refusal_writes_nothing(ledger):
    ledger.execute(table.CampaignNew(name="Greyhawk", system="adnd2e"))
    ledger.execute(table.CharacterAdd(name="Bob", stat=["hp=5"]))
    ledger.execute(adnd2e.Injure(name="Bob", damage=30, mode="lethal"))
    before = count(ledger)
    ledger.execute(table.CharacterRetire(name="Bob", reason="gone"))
    with pytest.raises(Refusal):
        ledger.execute(adnd2e.Injure(name="Bob", damage=1, mode="lethal"))
    assert count(ledger) == before + 1  # the retirement only
    with pytest.raises(NotFound):
        ledger.execute(adnd2e.Injure(name="Nobody", damage=1, mode="lethal"))
    assert count(ledger) == before + 1


def test_growth_sessions_notes_and_names_through_the_commands(ledger):
    ledger.execute(table.CampaignNew(name="Sartar", system="pendragon-pass"))
    ledger.execute(table.CharacterAdd(name="Vasana", stat=["siz=15", "valorous=15"]))
    ledger.execute(table.SessionStart(title="The Sun Dome"))
    grown = ledger.execute(table.CharacterSet(name="vasana", assignments=["valorous=17"], reason="a feat of arms"))
    assert grown.document["changes"] == {"traits": {"valorous": 17, "cowardly": 3}}
    renamed = ledger.execute(table.CharacterRename(old="Vasana", new="Vasana Farosdaughter"))
    assert renamed.document["previous"] == "Vasana"
    noted = ledger.execute(table.Note(text="Owes the Grazers a horse", for_="vasana farosdaughter"))
    assert noted.document["for"] == "Vasana Farosdaughter"
    ended = ledger.execute(table.SessionEnd())
    assert ended.document["number"] == 1 and ended.document["digest"]
    session = ledger.read()
    assert [s.number for s in session.campaign.sessions] == [1]
    assert session.character("VASANA FAROSDAUGHTER").sheet.traits["valorous"] == 17


def test_one_unit_of_work_saves_every_aggregate_it_touched_in_the_order_decided(ledger):
    ledger.execute(table.CampaignNew(name="Greyhawk", system="adnd2e"))

    def two_characters(session):
        from chronicle.ledger.application.views.characters import add_character

        add_character(session, "Ann", {"hp": "9"}, None, False)
        add_character(session, "Bob", {"hp": "20"}, None, False)

    ledger.write(two_characters)
    names = [name for _, name, _ in ledger.read().app.index.characters(ledger.read().campaign.id)]
    assert names == ["Ann", "Bob"]
    assert count(ledger) == 3
