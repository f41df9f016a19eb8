"""Training may learn a new skill (seed: Training, "Characters may try to learn new skills"): a
skill not on the sheet starts from 0 and each month's experience roll raises it from there."""

import pytest
from test_pendragon_support import act, character

from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.pendragon import WinterResolved, explain, view


def months(hero, *what, rolls=None):
    training = [{"what": name} for name in what]
    return act(hero, WinterResolved, rolls=rolls or {}, year=1621, land_roll=3, training=training)


def test_a_skill_not_on_the_sheet_is_learned_from_0():
    # Bow is not on Suboti's sheet: the first month rolls 7, over 0: 1; the second rolls 2, over 1: 2
    hero = character(sword=14)
    event = months(hero, "bow", "bow", rolls={"training:bow": [7, 2]})
    assert [(t.what, t.gain.from_, t.gain.roll, t.gain.to, t.silvers) for t in event.outcome.training] == [
        ("bow", 0, 7, 1, 120),
        ("bow", 1, 2, 2, 120),
    ]
    assert hero.sheet.skills == {"sword": 14, "bow": 2}
    assert [(i.what, i.by, i.cause) for i in hero.condition.increases] == [("bow", 1, "training")] * 2
    assert view(hero.sheet, hero.condition)["increases"][0]["what"] == "bow"
    assert "Bow rolled 7: it rises from 0 to 1" in explain(event, "Suboti")


def test_a_new_skills_first_month_always_takes_even_on_a_1():
    """A roll must exceed 0: every d20 does, so a 1 makes Dancing 1."""
    hero = character()
    assert months(hero, "dancing", rolls={"training:dancing": [1]}).outcome.training[0].gain.to == 1
    assert hero.sheet.value("dancing") == 1


def test_a_new_skill_one_or_two_letters_from_one_the_sheet_has_is_a_slip_unless_written_as_new():
    hero = character(sword=14)
    with pytest.raises(BadInput, match="did you mean 'sword'"):
        months(hero, "swrod", rolls={"training:swrod": [9]})
    event = months(hero, "skill:swrod", rolls={"training:swrod": [9]})
    assert (event.outcome.training[0].what, hero.sheet.value("swrod"), hero.sheet.value("sword")) == ("swrod", 1, 14)


def test_training_learns_no_new_passion():
    with pytest.raises(Refusal, match="training love_horses: training raises skills and POW, not a passion"):
        months(character(), "love_horses")
