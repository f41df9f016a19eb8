"""AD&D 2E cases read closely, each worked by hand from the seed (003) and docs/rulings.md, AD&D 2E: where the
engine used to depart from the text, and the rulings (uncontrolled_nonlethal, save_above_20,
partial_hit_dice) that settle what the text leaves open."""

from datetime import UTC, datetime
from uuid import uuid4

import pytest

from chronicle.domain.adnd2e import (
    AttackInputs,
    BreakHoldInputs,
    Condition,
    GrabInputs,
    InjureInputs,
    MugInputs,
    Rulings,
    Strength,
    attack,
    break_hold,
    grab,
    injure,
    monster_strength,
    mug,
    one_handed,
    parse_sheet,
)
from chronicle.domain.adnd2e.events import Grabbed
from chronicle.domain.adnd2e.mugging import check_not_oneself, mugging_weapon
from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput, Refusal

GUARD = parse_sheet({"hp": "12", "level": "1", "ac": "10", "str": "16", "height": "70"})
OGRE = parse_sheet({"hp": "30", "hd": "4+4", "size": "large", "height": "108"}, kind="monster")
CLUB = {"weapon": "club", "weapon_kind": "blunt"}


def sheet(**stats):
    return parse_sheet({key: str(value) for key, value in stats.items()})


# --- monster Strength has no cap ------------------------------------------------------------------------


def test_a_3_30_2_20_2_20_monster_grabs_at_32_not_25():
    assert monster_strength("3-30/2-20/2-20") == 30 + 2  # the largest maximum, +1 for each further attack
    assert sheet(hp=90, str=32).strength == Strength(score=32)
    # Brute (17, medium) grabs the big monster: 17 - 6 (larger) = 11. He rolls 1 (margin 10), it rolls 20:
    # at 32 its margin is 12 and it keeps free; at a capped 25 it would have been 5.
    titan = parse_sheet({"hp": "90", "hd": "12", "size": "huge"}, kind="monster")
    inputs = GrabInputs(target="monster", grabber_strength=Strength(score=17), target_strength=Strength(score=32))
    outcome = grab(titan, Condition(), inputs, Rulings(), Dice(1, table={"grab_round": [1, 20]}))
    assert (outcome.first_strength, outcome.second_strength, outcome.won) == ("11", "32", False)


@pytest.mark.parametrize(("attacks", "strength"), [("1d8+1", 9), ("2-8+2", 10), ("1d8+1/1d8+1/1d6", 11), ("d6", 6)])
def test_a_maximum_may_carry_a_bonus(attacks, strength):
    assert monster_strength(attacks) == strength


@pytest.mark.parametrize("attacks", ["8-2", "0", "2d0", "0d6", "1d8-8", "1-99999999"])
def test_monster_strength_refuses_what_is_no_damage(attacks):
    with pytest.raises(BadInput):
        monster_strength(attacks)


# --- mugging: a thief, a blunt instrument, never a missile, never oneself --------------------------------


def mugging(classes=("thief",), save_roll=16, **weapon):
    inputs = MugInputs(save_number=12, mugger_level=9, mugger_height=60, mugger_classes=classes, **(weapon or CLUB))
    return mug(OGRE, Condition(), inputs, Rulings(), Dice(1, table={"save": [save_roll], "knockout_rounds": [3, 8]}))


def test_a_thief_with_a_club_mugs_the_ogre_of_the_seed_and_a_fighter_thief_may_too():
    assert mugging().model_dump() == {"save_number": 17, "save_roll": 16, "saved": False, "knockout_rounds": 11}
    assert mugging(classes=("fighter", "thief")).saved is False


@pytest.mark.parametrize(
    ("classes", "weapon", "reason"),
    [
        (("fighter",), CLUB, "only a thief"),
        ((), CLUB, "says no class"),
        (("thief",), {"weapon": "short sword", "weapon_kind": "edged"}, "the short sword is edged"),
        (("thief",), {"weapon": "sling", "weapon_kind": "blunt", "missile": True}, "never a missile"),
        (("thief",), {"weapon": None}, "blunt instrument"),
    ],
)
def test_mugging_is_refused_to_anyone_but_a_thief_with_a_blunt_melee_weapon(classes, weapon, reason):
    with pytest.raises(Refusal, match=reason):
        mugging(classes=classes, **weapon)


def test_a_mugging_recorded_before_sheets_had_classes_still_derives():
    old = MugInputs(save_number=12, mugger_level=9, mugger_height=60)  # no class, no weapon: not checked again
    assert mug(OGRE, Condition(), old, Rulings(), Dice(1, table={"save": [17]})).saved is True


def test_nobody_mugs_itself_and_the_only_blunt_weapon_is_the_default():
    with pytest.raises(Refusal, match="cannot mug itself"):
        check_not_oneself("Rook", "rook")
    rook = sheet(hp=8, weapons="cosh:blunt,small;dagger:piercing,small;sling:blunt,missile")
    cosh = mugging_weapon(rook, None, "Rook")
    assert cosh is not None and cosh.name == "cosh"
    with pytest.raises(BadInput, match="several blunt weapons"):
        mugging_weapon(sheet(hp=8, weapons="cosh:blunt;club:blunt"), None, "Rook")


def test_an_attack_roll_for_a_mugging_checks_the_mugger_too():
    fighter = AttackInputs(maneuver="mug", attacker_classes=("fighter",), attacker_height=60, **CLUB)
    with pytest.raises(Refusal, match="only a thief"):
        attack(GUARD, Condition(), fighter, Rulings(), Dice(1))


# --- sap and armed non-lethal attacks: the weapon decides ---------------------------------------------------


def test_a_sap_with_any_missile_weapon_is_refused():
    dart = AttackInputs(maneuver="sap", weapon="dart", weapon_kind="piercing", missile=True)
    with pytest.raises(Refusal, match="never a missile"):
        attack(GUARD, Condition(), dart, Rulings(), Dice(1))


@pytest.mark.parametrize(
    ("weapon", "kind", "allowed"),
    [
        ("long sword", "edged", True),
        ("battle axe", "edged", True),
        ("club", "blunt", False),
        ("spear", "piercing", False),
    ],
)
def test_armed_nonlethal_needs_a_blade_that_can_be_turned(weapon, kind, allowed):
    inputs = AttackInputs(maneuver="armed-nonlethal", weapon=weapon, weapon_kind=kind)
    if allowed:
        assert attack(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"attack": [14]})).modifiers.to_hit == -4
    else:
        with pytest.raises(Refusal, match="cannot be controlled"):
            attack(GUARD, Condition(), inputs, Rulings(), Dice(1))
        lenient = Rulings(uncontrolled_nonlethal=True)  # the table lets a club pull its blows
        assert attack(GUARD, Condition(), inputs, lenient, Dice(1, table={"attack": [14]})).modifiers.to_hit == -4


def test_no_ruling_lets_a_missile_pull_its_blows():
    bow = AttackInputs(maneuver="subdual", weapon="short bow", weapon_kind="piercing", missile=True)
    with pytest.raises(Refusal, match="missile"):
        attack(GUARD, Condition(), bow, Rulings(uncontrolled_nonlethal=True), Dice(1))


# --- weapons in defence: the armed defender strikes first, at +4 ------------------------------------------


def test_the_armed_defender_strikes_first_at_plus_4_then_the_punch_is_rolled():
    knight = sheet(hp=40, ac=3, thac0=17)
    punch = AttackInputs(maneuver="punch", defender_armed=True, defender_strikes=True, attacker_ac=6, attacker_thac0=19)
    dice = Dice(1, table={"defence": [9], "attack": [12]})
    outcome = attack(knight, Condition(), punch, Rulings(), dice)
    # Knight: 9 + 4 = 13 against THAC0 17 - AC 6 = 11: a hit, and +4 to its damage.
    strike = outcome.defender_strike
    assert strike is not None
    assert (strike.roll, strike.to_hit, strike.needed, strike.hit, strike.damage_bonus) == (9, 4, 11, True, 4)
    # Then the punch: 12 against 19 - 3 = 16, a miss.
    assert (outcome.roll, outcome.needed, outcome.hit) == (12, 16, False)
    assert [roll.purpose for roll in dice.record().rolls] == ["defence", "attack"]


def test_an_attack_recorded_before_the_strike_was_applied_rolls_no_strike():
    old = AttackInputs(maneuver="punch", defender_armed=True)
    outcome = attack(GUARD, Condition(), old, Rulings(), Dice(1, table={"attack": [12]}))
    assert outcome.defender_strike is None and outcome.modifiers.defender_to_hit == 4


# --- grabs and holds -------------------------------------------------------------------------------------


def test_one_handed_strength_3_counts_as_0():
    assert one_handed(Strength(score=3)) == Strength(score=0)
    # Weakling (3, so 0 one-handed) rolls 1: margin -1; the guard's 16 rolls 18: margin -2. Weakling holds him.
    inputs = GrabInputs(target="person", grabber_strength=Strength(score=3))
    outcome = grab(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"grab_round": [1, 18]}))
    assert (outcome.first_strength, outcome.won) == ("0", True)


def test_a_tie_the_table_rolled_is_re_rolled_by_the_table_never_by_the_ledger():
    inputs = GrabInputs(grabber_strength=Strength(score=16))
    with pytest.raises(BadInput, match=r"tied at 6 vs 6.*--dice 6,6,A,B"):
        grab(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"grab_round": [6, 6]}))
    outcome = grab(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"grab_round": [6, 6, 9, 3]}))
    assert outcome.rolls == ((6, 6), (9, 3))


def test_a_monster_breaks_a_hold_with_its_rough_strength_against_the_holders_grab_strength():
    nightmare = parse_sheet({"hp": "40", "hd": "6", "size": "large"}, kind="monster")
    grabbing = GrabInputs(
        target="monster", grabber="Brute", grabber_strength=Strength(score=18), target_strength=Strength(score=20)
    )
    # Brute: 18 - 6 (larger) = 12, rolls 1 (margin 11); the nightmare's 20 rolls 20 (margin 0): held.
    won = grab(nightmare, Condition(), grabbing, Rulings(), Dice(1, table={"grab_round": [1, 20]}))
    event = Grabbed.model_construct(
        originator_id=uuid4(), originator_version=2, timestamp=datetime.now(UTC), by="gm", inputs=grabbing, outcome=won
    )
    _, held = event.evolve(nightmare, Condition())
    assert (held.held_by, held.hold_strength) == ("Brute", "12")
    # Breaking free: the nightmare's 20 (from its attacks) rolls 5 (15) against the holder's 12 rolling 4 (8).
    freeing = BreakHoldInputs(held_strength=Strength(score=20))
    outcome = break_hold(nightmare, held, freeing, Rulings(), Dice(1, table={"hold_round": [5, 4]}))
    assert (outcome.first_strength, outcome.second_strength, outcome.won) == ("20", "12", True)
    with pytest.raises(BadInput, match="no str"):  # without --strength or --attacks nothing says how strong it is
        break_hold(nightmare, held, BreakHoldInputs(), Rulings(), Dice(1, table={"hold_round": [5, 4]}))


# --- the dead, hit dice, saves above 20 ----------------------------------------------------------------------


def test_the_dead_cannot_be_knocked_out():
    dead = Condition(real_damage=12, dead=True)
    dice = Dice(1)
    sapped = injure(GUARD, dead, InjureInputs(damage=8, mode="sap"), Rulings(), dice)
    assert (sapped.knocked_out, sapped.knockout_chance, dice.record().rolls) == (False, None, ())
    # A sap that kills (16 damage: 4 real on a 4 hp victim) rolls no knockout either.
    frail = sheet(hp=4)
    killing = injure(frail, Condition(), InjureInputs(damage=16, mode="sap"), Rulings(), Dice(1))
    assert (killing.dead, killing.knocked_out, killing.knockout_roll) == (True, False, None)
    with pytest.raises(Refusal, match="dead"):
        mug(GUARD, dead, MugInputs(save_number=12, mugger_level=9, mugger_classes=("thief",), **CLUB), Rulings(), dice)


@pytest.mark.parametrize(("ruling", "needed"), [("floor", 17), ("up", 16)])
def test_hit_dice_with_a_plus_count_by_the_ruling(ruling, needed):
    # t9 against a 4+4 HD ogre, base 12: 12 + 9 - 4 = 17 (floor) or 12 + 9 - 5 = 16 (up).
    inputs = MugInputs(save_number=12, mugger_level=9, mugger_height=60)
    outcome = mug(OGRE, Condition(), inputs, Rulings(partial_hit_dice=ruling), Dice(1, table={"save": [17]}))
    assert outcome.save_number == needed


def test_half_a_hit_die_counts_0_or_1():
    kobold = parse_sheet({"hp": "3", "hd": "½", "height": "40"}, kind="monster")
    assert (kobold.hd, kobold.rank, kobold.ranked(round_up=True)) == ("1/2", 0, 1)
    inputs = MugInputs(save_number=14, mugger_level=1)
    assert mug(kobold, Condition(), inputs, Rulings(), Dice(1, table={"save": [15]})).save_number == 15  # 14 + 1 - 0


def test_a_save_needed_above_20_is_made_only_on_a_natural_20_by_default():
    # t12 against a 1 HD guard, base 14: 14 + 12 - 1 = 25.
    inputs = MugInputs(save_number=14, mugger_level=12)
    lucky = mug(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"save": [20]}))
    assert (lucky.save_number, lucky.saved) == (25, True)
    unlucky = mug(GUARD, Condition(), inputs, Rulings(), Dice(1, table={"save": [19], "knockout_rounds": [2, 2]}))
    assert (unlucky.saved, unlucky.knockout_rounds) == (False, 4)


def test_under_save_above_20_impossible_no_save_is_rolled():
    dice = Dice(1, table={"knockout_rounds": [5, 1]})
    outcome = mug(
        GUARD, Condition(), MugInputs(save_number=14, mugger_level=12), Rulings(save_above_20="impossible"), dice
    )
    assert outcome.model_dump() == {"save_number": 25, "save_roll": None, "saved": False, "knockout_rounds": 6}
    assert [roll.purpose for roll in dice.record().rolls] == ["knockout_rounds"]
