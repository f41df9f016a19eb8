"""Unarmed strikes are light weapons, and the `enhancement_to_hit` ruling (seed 000, Unarmed
Fighting; docs/rulings.md, Potestas, Attack). The numbers are worked by hand in each test."""

from datetime import UTC, datetime
from uuid import uuid4

import pytest

from chronicle.domain.dice import Dice
from chronicle.domain.errors import BadInput
from chronicle.domain.potestas import (
    Attacked,
    AttackInputs,
    Condition,
    Rulings,
    Sheet,
    Weapon,
    attack,
    parse_sheet,
    parse_weapon,
)

FIST = parse_weapon("fist:unarmed,damage=1d3")
KICK = parse_weapon("kick:unarmed,damage=1d4")
TARGET = Sheet(defence=5)  # hit on 15


def strike(roll, *weapons, rulings=Rulings(), damage=(), **inputs):
    table = {"attack": [roll]} | {f"damage:1:{n}": [face] for n, face in enumerate(damage, 1)}
    given = AttackInputs(weapons=weapons, **inputs)
    return attack(TARGET, Condition(), given, rulings, Dice(5, table=table))


def test_an_unarmed_strike_is_a_light_weapon_as_parsed_and_on_a_sheet():
    assert (FIST.size, KICK.size) == ("light", "light")
    assert Weapon(name="head", unarmed=True).size == "light"
    brawler = parse_sheet({"weapons": "fist:unarmed,damage=1d3;club:damage=1d6"})
    assert [w.size for w in brawler.weapons] == ["light", "one_handed"]
    # a sheet recorded before the rule held its fist as one-handed: read now, it is light
    recorded = Sheet.model_validate({"weapons": [{"name": "fist", "unarmed": True, "size": "one_handed"}]})
    assert recorded.weapons[0].size == "light"


def test_an_unarmed_strike_is_never_two_handed():
    with pytest.raises(BadInput, match="light"):
        parse_weapon("headbutt:unarmed,two_handed,damage=1")


def test_a_multi_weapon_attack_with_unarmed_strikes_takes_4_not_6():
    # BAB 6, Str 14 (+2), Dex 12 (+1): an unarmed strike may use Str, 6 + 2 = +8 each; two light
    # weapons: multi-weapon -4 (not -6), so +4. Rolled 11: 11 + 4 = 15 against 10 + 5: a hit by 0
    # (at -6 it would be 13, a miss). Damage: fist 2 + kick 3 + Str (+2, and +1 per full +2 with
    # more than one weapon) 3 = 8, nonlethal as unarmed strikes usually are.
    out = strike(11, FIST, KICK, damage=(2, 3), bab=6, strength=14, dex=12)
    assert out.modifiers == {"multi_weapon": -4}
    assert (out.attack_bonus, out.total, out.target_number, out.hit) == (4, 15, 15, True)
    assert [(h.damage, h.nonlethal) for h in out.hits] == [(8, True)]
    # with the feat Multi-Weapon Fighting the light weapons' -4 becomes -2: 8 - 2 = +6
    assert strike(11, FIST, KICK, damage=(2, 3), bab=6, strength=14, multi_weapon_fighting=True).attack_bonus == 6


def test_a_fist_beside_a_one_handed_sword_takes_4_too():
    sword = parse_weapon("sword:damage=1d8")
    assert strike(11, sword, FIST, damage=(5, 1), bab=6).modifiers["multi_weapon"] == -4  # was -6: both one-handed


def test_an_attack_recorded_with_one_handed_fists_re_derives_as_it_was_decided():
    """Events recorded before the rule copied the fists in as one-handed: -6 is what they recorded."""
    fist = {"name": "fist", "damage": "1d3", "unarmed": True, "size": "one_handed"}
    kick = {"name": "kick", "damage": "1d4", "unarmed": True, "size": "one_handed"}
    inputs = AttackInputs.model_validate({"weapons": [fist, kick], "bab": 6, "strength": 14, "dex": 12})
    dice = Dice(5, table={"attack": [11]})
    out = attack(TARGET, Condition(), inputs, Rulings(), dice)
    # 8 - 6 = +2; 11 + 2 = 13 against 15: the miss it was
    assert (out.modifiers, out.total, out.hit) == ({"multi_weapon": -6}, 13, False)
    event = Attacked(
        originator_id=uuid4(),
        originator_version=2,
        timestamp=datetime(2024, 1, 1, tzinfo=UTC),
        by="gm",
        inputs=inputs,
        outcome=out,
        rulings={},
        dice=dice.record(),
    )
    stored = Attacked.model_validate(event.model_dump(mode="json"))
    again = Attacked.derive(TARGET, Condition(), stored.inputs, stored.ruled, Dice.replay(stored.dice))
    assert again == out


def test_enhancement_to_hit_is_a_ruling_the_table_may_turn_off():
    assert Rulings().enhancement_to_hit is True  # docs/rulings.md, Potestas: standard 3E, as the seed's Ivanior example
    assert Rulings.model_validate({"enhancement_to_hit": "false"}).enhancement_to_hit is False
    assert "enhancement_to_hit" in Rulings().model_dump(mode="json")  # recorded on every attack


def test_without_enhancement_to_hit_a_magic_weapon_adds_its_enhancement_to_damage_only():
    # BAB 4, Str 16 (+3), a +2 longsword: 4 + 3 + 2 = +9 by default, 4 + 3 = +7 without.
    # Rolled 9: 18 against 15 hits by 3; without: 16, by 1. Damage either way: 5 + 3 Str + 2 enhancement = 10.
    longsword = parse_weapon("longsword:damage=1d8,enhancement=2")
    ruled = strike(9, longsword, damage=(5,), bab=4, strength=16)
    off = strike(9, longsword, damage=(5,), bab=4, strength=16, rulings=Rulings(enhancement_to_hit=False))
    assert (ruled.attack_bonus, ruled.total) == (9, 18)
    assert (off.attack_bonus, off.total) == (7, 16)
    assert [h.damage for h in ruled.hits] == [h.damage for h in off.hits] == [10]


def test_without_enhancement_to_hit_a_given_attack_bonus_loses_its_enhancement():
    """Ivanior's +3 rapier (usually +15) and +1 dagger (usually +13) count their enhancement, as the seed
    says; without it they are +12 each, and with the feat's -2 the attack is +10, not +11."""
    rapier = Weapon(name="rapier", attack=15, damage="3", enhancement=3, threat=18)
    dagger = Weapon(name="dagger", attack=13, damage="2", enhancement=1, size="light", threat=19)
    guard = Sheet(fort=2, defence=8)  # hit on 18
    off = Rulings(enhancement_to_hit=False)
    given = AttackInputs(weapons=(rapier, dagger), strength=14, multi_weapon_fighting=True)
    assert [given.weapon_bonus(w, off) for w in (rapier, dagger)] == [12, 12]
    assert [given.weapon_bonus(w) for w in (rapier, dagger)] == [15, 13]
    missed = attack(guard, Condition(), given, off, Dice(3, table={"attack": [7]}))
    assert (missed.attack_bonus, missed.total, missed.hit) == (10, 17, False)  # by default 7 + 11 = 18 hits
    hit = attack(guard, Condition(), given, off, Dice(3, table={"attack": [8]}))
    assert [h.damage for h in hit.hits] == [12]  # 3 + 2 + 3 Str + 3 + 1 enhancement: damage keeps it


def test_an_attack_recorded_before_the_ruling_existed_re_derives_with_enhancement_to_hit():
    longsword = parse_weapon("longsword:damage=1d8,enhancement=2")
    inputs = AttackInputs(weapons=(longsword,), bab=4, strength=16)
    recorded = {k: v for k, v in Rulings().model_dump(mode="json").items() if k != "enhancement_to_hit"}
    dice = Dice(5, table={"attack": [6], "damage:1:1": [5]})
    out = attack(TARGET, Condition(), inputs, Rulings.model_validate(recorded), dice)
    assert (out.total, out.hit) == (15, True)  # 6 + 9: at +7 it would have missed
    event = Attacked(
        originator_id=uuid4(),
        originator_version=2,
        timestamp=datetime(2024, 1, 1, tzinfo=UTC),
        by="gm",
        inputs=inputs,
        outcome=out,
        rulings=recorded,
        dice=dice.record(),
    )
    assert Attacked.derive(TARGET, Condition(), inputs, event.ruled, Dice.replay(event.dice)) == out
