"""Every Potestas event told in sentences: who did what to whom, the numbers that
decided, the result; and the sheet as a player reads it. Texts are checked by hand against the seed."""

import re

import pytest
from test_potestas_events import record

from chronicle.domain.potestas import (
    Attacked,
    AttackInputs,
    Condition,
    DyingSaveInputs,
    DyingSaveMade,
    Exerted,
    ExertionInputs,
    FallInputs,
    Fell,
    Injured,
    InjuryInputs,
    Rested,
    RestInputs,
    Rulings,
    Sheet,
    Weapon,
    explain,
    parse_sheet,
    sheet_lines,
)
from chronicle.domain.potestas.explain import dc_formula
from chronicle.domain.potestas.injury import InjuryOutcome

BRAND = Sheet(fort=4, dr="2")
RAPIER = Weapon(name="rapier", attack=15, damage="3", enhancement=3, threat=18, types=("piercing",))
DAGGER = Weapon(name="dagger", attack=13, damage="2", enhancement=1, size="light", threat=19, types=("piercing",))
REPR = re.compile(r"=True|=False|=None|\{'|\['|\(\'|Condition\(|Outcome\(|Inputs\(")


def clean(text: str) -> str:
    assert not REPR.search(text), text
    assert text.endswith("."), text
    return text


def test_an_injury_names_the_damage_dr_the_save_and_the_result():
    event = record(
        Injured, BRAND, Condition(wounds=1), InjuryInputs(damage=12, type="slashing,magic"), table={"save": [3]}
    )
    assert clean(explain(event, "Brand")) == (
        "Brand takes 12 lethal damage (magic, slashing). Damage reduction removes 2: 10 left. "
        "Fortitude save, DC 17 = 15 + 10/5: rolled 3 + 4 (Fortitude) - 1 (wounds) = 6, failed by 11. "
        "Brand takes a wound; failing by 10 or more makes it a disabling wound. Brand is now disabled."
    )


def test_a_saved_blow_has_little_effect():
    event = record(Injured, BRAND, Condition(), InjuryInputs(damage=9), table={"save": [15]})
    assert clean(explain(event, "Brand")).endswith(
        "rolled 15 + 4 (Fortitude) - 0 (wounds) = 19, made by 3. The wound has little effect: no wound. "
        "Brand is standing, neither disabled nor staggered."
    )


def test_damage_reduction_that_stops_everything_says_so():
    event = record(Injured, BRAND, Condition(), InjuryInputs(damage=2))
    assert clean(explain(event, "Brand")) == (
        "Brand takes 2 lethal damage. Damage reduction removes all of it and negates riders such as injury poison, "
        "stunning or disease: no save, no effect. Brand is standing, neither disabled nor staggered."
    )


def test_a_killing_wound_says_the_character_dies():
    event = record(Injured, BRAND, Condition(wounds=2, lethal="dying"), InjuryInputs(damage=7), table={"save": [2]})
    assert clean(explain(event, "Brand")).endswith(
        "failed by 12. Brand takes a wound; failing by 10 or more makes it a disabling wound. Brand dies."
    )


def test_naturals_and_the_coup_de_grace_are_named_with_their_rulings():
    natural = record(Injured, BRAND, Condition(), InjuryInputs(damage=40, type="fire"), table={"save": [20]})
    assert "A natural 20 succeeds (the ruling on save naturals)." in clean(explain(natural, "Brand"))
    coup = record(
        Injured, BRAND, Condition(), InjuryInputs(damage=7, coup_de_grace=True, hit=1), table={"save:1": [20]}
    )
    told = clean(explain(coup, "Brand"))
    assert told.startswith("Hit 1: Brand takes 7 lethal damage.")
    assert "A coup de grace makes the save one degree worse (the ruling on coup de grace saves)." in told


def test_a_nonlethal_wound_on_the_dying_is_ignored_in_words():
    event = record(
        Injured,
        BRAND,
        Condition(wounds=2, lethal="dying"),
        InjuryInputs(damage=12, nonlethal=True),
        table={"save": [3]},
    )
    assert clean(explain(event, "Brand")).endswith(
        "- 2 (wounds and nonlethal wounds) = 5, failed by 12. Being unconscious, Brand ignores a nonlethal wound. "
        "Brand is now dying."
    )


def test_an_injury_recorded_before_states_were_kept_still_reads_well():
    event = record(Injured, BRAND, Condition(), InjuryInputs(damage=12), table={"save": [3]})
    old = event.model_copy(
        update={"outcome": InjuryOutcome.model_validate({**event.outcome.model_dump(), "states": None})}
    )
    assert clean(explain(old, "Brand")).endswith(
        "Brand takes a wound; failing by 10 or more makes it a disabling wound."
    )


def test_a_dying_save_counts_its_rounds():
    dying = Condition(wounds=2, lethal="dying", rounds_unconscious=1)
    event = record(DyingSaveMade, BRAND, dying, DyingSaveInputs(rounds=2), table={"save": [12]})
    assert clean(explain(event, "Brand")) == (
        "Brand makes a dying save: rolled 12 + 4 (Fortitude) - 2 (wounds) = 14 against DC 13 "
        "(10 + 3 rounds unconscious so far, 2 of them declared with this save), made by 1. "
        "Brand is stable: unconscious, no longer dying."
    )


def test_a_dying_save_natural_20_and_a_death_by_margin():
    natural = record(
        DyingSaveMade, BRAND, Condition(wounds=15, lethal="dying"), DyingSaveInputs(), table={"save": [20]}
    )
    assert "A natural 20 succeeds all the same (the ruling on dying save naturals)." in clean(explain(natural, "Brand"))
    harsh = Rulings(dying_failure="die_by_margin")
    dead = record(
        DyingSaveMade, BRAND, Condition(wounds=8, lethal="dying"), DyingSaveInputs(), harsh, table={"save": [2]}
    )
    assert clean(explain(dead, "Brand")).endswith(
        "failed by 12. Brand dies (failing by 10 or more, the ruling on dying failure)."
    )


def test_exertion_quotes_what_was_done():
    event = record(Exerted, BRAND, Condition(wounds=1, lethal="disabled"), ExertionInputs(action="charged the ogre"))
    assert (
        clean(explain(event, "Brand"))
        == "Brand makes a strenuous effort: \u201ccharged the ogre\u201d. Brand is now dying."
    )


def test_a_rest_says_how_long_and_what_healed():
    event = record(Rested, BRAND, Condition(wounds=2, lethal="disabled"), RestInputs(hours=8, minutes=30))
    assert clean(explain(event, "Brand")) == (
        "Brand rests for 8 hours 30 minutes and heals 1 lethal step (a step heals a wound, or the state a wound "
        "left). Brand is standing, neither disabled nor staggered."
    )
    interrupted = record(Rested, BRAND, Condition(wounds=1), RestInputs(minutes=20, interrupted=True))
    assert (
        clean(explain(interrupted, "Brand"))
        == "Brand rests for 20 minutes, but the rest is interrupted: nothing heals."
    )


def test_a_fall_gives_the_impact_then_the_injury():
    event = record(Fell, BRAND, Condition(), FallInputs(feet=100), table={"save": [10]})
    assert clean(explain(event, "Brand")).startswith(
        "Brand falls: a fall of 100 ft strikes at 83.67 ft/s: 16 x 4 = 64 bludgeoning damage. "
        "Brand takes 64 lethal damage (bludgeoning). Damage reduction removes 2: 62 left. "
        "Fortitude save, DC 27 = 15 + 62/5, rounded down: rolled 10 + 4 (Fortitude) - 0 (wounds) = 14, failed by 13."
    )


def test_an_attack_names_attacker_and_target_the_roll_and_each_hit():
    given = AttackInputs(attacker="Ivanior", bab=15, strength=14, weapons=(RAPIER, DAGGER), multi_weapon_fighting=True)
    event = record(Attacked, Sheet(fort=2, defence=8), Condition(), given, table={"attack": [10]})
    assert clean(explain(event, "Guard")) == (
        "Ivanior attacks Guard with rapier (+15) and dagger (+13), multi-weapon -2: attack bonus +11 (the lowest). "
        "Rolled 10 + 11 = 21 against 18 (10 + defence 8): hits by 3. "
        "Hit 1: 5 (rapier + dagger) + 3 Str + 4 enhancement = 12 damage."
    )


def test_a_critical_a_miss_and_a_coup_de_grace_in_words():
    axe = Weapon(name="axe", damage="4", enhancement=1, multiplier=3)
    given = AttackInputs(attacker="Ivanior", bab=15, strength=14, weapons=(axe,))
    critical = record(Attacked, Sheet(), Condition(), given, table={"attack": [20], "confirm": [15]})
    assert (
        "The roll threatens a critical; the confirmation roll 15 + 18 confirms a critical (x3). "
        "Hit 1, critical: (4 (axe) + 2 Str + 1 enhancement) x 3 = 21 damage."
    ) in clean(explain(critical, "Guard"))
    missed = record(Attacked, Sheet(defence=30), Condition(), given, table={"attack": [2]})
    assert clean(explain(missed, "Guard")).endswith("Rolled 2 + 18 = 20 against 40 (10 + defence 30): misses by 20.")
    coup = AttackInputs(attacker="Ivanior", weapons=(axe,), coup_de_grace=True, target_helpless=True)
    told = clean(explain(record(Attacked, Sheet(), Condition(), coup), "Guard"))
    assert "As a coup de grace it hits automatically, a critical (x3)." in told
    assert told.endswith("Ivanior provokes an attack of opportunity.")


@pytest.mark.parametrize(
    "condition, expected",
    [
        (
            Condition(),
            ["Wounds: 0, no penalty on injury saves. Lethal track: [healthy] > wounded > disabled > dying > dead."],
        ),
        (
            Condition(wounds=2, lethal="stable", rounds_unconscious=3),
            [
                "Wounds: 2, -2 on every injury save. Lethal track: healthy > wounded > disabled > [stable] > dead.",
                "Stable: unconscious but no longer dying; another wound starts the dying again.",
                "Unconscious for 3 rounds so far.",
            ],
        ),
    ],
)
def test_the_sheet_shows_the_wound_ladder_and_its_penalties(condition, expected):
    lines = sheet_lines(
        parse_sheet({"fort": "4", "dr": "2", "weapons": "javelin:damage=1d6,thrown,types=piercing"}), condition
    )
    assert lines[:3] == [
        "Fortitude +4, damage reduction 2.",
        "Base attack +0, Str 10 (+0), Dex 10 (+0), size +0; defence 0 (hit on 10).",
        "Weapons: javelin: damage 1d6, critical x2, thrown, piercing.",
    ]
    assert [line for line in lines[3:] if not line.startswith("Nonlethal")] == expected
    assert all(clean(line) for line in lines)


def test_an_objects_sheet_shows_hardness_and_its_save():
    lines = sheet_lines(parse_sheet({"hardness": "5", "thickness": "2"}, kind="object"), Condition())
    assert lines[:2] == [
        "An object: hardness 5, 2 in thick; defence 0.",
        "Saves against injury at +6: base +0, + hardness, + 1 per inch beyond the first. Disabled means destroyed.",
    ]


def test_a_rest_that_wakes_a_character_says_its_steps_never_wounds_that_were_not_there():
    """One nonlethal wound knocked Brand out: 40 minutes heal it (Brand wakes, staggered), then the stagger."""
    event = record(Rested, BRAND, Condition(nonlethal_wounds=1, nonlethal="unconscious"), RestInputs(minutes=40))
    told = clean(explain(event, "Brand"))
    assert told == (
        "Brand rests for 40 minutes and heals 2 nonlethal steps (a step heals a wound, or the state a wound left). "
        "Brand is standing, neither disabled nor staggered."
    )
    assert "nonlethal wounds" not in told
    quiet = record(Rested, BRAND, Condition(), RestInputs(hours=8))
    assert clean(explain(quiet, "Brand")).startswith("Brand rests for 8 hours and heals nothing.")


def test_the_dc_is_written_as_people_write_the_arithmetic():
    assert dc_formula(12) == "DC 17 = 15 + 12/5, rounded down"
    assert dc_formula(10) == "DC 17 = 15 + 10/5"
