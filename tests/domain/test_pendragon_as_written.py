"""Where the engine now follows the texts exactly (PenDragon Pass), each case worked by hand."""

from datetime import timedelta

import pytest
from test_pendragon_support import T0, act, character

from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.pendragon import (
    Checked,
    ChirurgeryPerformed,
    FeatAttempted,
    FirstAidGiven,
    Injured,
    Rested,
    Rulings,
    StatusAwarded,
    TacticResolved,
    WinterResolved,
    view,
)
from chronicle.domain.pendragon.chirurgery import check_healer
from chronicle.domain.pendragon.winter_choices import default_worship

# worship ------------------------------------------------------------------------------------------


def test_only_an_initiate_worships_with_religion():
    with pytest.raises(Refusal, match="worship with religion: only an initiate"):
        act(character(religion=12), WinterResolved, year=1621, land_roll=3, worship="religion")
    out = act(
        character(religion=12, initiate=1),
        WinterResolved,
        rolls={"worship": [5], "experience:pow": [14]},
        year=1621,
        land_roll=3,
        worship="religion",
    ).outcome
    assert (out.worship.result, out.checks) == ("success", ("pow",))  # 5 under 12; POW 10: 14 raises it


@pytest.mark.parametrize("honour", ["initiate", "acolyte", "priest", "high-priest", "rune-lord"])
def test_the_initiate_and_higher_religious_honours_make_an_initiate(honour):
    hero = character(religion_orlanth=12)
    act(hero, StatusAwarded, honour=honour)
    act(hero, WinterResolved, rolls={"worship": [15]}, year=1621, land_roll=3, worship="religion_orlanth")


def test_custom_own_is_for_a_shaman_unless_the_ruling_says_anyone():
    with pytest.raises(Refusal, match="custom_worship=shamans"):
        act(character(custom_own=12), WinterResolved, year=1621, land_roll=3, worship="custom_own")
    hero = character(custom_own=12)
    act(hero, StatusAwarded, honour="shaman")  # the Shaman honour makes a shaman
    act(hero, WinterResolved, rolls={"worship": [15]}, year=1621, land_roll=3, worship="custom_own")
    act(
        character(custom_own=12),
        WinterResolved,
        Rulings(custom_worship="anyone"),
        rolls={"worship": [15]},
        year=1621,
        land_roll=3,
        worship="custom_own",
    )
    with pytest.raises(BadInput, match="Religion roll"):
        act(character(stewardship=12, initiate=1), WinterResolved, year=1621, land_roll=3, worship="stewardship")


def test_the_worship_a_character_makes_when_none_is_named():
    rulings = Rulings()
    plain, initiate, shaman = (
        character(religion=9, custom_own=9),
        character(religion=9, initiate=1),
        character(religion=9, custom_own=9, shaman=1),
    )
    assert [default_worship(c.sheet, c.condition, rulings) for c in (plain, initiate, shaman)] == [
        None,
        "religion",
        "custom_own",
    ]


# Chirurgery and natural healing ---------------------------------------------------------------------


def wounded():
    """SIZ 12, CON 12: 24 hit points, unconscious at 6; STR 13: Healing Rate (13 + 12) // 10 = 2.
    A wound of 12 (CON or more) is a major wound: 12 hit points left, and it needs Chirurgery."""
    hero = character(siz=12, con=12, str=13)
    act(hero, Injured, damage=12, at=T0)
    return hero


def test_a_major_wound_heals_naturally_only_once_chirurgery_succeeds():
    hero = wounded()
    assert act(hero, Rested, hours=14 * 24).outcome.healed == {}  # two weeks, nothing heals
    out = act(hero, ChirurgeryPerformed, rolls={"check": [9]}, skill=14, healer="Harrek", at=T0).outcome
    assert (out.roll.result, out.treated, out.healed, out.hp) == ("success", True, {}, 12)
    assert "needs_chirurgery" not in view(hero.sheet, hero.condition)["condition"]["states"]
    assert act(hero, Rested, hours=14 * 24).outcome.healed == {1: 4}  # two weeks at 2
    assert view(hero.sheet, hero.condition)["condition"]["hp"] == 16


def test_a_critical_chirurgery_also_heals_the_healing_rate_at_once_per_the_ruling():
    out = act(wounded(), ChirurgeryPerformed, rolls={"check": [14]}, skill=14, at=T0).outcome
    assert (out.roll.result, out.healed, out.hp) == ("critical", {1: 2}, 14)
    out = act(
        wounded(),
        ChirurgeryPerformed,
        Rulings(chirurgery_critical="as_success"),
        rolls={"check": [14]},
        skill=14,
        at=T0,
    ).outcome
    assert (out.treated, out.healed, out.hp) == (True, {}, 12)


def test_a_failed_chirurgery_changes_nothing_and_waits_a_week_to_be_tried_again():
    hero = wounded()
    out = act(hero, ChirurgeryPerformed, rolls={"check": [16]}, skill=14, at=T0).outcome
    assert (out.roll.result, out.treated, out.hp) == ("failure", False, 12)
    with pytest.raises(Refusal, match="7 days"):
        act(hero, ChirurgeryPerformed, rolls={"check": [3]}, skill=14, at=T0 + timedelta(days=6))
    assert act(hero, ChirurgeryPerformed, rolls={"check": [3]}, skill=14, at=T0 + timedelta(days=7)).outcome.treated


def test_a_fumbled_chirurgery_deals_a_new_wound_of_1d6():
    hero = wounded()
    out = act(hero, ChirurgeryPerformed, rolls={"check": [20], "damage": [4]}, skill=14, at=T0).outcome
    assert (out.roll.result, out.treated, out.wound, out.damage, out.hp) == ("fumble", False, 2, 4, 8)
    shown = view(hero.sheet, hero.condition)["condition"]
    assert shown["hp"] == 8 and "needs_chirurgery" in shown["states"]


def test_chirurgery_is_for_a_living_patient_who_needs_it_and_never_by_the_patient():
    with pytest.raises(Refusal, match="no wound"):
        act(character(), ChirurgeryPerformed, rolls={"check": [3]}, skill=14)
    with pytest.raises(Refusal, match="themself"):
        check_healer("Suboti", "Suboti")
    dead = wounded()
    act(dead, Injured, damage=12)
    with pytest.raises(Refusal, match="dead"):
        act(dead, ChirurgeryPerformed, rolls={"check": [3]}, skill=14)


def test_a_rest_that_heals_nothing_does_not_wake_an_unconscious_character():
    # SIZ 10, CON 10: 20 hit points, unconscious at 5 or fewer; Healing Rate (10 + 10) // 10 = 2
    hero = character()
    act(hero, Injured, damage=8)
    act(hero, Injured, damage=8)  # 4 hit points: unconscious, and needs Chirurgery
    act(hero, FirstAidGiven, rolls={"heal": [2]}, wound=2)  # 6 hit points: above the threshold, still out
    out = act(hero, Rested, hours=1).outcome
    assert (out.healed, out.hp, out.unconscious) == ({}, 6, True)
    act(hero, ChirurgeryPerformed, rolls={"check": [5]}, skill=12)
    out = act(hero, Rested, hours=7 * 24).outcome  # a week heals 2 of the first wound: 8 hit points, awake
    assert (out.healed, out.hp, out.unconscious) == ({1: 2}, 8, False)


# injury and First Aid on the dead ---------------------------------------------------------------


def test_injury_and_first_aid_on_the_dead_are_refused_unless_forced():
    hero = character()  # 20 hit points
    act(hero, Injured, damage=20)
    with pytest.raises(Refusal, match="dead"):
        act(hero, Injured, damage=3)
    with pytest.raises(Refusal, match="dead"):
        act(hero, FirstAidGiven, rolls={"heal": [2]}, wound=1)
    assert act(hero, Injured, damage=3, force=True).outcome.hp == -3
    assert act(hero, FirstAidGiven, rolls={"heal": [2]}, wound=1, force=True).outcome.hp == -1


# Status ----------------------------------------------------------------------------------------------


def test_status_never_falls_below_zero():
    hero = character()
    act(hero, StatusAwarded, foe="trollkin")  # 10
    out = act(hero, StatusAwarded, amount=-50, reason="fled the field").outcome
    assert (out.amount, out.total, hero.condition.status) == (-50, 0, 0)


# Feats and Flurry --------------------------------------------------------------------------------------


def test_a_feat_needs_a_combat_skill_or_a_physical_statistic():
    with pytest.raises(Refusal, match="not the skill stewardship"):
        act(character(stewardship=16), FeatAttempted, rolls={"feat": [3]}, what="stewardship", description="a deal")
    with pytest.raises(Refusal, match="Riding"):
        act(character(riding=16), FeatAttempted, rolls={"feat": [3]}, what="riding", description="a leap")
    for what in ("sword", "battle", "str"):
        act(character(sword=16, battle=16, str=16), FeatAttempted, rolls={"feat": [3]}, what=what, description="x")


def test_a_flurry_after_two_tied_criticals_gives_no_second_attack():
    out = act(
        character(sword=15),
        TacticResolved,
        rolls={"check": [15], "opponent": [12]},
        tactic="flurry",
        skill="sword",
        opponent_value=12,
    ).outcome
    assert (out.winner, out.tie, out.effects, set(out.rolls)) == (
        "none",
        True,
        {"second_attack": False},
        {"attack", "opponent"},
    )
    out = act(
        character(sword=15),
        TacticResolved,
        rolls={"check": [15], "opponent": [5], "flurry": [4]},
        tactic="flurry",
        skill="sword",
        opponent_value=12,
    ).outcome
    assert out.effects == {"second_attack": True, "second_hit": True}  # a critical beats a success


# winter dice keyed by check --------------------------------------------------------------------------


def test_changing_the_productivity_roll_moves_no_die_to_another_check():
    hero = character(stewardship=12, initiate=1)
    act(hero, Checked, rolls={"check": [4]}, what="valorous", award_check=True)
    before = (hero.sheet, hero.condition)
    event = act(
        hero,
        WinterResolved,
        rolls={"productivity": [6], "experience:stewardship": [3], "experience:valorous": [20]},
        year=1621,
        land_roll=3,
        productivity="stewardship",
    )
    assert [(g.what, g.roll) for g in event.outcome.experience] == [("stewardship", 3), ("valorous", 20)]
    # a correction: the productivity roll was 15, a failure, so Stewardship is not checked;
    # Valorous keeps its 20 (by order it would have taken Stewardship's 3)
    corrected = WinterResolved.derive(
        *before, event.inputs, Rulings(), Dice(event.dice.seed, table={"productivity": [15]}, replaying=event.dice)
    )
    assert [(g.what, g.roll, g.to) for g in corrected.experience] == [("valorous", 20, 11)]


def test_a_winter_recorded_with_dice_in_order_is_read_keyed_by_check():
    hero = character(stewardship=12, sword=10, initiate=1)
    act(hero, Checked, rolls={"check": [4]}, what="valorous", award_check=True)
    before = (hero.sheet, hero.condition)
    event = act(
        hero,
        WinterResolved,
        rolls={"productivity": [6], "experience:stewardship": [3], "experience:valorous": [20], "training:sword": [17]},
        year=1621,
        land_roll=3,
        productivity="stewardship",
        training=[{"what": "sword"}],
        training_first=True,  # as class_version 1 decided it
    )
    state = event.model_dump(mode="json")  # as class_version 1 stored it: purposes in order, no legacy flag
    for roll in state["dice"]["rolls"]:
        roll["purpose"] = roll["purpose"].partition(":")[0]
    for later in ("legacy", "training_first", "force"):
        del state["inputs"][later]
    WinterResolved.upcast_v1_v2(state)
    WinterResolved.upcast_v2_v3(state)
    old = WinterResolved.model_validate(state)
    assert [r.purpose for r in old.dice.rolls] == [
        "productivity",
        "training:sword",
        "experience:stewardship",
        "experience:valorous",
    ]
    assert old.inputs.legacy and old.inputs.training_first
    assert WinterResolved.derive(*before, old.inputs, Rulings(), Dice.replay(old.dice)) == event.outcome
