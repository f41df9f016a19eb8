"""Every AD&D 2E event told in sentences, checked against hand-worked numbers,
and the sheet as a 2E player reads it. No Python repr, no key=value, no True/False/None."""

import re
import uuid
from datetime import UTC, datetime

import pytest

from chronicle.domain.adnd2e import (
    Attacked,
    AttackInputs,
    BreakHoldInputs,
    Condition,
    Grabbed,
    GrabInputs,
    HoldContested,
    Injured,
    InjureInputs,
    Mugged,
    MugInputs,
    Rested,
    RestInputs,
    Rulings,
    StateChanged,
    StateInputs,
    Strength,
    explain,
    parse_sheet,
    sheet_lines,
)
from chronicle.domain.dice import Dice

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
GUARD = parse_sheet({"hp": "12", "level": "1", "str": "16", "height": "70"})
OGRE = parse_sheet({"hp": "26", "hd": "4", "size": "large", "height": "108"}, kind="monster")
LEAKS = re.compile(r"=True|=False|=None|\{'|\['|[a-z_]+=")


def told(event_class, inputs, sheet=GUARD, condition=Condition(), table=None, rulings=Rulings(), name="Guard"):
    dice = Dice(7, table=table)
    outcome = event_class.derive(sheet, condition, inputs, rulings, dice)
    event = event_class(
        originator_id=uuid.uuid4(),
        originator_version=2,
        timestamp=NOW,
        by="gm",
        inputs=inputs,
        outcome=outcome,
        rulings=rulings.model_dump(mode="json"),
        dice=dice.record(),
    )
    text = explain(event, name)
    assert not LEAKS.search(text), text
    assert text.endswith(".")
    return text


def test_an_armed_non_lethal_blow_names_its_striker_and_splits_the_damage():
    text = told(Injured, InjureInputs(damage=13, mode="armed-nonlethal", attacker="Brand"))
    assert text == "Brand deals Guard 13 armed non-lethal damage, halved to 6: 3 real and 3 temporary."


def test_a_sap_tells_the_knockout_chance_the_roll_and_the_rounds():
    text = told(Injured, InjureInputs(damage=7, mode="sap"), table={"knockout": [20], "knockout_rounds": [2, 3]})
    assert text == (
        "Guard takes 7 sap damage: 1 real (a quarter) and 6 temporary. The knockout chance is 35% "
        "(5% a point of damage, at most 40%); the d100 rolled 20: "
        "Guard is knocked out for 5 rounds."
    )


def test_a_sap_ignoring_a_magic_bonus_and_a_lethal_blow_that_kills():
    sapped = told(Injured, InjureInputs(damage=6, mode="sap", magic_bonus=2), table={"knockout": [90]})
    assert (
        "4 sap damage (6 less the weapon's +2 magic bonus, which a sap does not count): 1 real (a quarter) and 3 "
        "temporary"
    ) in sapped
    assert "Guard is not knocked out" in sapped
    assert told(Injured, InjureInputs(damage=12, mode="lethal")).endswith("12 real and 0 temporary. Guard dies.")


def test_a_rest_heals_and_says_what_remains():
    hurt = Condition(real_damage=6, temporary_damage=6, unconscious=True)  # 12 of 12: out cold
    assert told(Rested, RestInputs(minutes=20), condition=hurt) == (
        "Guard rests for 20 minutes and heals 2 temporary hit points."
    )
    assert told(Rested, RestInputs(hours=1, interrupted=True), condition=hurt) == (
        "Guard rests for 1 hour, but is interrupted and heals nothing. Guard is still unconscious."
    )


def test_an_attack_names_attacker_and_target_with_the_sum_that_decided():
    text = told(
        Attacked,
        AttackInputs(attacker="Thief", maneuver="sap", weapon="club", weapon_kind="blunt"),
        table={"attack": [19]},
    )
    assert text == (
        "Thief tries to sap Guard with the club: the d20 rolled 19 - 8 = 11 against 10 "
        "(THAC0 20 - AC 10): a hit. The roll's -8: -4 for the called shot and -4 more for a sap. "
        "The called shot, announced before initiative, adds 1 to Thief's initiative."
    )


def test_the_armed_defenders_first_strike_comes_first_in_the_story():
    knight = parse_sheet({"hp": "40", "ac": "3", "thac0": "17"})
    punch = AttackInputs(attacker="Thief", maneuver="punch", defender_armed=True, defender_strikes=True, attacker_ac=6)
    text = told(Attacked, punch, sheet=knight, table={"defence": [9], "attack": [12]}, name="Knight")
    assert text == (
        "Knight, armed, strikes first at the bare-handed Thief: the d20 rolled 9 + 4 = 13 against 11: a hit, "
        "and its damage gets +4. Thief punches Knight bare-handed: the d20 rolled 12 against 17 "
        "(THAC0 20 - AC 3): a miss."
    )


def test_a_mugging_names_mugger_victim_and_weapon():
    mugging = MugInputs(
        save_number=12,
        mugger="Thief",
        mugger_level=9,
        mugger_height=60,
        mugger_classes=("thief",),
        weapon="club",
        weapon_kind="blunt",
    )
    text = told(Mugged, mugging, sheet=OGRE, table={"save": [16], "knockout_rounds": [3, 8]}, name="Ogre")
    assert text == (
        "Thief mugs Ogre with the club. Ogre saves vs petrification needing 17 (base 12, changed by the "
        "level difference); the d20 rolled 16: Ogre is knocked out for 11 rounds."
    )


def test_a_save_above_20_tells_the_ruling():
    mugging = MugInputs(save_number=14, mugger="Thief", mugger_level=12)
    lucky = told(Mugged, mugging, table={"save": [20]})
    assert "needing 25" in lucky and "a natural 20, which still saves (the ruling on saves above 20)" in lucky
    assert lucky.endswith("Guard stays conscious.")
    hopeless = told(Mugged, mugging, rulings=Rulings(save_above_20="impossible"), table={"knockout_rounds": [1, 1]})
    assert "above 20 no roll can make it" in hopeless and hopeless.endswith("knocked out for 2 rounds.")


def test_grabs_and_holds_name_both_sides_and_every_exchange():
    grab = GrabInputs(target="object", grabber="Thief", grabber_strength=Strength(score=16))
    assert told(Grabbed, grab, table={"grab_round": [6, 6, 9, 3]}) == (
        "Thief grabs at the object Guard holds: Strength 16 against 16, the d20s rolled 6 against 6, then 9 against 3 "
        "(1 tie re-rolled): Guard keeps it."
    )
    person = GrabInputs(target="person", grabber="Brute", grabber_strength=Strength.parse("18/76"))
    assert told(Grabbed, person, table={"grab_round": [1, 1]}) == (
        "Brute grabs Guard one-handed: Strength 18 against 16, the d20s rolled 1 against 1: Brute holds Guard."
    )
    held = Condition(held_by="Brute", hold_strength="18")
    freeing = told(HoldContested, BreakHoldInputs(holder="Brute"), condition=held, table={"hold_round": [3, 9]})
    assert freeing == (
        "Guard tries to break Brute's hold: Strength 16 against 18, the d20s rolled 3 against 9: Guard breaks free."
    )


@pytest.mark.parametrize(
    ("state", "active", "holder", "sentence"),
    [
        ("asleep", True, None, "Guard falls asleep."),
        ("asleep", False, None, "Guard wakes up."),
        ("magically_held", True, None, "Guard is magically held."),
        ("held", True, "Jailer", "Guard is held by Jailer."),
        ("held", False, None, "Guard is released from the hold."),
    ],
)
def test_state_changes(state, active, holder, sentence):
    assert told(StateChanged, StateInputs(state=state, active=active, holder=holder)) == sentence


def test_the_sheet_shows_hit_points_with_real_and_temporary_damage_then_the_rest():
    thief = parse_sheet(
        {
            "hp": "30",
            "level": "9",
            "class": "thief",
            "str": "18/76",
            "ac": "6",
            "height": "60",
            "weapons": "club:blunt,damage=1d6;sling:blunt,missile,small",
        }
    )
    lines = sheet_lines(thief, Condition(real_damage=2, temporary_damage=5, knocked_out_rounds=3, held_by="Brute"))
    assert lines == [
        "Hit points: 23 of 30 (2 real and 5 temporary damage).",
        "Now: unconscious, knocked out for 3 rounds, held by Brute.",
        "Level 9 thief; human, medium, 60 in tall.",
        "Strength 18/76, AC 6.",
        "Weapons: club (blunt, medium, 1d6); sling (blunt missile, small).",
    ]
    assert sheet_lines(OGRE, Condition())[:2] == [
        "Hit points: 26 of 26 (0 real and 0 temporary damage).",
        "4 hit dice; monster, large, 108 in tall.",
    ]
