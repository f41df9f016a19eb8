"""The common events explain themselves in sentences; the rest go to their system."""

import re
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from chronicle.domain import systems
from chronicle.domain.amendments import Amended
from chronicle.domain.campaign import (
    CampaignArchived,
    CampaignStarted,
    RulingChanged,
    SessionEnded,
    SessionStarted,
    WinterBegan,
)
from chronicle.domain.character import CharacterRegistered
from chronicle.domain.dice import Dice
from chronicle.domain.explain import explain, words
from chronicle.domain.growth import CharacterRenamed, CharacterRetired, NoteTaken, SheetChanged
from chronicle.domain.model import Model
from chronicle.domain.rolls import DiceRolled, roll

WHEN = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
TARGET = "1a2b3c4d-0000-5000-8000-000000000000"


def _event(cls, **fields):
    return cls(originator_id=uuid4(), originator_version=2, timestamp=WHEN, by="gm", **fields)


def _rolled(notation, faces, reason=""):
    return _event(DiceRolled, reason=reason, **roll(notation, Dice(1, table={"roll": faces} if faces else None)))


def test_a_campaign_start_names_the_campaign_and_its_rules():
    started = _event(CampaignStarted, originator_topic="x", name="Sartar", system="pendragon-pass", rulings={})
    assert explain(started, "", None) == "The campaign Sartar began, played by the PenDragon Pass rules."


def test_a_ruling_change_says_from_what_to_what_and_quotes_the_reason():
    changed = _event(RulingChanged, key="temporary_recovery", value=2, previous=1, reason="house rule")
    assert explain(changed, "", "adnd2e") == 'The ruling temporary recovery is now 2 (it was 1): "house rule".'


def test_a_ruling_of_yes_or_no_is_written_in_words_never_true_or_false():
    changed = _event(RulingChanged, key="temporary_unconscious", value=False, previous=True, reason="gentler")
    assert explain(changed, "", "adnd2e") == 'The ruling temporary unconscious is now no (it was yes): "gentler".'
    new = _event(RulingChanged, key="flavour", value="grim", previous=None, reason="")
    assert explain(new, "", "adnd2e") == "The ruling flavour is now grim (it had no value)."


def test_a_registration_sums_up_the_sheet_in_the_systems_own_words():
    rules = systems.get("adnd2e")
    sheet = rules.parse_sheet({"hp": "30"}).model_dump(mode="json")
    registered = _event(
        CharacterRegistered, originator_topic="x", campaign_id=uuid4(), name="Bruno", system="adnd2e", sheet=sheet
    )
    summary = rules.summary(rules.Sheet.model_validate(sheet), rules.Condition())
    assert explain(registered, "Bruno", "adnd2e") == f"Bruno was registered (AD&D 2E): {summary}."
    assert "30" in summary


def test_an_object_is_registered_as_an_object():
    sheet = systems.get("potestas").parse_sheet({}, "object").model_dump(mode="json")
    registered = _event(
        CharacterRegistered,
        originator_topic="x",
        campaign_id=uuid4(),
        name="Gate",
        system="potestas",
        kind="object",
        sheet=sheet,
    )
    assert explain(registered, "Gate", "potestas").startswith("Gate was registered as an object (Potestas): ")


def test_a_roll_names_the_notation_every_face_the_dropped_ones_the_total_and_the_reason():
    rolled = _rolled("4d6kh3+1", [3, 5, 1, 6], reason="new statistic")
    assert explain(rolled, "Vasana", "pendragon-pass") == (
        'Vasana rolled 4d6kh3+1 for "new statistic" (the table\'s own dice): 3, 5, 1 (dropped) and 6, a total of 15.'
    )


def test_a_ledger_roll_on_the_campaign_and_a_roll_of_no_dice():
    rolled = _rolled("(1d8+3)*2", None)
    face = rolled.faces[0]
    assert explain(rolled, "", "adnd2e") == f"The table rolled (1d8+3)*2: {face}, a total of {(face + 3) * 2}."
    assert explain(_rolled("8-2", None), "Bruno", "adnd2e") == "Bruno rolled 8-2, which needs no dice: a total of 6."


def test_a_void_says_which_event_what_it_changed_and_why():
    void = _event(
        Amended,
        target=TARGET,
        target_version=3,
        reason="wrong character",
        void=True,
        changes=[
            {"version": 3, "field": "counts", "recorded": True, "replayed": False},
            {"version": 5, "field": "hp", "recorded": 12, "replayed": 20},
        ],
    )
    assert explain(void, "Bruno", "adnd2e") == (
        'A correction voids Bruno\'s event 3 (1a2b3c4d): "wrong character".'
        " It changed event 3: no longer counts; event 5: hp from 12 to 20."
    )


def test_a_correction_names_the_new_inputs_and_dice_and_each_changed_field():
    corrected = _event(
        Amended,
        target=TARGET,
        target_version=2,
        reason="misread the die",
        inputs={"damage": "12"},
        table={"save_roll": [14]},
        changes=[
            {"version": 2, "field": "states", "recorded": ["disabled"], "replayed": []},
            {"version": 2, "field": "save_made", "recorded": False, "replayed": True},
        ],
    )
    assert explain(corrected, "Kara", "potestas") == (
        "A correction decides Kara's event 2 (1a2b3c4d) again with damage 12 and the save roll 14:"
        ' "misread the die". It changed event 2: states from disabled to none and save made from no to yes.'
    )


def test_a_correction_tells_an_outcomes_own_term_in_words():
    corrected = _event(
        Amended,
        target=TARGET,
        target_version=2,
        reason="",
        changes=[{"version": 2, "field": "outcome", "recorded": "wound", "replayed": "no_effect"}],
    )
    assert explain(corrected, "Kara", "potestas").endswith("It changed event 2: outcome from wound to no effect.")


def test_a_correction_that_changed_nothing_says_so():
    quiet = _event(Amended, target=TARGET, target_version=2, reason="typo", void=True)
    assert explain(quiet, "Silas", "potestas").endswith("No recorded outcome changed.")


def test_winter_names_the_year_and_the_land_roll():
    winter = _event(WinterBegan, year=1620, land_roll=14, land_modifier=1, source="table")
    assert explain(winter, "", "pendragon-pass") == (
        "Winter began in the year 1620: the land roll was 14 (rolled at the table), a land modifier of +1."
    )


def test_sessions_notes_growth_names_and_retirement():
    assert (
        explain(_event(SessionStarted, number=3, title="The Broken Tower"), "", None)
        == 'Session 3 began: "The Broken Tower".'
    )
    assert explain(_event(SessionEnded, number=3), "", None) == "Session 3 ended."
    assert explain(_event(NoteTaken, text="owes\nthe smith"), "Bruno", None) == 'A note on Bruno: "owes the smith".'
    assert explain(_event(NoteTaken, text="rain"), "", None) == 'A note on the campaign: "rain".'
    grown = _event(SheetChanged, changes={"level": "10", "ac": "3"}, fields={}, reason="a level gained")
    assert explain(grown, "Bruno", "adnd2e") == (
        'Bruno\'s sheet changed from here on: level to 10 and AC to 3: "a level gained".'
    )
    assert (
        explain(_event(CharacterRenamed, name="Brunhild", previous="Bruno"), "Brunhild", None)
        == "Bruno is now called Brunhild."
    )
    assert explain(_event(CharacterRetired, reason="went home"), "Bruno", None) == 'Bruno retired: "went home".'
    assert (
        explain(_event(CampaignArchived, reason="demo"), "", None)
        == 'The campaign was archived: "demo"; its events are kept.'
    )


def test_values_are_words_never_python_reprs():
    assert words(True) == "yes" and words(None) == "nothing" and words([]) == "none"
    assert words(["disabled", "staggered", "prone"]) == "disabled, staggered and prone"
    assert words({"valorous": 20}) == "valorous 20"


@pytest.mark.parametrize("system", sorted(systems.PACKAGES))
def test_a_systems_own_event_goes_to_its_systems_explain(system, monkeypatch):
    rules = systems.get(system)
    event_class = rules.EVENTS[0]
    calls: list[tuple[object, str]] = []

    def said(event: object, name: str) -> str:
        calls.append((event, name))
        return "Said."

    monkeypatch.setattr(rules, "explain", said, raising=False)
    # unvalidated: any inputs and outcome will do, as only where the event goes is asked
    event = event_class.model_construct(
        originator_id=uuid4(), originator_version=2, timestamp=WHEN, by="gm", inputs=Model(), outcome=Model()
    )
    assert explain(event, "Bruno", system) == "Said."
    assert calls == [(event, "Bruno")]


def test_no_sentence_holds_a_repr_or_key_value():
    sentences = [
        explain(_rolled("2d6", [3, 4], reason="x"), "A", None),
        explain(_event(RulingChanged, key="k", value=[1, 2], previous={"a": None}, reason="r"), "", None),
    ]
    for sentence in sentences:
        assert not re.search(r"=|True|False|None|\[|\{|'\w*'", sentence), sentence
