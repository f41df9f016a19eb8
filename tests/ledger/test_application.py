"""The application layer without Click, on SQLite and PostgreSQL (after cosmicpython's handler tests): each
use case loads, decides once and saves in one unit of work; a refusal writes nothing."""

from __future__ import annotations

import pytest

from chronicle.domain import adnd2e, potestas
from chronicle.domain.errors import BadInput, NotFound, Refusal
from chronicle.ledger.application import Ledger


def count(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=7)
    yield opened
    opened.close()


def test_a_rule_action_is_one_event_with_its_author_rulings_and_dice(ledger):
    ledger.start_campaign("Saltmarsh", "potestas")
    ledger.add_character("Brand", {"fort": "3"})
    recorded = ledger.injure("Brand", potestas.Injured, potestas.InjuryInputs(damage=12), {"save": [9]})
    event = recorded.event
    assert (type(event).__name__, event.by, recorded.version) == ("Injured", "gm", 2)
    assert event.dice.rolls[0].faces == (9,) and event.dice.rolls[0].source == "table"
    assert event.rulings["save_naturals"] == "standard"
    assert recorded.document["outcome"] == "wound" and recorded.document["condition"]["wounds"] == 1
    assert "Brand takes 12 lethal damage" in recorded.sentences()
    assert count(ledger) == 3


def test_table_dice_the_rules_did_not_need_are_ignored_and_reported(ledger):
    ledger.start_campaign("Saltmarsh", "potestas")
    ledger.add_character("Brand", {"fort": "3", "dr": "20"})
    recorded = ledger.injure("Brand", potestas.Injured, potestas.InjuryInputs(damage=5), {"save": [9]})
    assert recorded.ignored == {"save": [9]} and recorded.document["ignored"] == {"save": [9]}
    with pytest.raises(BadInput):
        ledger.injure("Brand", potestas.Injured, potestas.InjuryInputs(damage=5), {"knockout": [50]})
    assert count(ledger) == 3


def test_a_refusal_writes_nothing(ledger):
    ledger.start_campaign("Greyhawk", "adnd2e")
    ledger.add_character("Bob", {"hp": "5"})
    ledger.injure("Bob", adnd2e.Injured, adnd2e.InjureInputs(damage=30, mode="lethal"))
    before = count(ledger)
    ledger.retire("Bob", "gone")
    with pytest.raises(Refusal):
        ledger.injure("Bob", adnd2e.Injured, adnd2e.InjureInputs(damage=1, mode="lethal"))
    assert count(ledger) == before + 1  # the retirement only
    with pytest.raises(NotFound):
        ledger.injure("Nobody", adnd2e.Injured, adnd2e.InjureInputs(damage=1, mode="lethal"))
    assert count(ledger) == before + 1


def test_growth_sessions_notes_and_names_through_the_use_cases(ledger):
    ledger.start_campaign("Sartar", "pendragon-pass")
    ledger.add_character("Vasana", {"siz": "15", "valorous": "15"})
    ledger.start_session("The Sun Dome")
    grown = ledger.set_sheet("vasana", {"valorous": "17"}, "a feat of arms")
    assert grown["changes"] == {"traits": {"valorous": 17, "cowardly": 3}}
    renamed = ledger.rename("Vasana", "Vasana Farosdaughter")
    assert renamed["previous"] == "Vasana"
    noted = ledger.note("Owes the Grazers a horse", "vasana farosdaughter")
    assert noted["for"] == "Vasana Farosdaughter"
    ended = ledger.end_session()
    assert ended["number"] == 1 and ended["digest"]
    session = ledger.read()
    assert [s.number for s in session.campaign.sessions] == [1]
    assert session.character("VASANA FAROSDAUGHTER").sheet.traits["valorous"] == 17


def test_one_unit_of_work_saves_every_aggregate_it_touched_in_the_order_decided(ledger):
    ledger.start_campaign("Greyhawk", "adnd2e")

    def two_characters(session):
        from chronicle.ledger.characters import add_character

        add_character(session, "Ann", {"hp": "9"}, None, False)
        add_character(session, "Bob", {"hp": "20"}, None, False)

    ledger.write(two_characters)
    names = [name for _, name, _ in ledger.read().app.index.characters(ledger.read().campaign.id)]
    assert names == ["Ann", "Bob"]
    assert count(ledger) == 3
