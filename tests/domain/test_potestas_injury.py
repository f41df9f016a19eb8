"""Potestas injury: DR, hardness, the Fortitude save and its degrees (docs/rulings.md, Potestas, Injury and Objects)."""

import pytest

from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.potestas import Condition, InjuryInputs, Rulings, Sheet, fortitude_dc, injure


def hurt(damage, save_roll=10, sheet=Sheet(), condition=Condition(), rulings=Rulings(), **inputs):
    dice = Dice(7, table={"save": [save_roll]})
    return injure(sheet, condition, InjuryInputs(damage=damage, **inputs), rulings, dice)


def test_dc_is_15_plus_damage_over_5():
    assert [fortitude_dc(d) for d in (1, 4, 5, 9, 10, 12, 168)] == [15, 15, 16, 16, 17, 17, 48]


def test_dr_is_subtracted_before_the_dc():
    out = hurt(12, sheet=Sheet(dr="5"))
    assert (out.reduction, out.after_dr, out.dc) == (5, 7, 16)


def test_dr_is_overcome_by_its_type():
    out = hurt(12, sheet=Sheet(dr="5/silver"), type="piercing", also=("silver",))
    assert (out.reduction, out.after_dr) == (0, 12)


def test_dash_dr_applies_to_every_weapon():
    out = hurt(12, sheet=Sheet(dr="5/-"), type="slashing", also=("silver", "magic"))
    assert out.after_dr == 7


@pytest.mark.parametrize("kind", ["fire", "cold", "acid", "electricity", "sonic", "spell"])
def test_energy_and_spells_ignore_dr(kind):
    assert hurt(6, sheet=Sheet(dr="10"), type=kind).after_dr == 6


def test_dr_that_removes_all_damage_negates_riders_and_rolls_no_save():
    dice = Dice(7)
    out = injure(Sheet(dr="10"), Condition(), InjuryInputs(damage=7), Rulings(), dice)
    assert (out.outcome, out.after_dr, out.riders_negated, out.dc, out.save) == ("no_damage", 0, True, None, None)
    assert dice.record().rolls == ()


def test_energy_dealt_along_with_an_attack_is_not_removed_by_dr():
    out = hurt(8, sheet=Sheet(dr="10"), energy=3)
    assert (out.reduction, out.after_dr, out.riders_negated) == (5, 3, False)


def test_save_is_d20_plus_fort_minus_lethal_wounds():
    out = hurt(12, save_roll=10, sheet=Sheet(fort=5), condition=Condition(wounds=2, nonlethal_wounds=3))
    assert (out.save.roll, out.save.bonus, out.save.penalty, out.save.total, out.save.margin) == (10, 5, 2, 13, -4)
    assert out.outcome == "wound"


def test_nonlethal_wounds_penalise_only_saves_against_nonlethal_damage():
    out = hurt(12, save_roll=10, sheet=Sheet(fort=5), condition=Condition(wounds=2, nonlethal_wounds=3), nonlethal=True)
    assert (out.save.penalty, out.save.total, out.outcome) == (5, 10, "nonlethal_wound")


def test_meeting_the_dc_is_no_effect():
    out = hurt(12, save_roll=12, sheet=Sheet(fort=5))
    assert (out.save.margin, out.save.success, out.outcome, out.degree) == (0, True, "no_effect", 0)


def test_failing_by_less_than_the_disable_margin_is_a_plain_wound():
    out = hurt(12, save_roll=3, sheet=Sheet(fort=5))  # 8 vs 17: failed by 9
    assert (out.save.margin, out.outcome, out.degree) == (-9, "wound", 1)


def test_failing_by_the_disable_margin_disables():
    out = hurt(12, save_roll=2, sheet=Sheet(fort=5))  # 7 vs 17: failed by 10
    assert (out.save.margin, out.outcome, out.degree) == (-10, "wound", 2)


def test_disable_margin_is_a_ruling():
    out = hurt(12, save_roll=4, sheet=Sheet(fort=5), rulings=Rulings(disable_margin=8))  # failed by 8
    assert out.degree == 2


def test_drop_margin_is_off_by_default():
    assert hurt(60, save_roll=2).degree == 2  # 2 vs 27: failed by 25, still only disabled


def test_drop_margin_when_on_drops_straight_to_dying():
    assert hurt(60, save_roll=2, rulings=Rulings(drop_margin="20")).degree == 3


def test_natural_20_always_saves():
    out = hurt(100, save_roll=20)  # 20 vs DC 35
    assert (out.save.margin, out.outcome) == (-15, "no_effect")


def test_natural_1_counts_as_failing_by_the_disable_margin():
    out = hurt(1, save_roll=1, sheet=Sheet(fort=20))  # 21 vs 15 would succeed
    assert (out.outcome, out.degree) == ("wound", 2)


def test_save_naturals_off_makes_them_plain_numbers():
    rulings = Rulings(save_naturals="off")
    assert hurt(1, save_roll=1, sheet=Sheet(fort=20), rulings=rulings).outcome == "no_effect"
    assert hurt(100, save_roll=20, rulings=rulings).degree == 2


def test_coup_de_grace_save_success_counts_as_a_failure():
    out = hurt(12, save_roll=19, sheet=Sheet(fort=5), coup_de_grace=True)
    assert (out.save.margin, out.save.success, out.outcome, out.degree) == (7, False, "wound", 1)


def test_coup_de_grace_save_failure_counts_as_failing_by_the_disable_margin():
    assert hurt(12, save_roll=10, sheet=Sheet(fort=5), coup_de_grace=True).degree == 2


def test_coup_de_grace_save_standard_ruling_is_a_normal_save():
    out = hurt(
        12, save_roll=19, sheet=Sheet(fort=5), coup_de_grace=True, rulings=Rulings(coup_de_grace_save="standard")
    )
    assert out.outcome == "no_effect"


def test_injuring_a_dead_character_is_refused_unless_forced():
    dead = Condition(wounds=3, lethal="dead")
    with pytest.raises(Refusal):
        hurt(12, condition=dead)
    assert hurt(12, save_roll=1, condition=dead, force=True).outcome == "wound"


def test_unknown_damage_type_is_bad_input():
    with pytest.raises(BadInput, match="unknown damage type 'plasma'"):
        InjuryInputs(damage=5, type="plasma")


def test_negative_damage_is_bad_input():
    with pytest.raises(BadInput):
        InjuryInputs(damage=-1)


@pytest.mark.parametrize("roll", [0, 21])
def test_a_save_roll_off_the_die_is_bad_input(roll):
    with pytest.raises(BadInput):
        hurt(12, save_roll=roll)


def test_each_hit_of_an_attack_names_its_own_save_purpose():
    dice = Dice(7, table={"save:2": [15]})
    injure(Sheet(), Condition(), InjuryInputs(damage=5, hit=2), Rulings(), dice)
    assert [(r.purpose, r.faces, r.source) for r in dice.record().rolls] == [("save:2", (15,), "table")]


def test_hardness_works_against_all_damage_energy_included():
    door = Sheet(kind="object", hardness=5)
    assert hurt(12, sheet=door, type="fire").after_dr == 7


def test_object_save_adds_hardness_and_an_inch_beyond_the_first():
    wall = Sheet(kind="object", hardness=8, thickness=3)
    out = hurt(20, save_roll=10, sheet=wall)  # 10 + 0 + 8 + 2 vs DC 17
    assert (out.save.bonus, out.save.total, out.dc) == (10, 20, 17)


def test_magic_object_uses_its_given_base_save():
    assert hurt(20, sheet=Sheet(kind="object", fort=4, hardness=10)).save.bonus == 14


def test_attended_object_uses_its_holders_fortitude_if_better():
    assert hurt(20, sheet=Sheet(kind="object", fort=1, hardness=10, holder_fort=6)).save.bonus == 16
    assert hurt(20, sheet=Sheet(kind="object", fort=1, hardness=10, holder_fort=0)).save.bonus == 11


def test_object_wounds_penalise_later_saves():
    out = hurt(20, save_roll=10, sheet=Sheet(kind="object", hardness=5), condition=Condition(wounds=2))
    assert out.save.total == 13


def test_objects_take_no_nonlethal_damage():
    with pytest.raises(BadInput):
        hurt(20, sheet=Sheet(kind="object", hardness=5), nonlethal=True)
