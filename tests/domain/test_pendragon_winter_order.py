"""The Winter Phase in the text's order (seed: The Winter Phase, "Experience Check Rolls" before
"Training and Practice"): experience checks first, then training, which rolls against the value experience
left. Only the living have a winter. The numbers are worked by hand in each test."""

import pytest
from test_pendragon_support import T0, act, character

from chronicle.domain.dice import Dice
from chronicle.domain.errors import Refusal
from chronicle.domain.pendragon import Checked, Injured, Rulings, WinterResolved, explain


def checked(**stats):
    """A character whose sword (the value named first) was used well: a 7 against it marks a check."""
    hero = character(**stats)
    act(hero, Checked, rolls={"check": [7]}, what="sword", award_check=True)
    assert hero.condition.checks == ("sword",)
    return hero


def winter(hero, rolls, **inputs):
    return act(hero, WinterResolved, rolls=rolls, year=1621, land_roll=3, training=[{"what": "sword"}], **inputs)


def as_stored_by_version_2(event):
    """The event's stored state as class_version 2 wrote it (no training_first, no force), upcast again."""
    state = event.model_dump(mode="json")
    for later in ("training_first", "force"):
        del state["inputs"][later]
    WinterResolved.upcast_v2_v3(state)
    return WinterResolved.model_validate(state)


def test_sword_13_with_a_check_and_a_month_of_training_ends_at_14_as_the_text_orders_it():
    # experience first: 19 is over 13, Sword 14; then the month's training rolls 14, not over 14: it stays 14
    hero = checked(sword=13)
    out = winter(hero, {"experience:sword": [19], "training:sword": [14]}).outcome
    assert [(g.from_, g.roll, g.to) for g in out.experience] == [(13, 19, 14)]
    assert [(t.gain.from_, t.gain.roll, t.gain.to) for t in out.training] == [(14, 14, 14)]
    assert hero.sheet.value("sword") == 14
    assert [(i.what, i.by, i.cause) for i in hero.condition.increases] == [("sword", 1, "experience")]


def test_the_earlier_order_ended_the_same_winter_at_15():
    # training first (as versions 1 and 2 decided): 14 is over 13, Sword 14; then experience 19 is over 14: 15
    hero = checked(sword=13)
    out = winter(hero, {"experience:sword": [19], "training:sword": [14]}, training_first=True).outcome
    assert [(t.gain.from_, t.gain.to) for t in out.training] == [(13, 14)]
    assert [(g.from_, g.to) for g in out.experience] == [(14, 15)]
    assert hero.sheet.value("sword") == 15
    assert [i.cause for i in hero.condition.increases] == ["training", "experience"]


def test_experience_may_reach_the_training_cap_and_the_month_is_then_spent_without_a_roll():
    # Sword is physical (cap 15). Sword 14 with a check: experience rolls 18, over 14: 15; the month of
    # training finds Sword at its cap, rolls nothing and still costs 120 silvers. (Training first, a 16 would
    # have made 15 and the experience 18 then 16.)
    hero = checked(sword=14)
    event = winter(hero, {"experience:sword": [18]})
    out = event.outcome
    assert [(g.from_, g.to) for g in out.experience] == [(14, 15)]
    assert [(t.gain, t.capped, t.silvers) for t in out.training] == [(None, 15, 120)]
    assert hero.sheet.value("sword") == 15
    told = explain(event, "Suboti")
    assert told.index("Experience: Sword rolled 18") < told.index("A month's training (120 silvers): Sword")


def test_a_winter_recorded_by_version_2_re_derives_training_first():
    hero = checked(sword=13)
    before = (hero.sheet, hero.condition)
    recorded = winter(hero, {"experience:sword": [19], "training:sword": [14]}, training_first=True)
    old = as_stored_by_version_2(recorded)
    assert old.inputs.training_first
    assert WinterResolved.derive(*before, old.inputs, Rulings(), Dice.replay(old.dice)) == recorded.outcome
    assert WinterResolved.derive(*before, old.inputs, Rulings(), Dice.replay(old.dice)).experience[0].to == 15


def slain():
    """SIZ 10 + CON 10 = 20 hit points; a wound of 20 leaves 0: dead."""
    hero = checked(sword=13, siz=10, con=10)
    act(hero, Injured, damage=20, at=T0)
    return hero


def test_the_dead_have_no_winter():
    hero = slain()
    with pytest.raises(Refusal, match=r"dead character \(0 hit points\) has no Winter Phase"):
        winter(hero, {"experience:sword": [19], "training:sword": [14]})
    assert hero.condition.winters == ()


def test_a_winter_given_to_the_dead_by_version_2_re_derives_as_it_was():
    hero = slain()
    before = (hero.sheet, hero.condition)
    recorded = winter(hero, {"experience:sword": [19], "training:sword": [14]}, training_first=True, force=True)
    old = as_stored_by_version_2(recorded)
    assert old.inputs.force
    assert WinterResolved.derive(*before, old.inputs, Rulings(), Dice.replay(old.dice)) == recorded.outcome
