"""Where the engine now follows the seed's words exactly (Potestas): the dying save's rounds, nonlethal
wounds on the unconscious, the dying save's own naturals, and weapons from the sheet. Numbers are hand-computed."""

import pytest

from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput
from chronicle.domain.potestas import (
    AttackInputs,
    Condition,
    DyingSaveInputs,
    DyingSaveMade,
    Injured,
    InjuryInputs,
    RestInputs,
    Rulings,
    Sheet,
    attack,
    choose_weapons,
    dying_save,
    injure,
    parse_sheet,
    parse_weapon,
    rest,
)
from chronicle.domain.potestas.condition import DROPPING, WOUND, after_nonlethal_wound, after_wound
from chronicle.domain.potestas.injury import InjuryOutcome, apply_injury
from chronicle.domain.potestas.recovery import apply_dying_save, apply_rest

BRAND = Sheet(fort=4)
PRIOR = Rulings(dying_dc="10_plus_prior")


def save(condition, roll, rulings=Rulings(), rounds=0, sheet=BRAND):
    """One dying save with the table's d20: the outcome and the condition after it."""
    given = DyingSaveInputs(rounds=rounds)
    outcome = dying_save(sheet, condition, given, rulings, Dice(1, table={"save": [roll]}))
    return outcome, apply_dying_save(condition, given, outcome)


# The dying save counts every round unconscious ---------------------------------------------------


def test_each_round_dying_raises_the_dc_and_a_stable_character_wounded_again_goes_on_from_there():
    dying = Condition(wounds=2, lethal="dying")
    first, dying = save(dying, 5)  # 5 + 4 - 2 = 7 vs DC 10: still dying
    second, dying = save(dying, 8)  # 8 + 4 - 2 = 10 vs DC 11: still dying
    third, stable = save(dying, 11)  # 11 + 4 - 2 = 13 vs DC 12: stable
    assert [o.dc for o in (first, second, third)] == [10, 11, 12]
    assert (stable.states, stable.rounds_unconscious) == (["stable"], 3)
    again = after_wound(stable, WOUND, "dying", False)  # wounded back into dying: 3 wounds
    fourth, after = save(again, 11)  # 11 + 4 - 3 = 12 vs DC 13, not DC 10
    assert (fourth.dc, fourth.total, fourth.result) == (13, 12, "dying")
    assert after.rounds_unconscious == 4


def test_the_older_reading_restarted_at_10_and_stays_for_campaigns_that_chose_it():
    stable_again = Condition(wounds=3, lethal="dying", rounds_unconscious=3)  # dying_saves 0: a fresh spell
    outcome, _ = save(stable_again, 11, rulings=PRIOR)
    assert (outcome.dc, outcome.result) == (10, "stable")


def test_rounds_knocked_out_by_nonlethal_wounds_count():
    knocked_out = Condition(wounds=1, lethal="disabled", nonlethal_wounds=2, nonlethal="unconscious")
    lying = apply_rest(knocked_out, rest(Sheet(), knocked_out, RestInputs(minutes=1)))  # 1 minute heals nothing
    assert lying.rounds_unconscious == 10
    dying = after_wound(lying, WOUND, "dying", False)
    outcome, _ = save(dying, 15)  # DC 10 + 10 rounds; 15 + 4 - 2 = 17
    assert (outcome.dc, outcome.total, outcome.result) == (20, 17, "dying")


def test_rounds_no_event_shows_are_declared_with_the_save_and_counted_after_it():
    outcome, after = save(Condition(wounds=2, lethal="dying", rounds_unconscious=1), 12, rounds=3)
    assert (outcome.dc, outcome.total, outcome.result) == (14, 14, "stable")  # 10 + 1 + 3; 12 + 4 - 2
    assert after.rounds_unconscious == 5  # 1 + 3 + this round


def test_waking_ends_the_count():
    out = Condition(nonlethal_wounds=2, nonlethal="unconscious", rounds_unconscious=7)
    awake = apply_rest(out, rest(Sheet(), out, RestInputs(minutes=20)))  # one nonlethal wound: staggered
    assert (awake.states, awake.rounds_unconscious) == (["staggered"], 0)


# A dying character ignores nonlethal wounds --------------------------------------------------------


@pytest.mark.parametrize("lethal", ["dying", "stable"])
def test_a_dying_or_stable_character_ignores_a_nonlethal_wound(lethal):
    down = Condition(wounds=2, lethal=lethal)
    blow = InjuryInputs(damage=12, nonlethal=True)  # DC 17; 3 + 4 - 2 = 5 fails by 12: would stagger
    outcome = injure(BRAND, down, blow, Rulings(), Dice(1, table={"save": [3]}))
    assert (outcome.outcome, outcome.ignored, outcome.states) == ("nonlethal_wound", True, (lethal,))
    assert apply_injury(BRAND, down, outcome, Rulings()) == down


def test_injuries_recorded_before_the_ruling_keep_their_nonlethal_wound():
    down = Condition(wounds=2, lethal="dying")
    old = Rulings(unconscious_nonlethal="knocked_out_only")
    outcome = injure(BRAND, down, InjuryInputs(damage=12, nonlethal=True), old, Dice(1, table={"save": [3]}))
    assert not outcome.ignored
    assert apply_injury(BRAND, down, outcome, old).states == ["staggered", "dying"]
    state = {"rulings": {"save_naturals": "standard"}}
    Injured.upcast_v1_v2(state)
    assert state["rulings"] == {"unconscious_nonlethal": "knocked_out_only", "save_naturals": "standard"}


def test_a_knocked_out_character_still_ignores_nonlethal_wounds_by_the_ladder():
    out = Condition(nonlethal_wounds=3, nonlethal="unconscious")
    assert after_nonlethal_wound(out, DROPPING) == out


def test_an_outcome_recorded_before_states_were_kept_matches_its_rederivation():
    derived = injure(BRAND, Condition(), InjuryInputs(damage=12), Rulings(), Dice(1, table={"save": [3]}))
    recorded = InjuryOutcome.model_validate({**derived.model_dump(), "states": None})
    assert derived.states == ("disabled",) and recorded == derived and derived == recorded
    assert recorded != derived.model_copy(update={"dc": 18})


# Natural 1 and 20 on dying saves: a ruling of their own -------------------------------------------


def test_dying_save_naturals_standard_a_20_stabilises_and_a_1_stays_dying():
    assert save(Condition(wounds=15, lethal="dying"), 20)[0].result == "stable"  # 20 + 4 - 15 = 9 vs 10
    assert save(Condition(lethal="dying"), 1, sheet=Sheet(fort=20))[0].result == "dying"  # 21 vs 10


def test_dying_save_naturals_off_makes_them_plain_numbers_whatever_save_naturals_says():
    off = Rulings(dying_save_naturals="off", save_naturals="standard")
    assert save(Condition(wounds=15, lethal="dying"), 20, rulings=off)[0].result == "dying"
    assert save(Condition(lethal="dying"), 1, rulings=off, sheet=Sheet(fort=20))[0].result == "stable"
    injury_off = Rulings(save_naturals="off")
    assert save(Condition(wounds=15, lethal="dying"), 20, rulings=injury_off)[0].result == "stable"


def test_dying_saves_recorded_before_the_ruling_took_the_injury_saves_naturals():
    state = {"rulings": {"save_naturals": "off"}}
    DyingSaveMade.upcast_v1_v2(state)
    assert state["rulings"]["dying_save_naturals"] == "off"
    untouched = {"rulings": {"save_naturals": "off", "dying_save_naturals": "standard"}}
    DyingSaveMade.upcast_v1_v2(untouched)
    assert untouched["rulings"]["dying_save_naturals"] == "standard"


# Weapons from the sheet -------------------------------------------------------------------------------

KIT = parse_sheet(
    {
        "bab": "3",
        "str": "14",
        "dex": "12",
        "weapons": "longsword:damage=5,types=slashing;javelin:damage=4,thrown,types=piercing",
    }
)


def test_a_named_weapon_is_the_sheets_weapon_of_that_name():
    [sword] = choose_weapons("Kara", KIT, ("Longsword",), multi_weapon=False)
    assert (sword.name, sword.damage, sword.types) == ("longsword", "5", ("slashing",))


def test_a_name_the_sheet_lacks_is_bad_input_naming_what_it_has():
    with pytest.raises(BadInput, match="longsword, javelin"):
        choose_weapons("Kara", KIT, ("axe",), multi_weapon=False)


def test_a_full_spec_stands_alone():
    [axe] = choose_weapons("Kara", KIT, ("axe:damage=6",), multi_weapon=False)
    assert axe.damage == "6"


def test_several_weapons_on_the_sheet_and_none_named_is_refused_naming_them():
    """None named: the sheet's only weapon; of several, the table names one (or declares a multi-weapon attack)."""
    with pytest.raises(BadInput, match=r"several weapons \(longsword, javelin\): name one with --weapon"):
        choose_weapons("Kara", KIT, (), multi_weapon=False)
    assert [w.name for w in choose_weapons("Kara", KIT, (), multi_weapon=True)] == ["longsword", "javelin"]
    only = KIT.model_copy(update={"weapons": KIT.weapons[:1]})
    assert [w.name for w in choose_weapons("Kara", only, (), multi_weapon=False)] == ["longsword"]


def test_two_weapons_named_need_a_declared_multi_weapon_attack():
    with pytest.raises(BadInput, match="--multi-weapon"):
        choose_weapons("Kara", KIT, ("longsword", "javelin"), multi_weapon=False)
    with pytest.raises(BadInput, match="two or more"):
        choose_weapons("Kara", KIT, ("longsword",), multi_weapon=True)
    with pytest.raises(BadInput, match="lists no weapons"):
        choose_weapons("Kara", Sheet(), (), multi_weapon=False)


def test_a_thrown_weapon_is_ranged_for_range_and_cover_and_still_adds_str():
    [javelin] = choose_weapons("Kara", KIT, ("javelin",), multi_weapon=False)
    assert javelin.ranged and javelin.thrown
    given = AttackInputs.by("Kara", KIT, (javelin,), range_penalty=-2, soft_cover=True)
    assert given.weapon_bonus(javelin) == 2  # BAB 3 + Dex 1 - 2 for range
    covered = attack(Sheet(defence=5), Condition(), given, Rulings(), Dice(1, table={"attack": [16]}))
    assert (covered.defence, covered.target_number, covered.total, covered.hit) == (9, 19, 18, False)
    open_ground = given.model_copy(update={"soft_cover": False})
    hit = attack(Sheet(defence=5), Condition(), open_ground, Rulings(), Dice(1, table={"attack": [16]}))
    assert hit.hit and hit.hits[0].damage == 6  # 4 + 2 (Str 14)


def test_sheets_recorded_with_weapon_specs_still_load():
    old = Sheet.model_validate({"weapons": ["rapier:attack=15,damage=3", "dagger:damage=2,light"]})
    assert [(w.name, w.attack, w.size) for w in old.weapons] == [
        ("rapier", 15, "one_handed"),
        ("dagger", None, "light"),
    ]
    assert parse_weapon(old.weapons[1].spec()) == old.weapons[1]


def test_weapon_names_on_a_sheet_are_distinct():
    with pytest.raises(BadInput, match="dagger"):
        parse_sheet({"weapons": "dagger:damage=2;Dagger:damage=3"})


# Several damage qualities -----------------------------------------------------------------------------


def test_several_types_each_may_overcome_dr():
    blow = InjuryInputs(damage=12, type="slashing,magic")
    assert (blow.type, blow.also) == ("slashing", ("magic",))
    bypassed = injure(Sheet(dr="5/magic"), Condition(), blow, Rulings(), Dice(1, table={"save": [10]}))
    assert (bypassed.reduction, bypassed.after_dr, bypassed.dc) == (0, 12, 17)
    reduced = injure(Sheet(dr="5/silver"), Condition(), blow, Rulings(), Dice(1, table={"save": [10]}))
    assert (reduced.reduction, reduced.after_dr, reduced.dc) == (5, 7, 16)
    with pytest.raises(BadInput):
        InjuryInputs(damage=3, type="slashing,plasma")
