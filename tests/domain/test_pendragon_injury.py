"""Wounds, First Aid and magical healing (docs/rulings.md, PenDragon Pass, Injury; seed: Injury and Health)."""

from datetime import timedelta

import pytest
from test_pendragon_support import T0, act, character

from chronicle.domain.errors import NotFound, Refusal
from chronicle.domain.pendragon import FirstAidGiven, Injured, MagicallyHealed, Rulings, view

HOUR = timedelta(hours=1)


def hurt(damage, **stats):
    hero = character(**({"siz": 15, "con": 13} | stats))  # 28 hit points, unconscious at 7
    event = act(hero, Injured, damage=damage, at=T0)
    return hero, event.outcome


def test_hit_points_are_siz_plus_con_less_each_wound():
    hero, _ = hurt(5)
    act(hero, Injured, damage=4, at=T0)
    shown = view(hero.sheet, hero.condition)["condition"]
    assert (shown["hp"], shown["max_hp"], [w["amount"] for w in shown["wounds"]]) == (19, 28, [5, 4])
    assert [w["id"] for w in shown["wounds"]] == [1, 2]


def test_a_wound_of_con_or_more_is_major_and_needs_chirurgery():
    hero, outcome = hurt(13)
    assert outcome.major and "needs_chirurgery" in view(hero.sheet, hero.condition)["condition"]["states"]
    assert not hurt(12)[1].major


def test_damage_over_siz_is_a_knockdown():
    assert hurt(16)[1].knockdown and not hurt(15)[1].knockdown
    hero, _ = hurt(16)
    assert "knocked_down" in view(hero.sheet, hero.condition)["condition"]["states"]


def test_unconscious_at_a_quarter_of_hit_points():
    assert hurt(21)[1].unconscious  # 7 left, 28 // 4 = 7
    assert not hurt(20)[1].unconscious
    hero, _ = hurt(21)
    assert set(view(hero.sheet, hero.condition)["condition"]["states"]) >= {"unconscious", "needs_chirurgery"}


def test_the_below_quarter_ruling_needs_fewer_hit_points():
    hero = character(siz=15, con=13)
    assert not act(hero, Injured, Rulings(unconscious_threshold="below_quarter"), damage=21).outcome.unconscious


def test_no_hit_points_left_is_death():
    hero, outcome = hurt(28)
    assert outcome.dead and "dead" in view(hero.sheet, hero.condition)["condition"]["states"]


def test_first_aid_heals_1d3_once_per_wound():
    hero, _ = hurt(6)
    assert act(hero, FirstAidGiven, rolls={"heal": [3]}, wound=1, at=T0 + HOUR).outcome.healed == 3
    assert hero.condition.wounds[0].amount == 3 and hero.condition.wounds[0].first_aid_done
    with pytest.raises(Refusal, match="already"):
        act(hero, FirstAidGiven, rolls={"heal": [1]}, wound=1)


def test_first_aid_only_within_a_day():
    hero, _ = hurt(6)
    with pytest.raises(Refusal, match="day"):
        act(hero, FirstAidGiven, wound=1, at=T0 + timedelta(hours=25))
    assert act(hero, FirstAidGiven, rolls={"heal": [2]}, wound=1, at=T0 + timedelta(hours=24)).outcome.healed == 2


def test_first_aid_with_a_failed_skill_roll_heals_nothing_but_is_used():
    hero, _ = hurt(6)
    event = act(hero, FirstAidGiven, rolls={"check": [15]}, wound=1, skill=12)
    assert event.outcome.healed == 0 and hero.condition.wounds[0].first_aid_done


def test_first_aid_never_heals_more_than_the_wound():
    hero, _ = hurt(2)
    assert act(hero, FirstAidGiven, rolls={"heal": [3]}, wound=1).outcome.healed == 2


def test_unknown_wounds_are_bad_input():
    hero, _ = hurt(2)
    with pytest.raises(NotFound):
        act(hero, FirstAidGiven, wound=5)


def test_magical_healing_once_per_wound_within_the_hour():
    hero, _ = hurt(8)
    assert act(hero, MagicallyHealed, wound=1, points=3, at=T0 + HOUR).outcome.healed == 3
    with pytest.raises(Refusal, match="already"):
        act(hero, MagicallyHealed, wound=1, points=3)
    hero, _ = hurt(8)
    with pytest.raises(Refusal, match="hour"):
        act(hero, MagicallyHealed, wound=1, points=3, at=T0 + 2 * HOUR)
    assert act(hero, MagicallyHealed, wound=1, points=3, at=T0 + 2 * HOUR, window_hours=None).outcome.healed == 3


def test_first_aid_and_magic_both_apply_to_one_wound():
    hero, _ = hurt(8)
    act(hero, FirstAidGiven, rolls={"heal": [2]}, wound=1)
    act(hero, MagicallyHealed, wound=1, points=4)
    assert hero.condition.wounds[0].amount == 2


def test_magic_waking_an_unconscious_character_ends_its_need_for_chirurgery():
    hero, _ = hurt(11)
    act(hero, Injured, damage=10, at=T0)  # 7 left: unconscious; no major wound (CON 13)
    act(hero, MagicallyHealed, wound=2, points=4, at=T0)
    assert view(hero.sheet, hero.condition)["condition"]["states"] == []


def test_magic_that_leaves_a_character_unconscious_does_not():
    hero, _ = hurt(21)
    act(hero, MagicallyHealed, wound=1, points=0)
    assert {"unconscious", "needs_chirurgery"} <= set(view(hero.sheet, hero.condition)["condition"]["states"])


def test_a_major_wound_still_needs_chirurgery_after_ordinary_magic():
    hero, _ = hurt(22)
    act(hero, MagicallyHealed, wound=1, points=10)
    states = view(hero.sheet, hero.condition)["condition"]["states"]
    assert "unconscious" not in states and "needs_chirurgery" in states


@pytest.mark.parametrize("spell", [{"heals_all": True}, {"regrows_limbs": True, "points": 5}])
def test_magic_that_heals_all_or_regrows_limbs_ends_a_major_wounds_need(spell):
    hero, _ = hurt(22)
    event = act(hero, MagicallyHealed, wound=1, **({"points": 0} | spell))
    assert event.outcome.chirurgery_cleared
    assert "needs_chirurgery" not in view(hero.sheet, hero.condition)["condition"]["states"]


def test_the_condition_and_its_view_survive_json():
    import json

    from chronicle.domain.pendragon import Condition

    hero, _ = hurt(14)
    act(hero, FirstAidGiven, rolls={"heal": [1]}, wound=1, at=T0)
    assert Condition.model_validate(hero.condition.model_dump(mode="json")) == hero.condition
    assert json.loads(json.dumps(view(hero.sheet, hero.condition)))["condition"]["wounds"][0]["first_aid_done"] is True
