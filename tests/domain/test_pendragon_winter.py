"""The Winter Phase for one character (docs/rulings.md, PenDragon Pass, Winter Phase; seed: The Winter Phase)."""

import pytest
from test_pendragon_support import act, character

from chronicle.domain.errors import BadInput, Refusal
from chronicle.domain.pendragon import (
    LAND,
    Checked,
    Condition,
    GeasTaken,
    Rulings,
    WinterResolved,
    land_modifier,
    parse_sheet,
    view,
)
from chronicle.domain.pendragon.winter import WinterInputs, status_sources

VIRTUES = ["chaste", "energetic", "generous", "modest", "temperate"]


def devout(**stats):
    """An initiate: Valorous 17, the five virtues at 16, Honor 16, Loyalty (clan) 18, Hate (trolls) 12."""
    base = dict(
        initiate=1,
        valorous=17,
        honor=16,
        loyalty_clan=18,
        hate_trolls=12,
        stewardship=12,
        religion=10,
        sword=15,
        pow=10,
        **{v: 16 for v in VIRTUES},
    )
    return character(virtues=VIRTUES, **(base | stats))


@pytest.mark.parametrize("roll, modifier", [(1, -5), (2, -2), (3, 0), (4, 0), (5, 2), (6, 5)])
def test_the_land_roll(roll, modifier):
    assert land_modifier(roll) == modifier == LAND[roll]


def test_a_winter_whose_status_is_checked_by_hand():
    hero = devout()
    act(hero, GeasTaken, text="never eat goose")
    act(hero, Checked, rolls={"check": [7]}, what="sword", award_check=True)
    event = act(
        hero,
        WinterResolved,
        rolls={
            "productivity": [14],
            "worship": [6],
            "experience:pow": [11],
            "experience:stewardship": [20],
            "experience:sword": [9],
        },
        year=1621,
        land_roll=5,
        productivity="stewardship",
        worship="religion",
        leadership_people=250,
    )
    out = event.outcome
    # economics: Stewardship 12 + 2 (good land) = 14, a roll of 14 is critical: 25 Status and 120 pennies
    assert (out.economics.roll.result, out.economics.status, out.economics.pennies) == ("critical", 25, 120)
    # traits 16+: five virtues at 16 and Valorous 17 = 97; passions: Honor 16 + Loyalty 18 = 34;
    # all five virtues 16+: 100; one geas kept: 5; 250 people led: 2
    assert {s.source: s.amount for s in out.sources} == {
        "economics": 25,
        "chaste": 16,
        "energetic": 16,
        "generous": 16,
        "modest": 16,
        "temperate": 16,
        "valorous": 17,
        "honor": 16,
        "loyalty_clan": 18,
        "religious_virtues": 100,
        "geas_upkeep": 5,
        "leadership": 2,
    }
    assert out.status == 25 + 97 + 34 + 100 + 5 + 2 == 263
    assert hero.condition.status == 263
    # checks: the worship success gives POW, economics gives Stewardship, Sword was earned in play
    shown = out.model_dump(mode="json")
    assert shown["checks"] == ["pow", "stewardship", "sword"]
    assert shown["experience"] == [
        {"what": "pow", "roll": 11, "from": 10, "to": 11},
        {"what": "stewardship", "roll": 20, "from": 12, "to": 13},
        {"what": "sword", "roll": 9, "from": 15, "to": 15},
    ]
    assert (hero.sheet.pow, hero.sheet.value("stewardship"), hero.condition.checks) == (11, 13, ())
    assert [(i["what"], i["cause"]) for i in view(hero.sheet, hero.condition)["increases"]] == [
        ("pow", "experience"),
        ("stewardship", "experience"),
    ]


@pytest.mark.parametrize("roll, standard, status", [(3, "ordinary", 10), (15, "poor", 0), (20, "impoverished", 0)])
def test_economics_success_failure_and_fumble(roll, standard, status):
    hero = devout()
    out = act(
        hero,
        WinterResolved,
        rolls={"productivity": [roll]} | ({"experience:stewardship": [1]} if status else {}),
        year=1621,
        land_roll=3,
        productivity="stewardship",
    ).outcome
    assert (out.economics.standard, out.economics.status, out.economics.pennies) == (
        standard,
        status,
        60 if status else 0,
    )
    assert ("stewardship" in out.checks) is bool(status)


def test_terrible_land_lowers_the_productivity_roll():
    out = act(
        devout(), WinterResolved, rolls={"productivity": [9]}, year=1621, land_roll=1, productivity="stewardship"
    ).outcome
    assert out.economics.roll.value == 7 and out.economics.roll.result == "failure"


def test_worship_failure_gives_no_pow_check():
    out = act(devout(), WinterResolved, rolls={"worship": [15]}, year=1621, land_roll=3, worship="religion").outcome
    assert out.checks == ()


def test_virtues_below_sixteen_give_no_religious_bonus():
    sheet = parse_sheet({"chaste": "15", "valorous": "16"}, virtues=VIRTUES)
    sources = status_sources(sheet, Condition(), WinterInputs(year=1, land_roll=3))
    assert [(s.source, s.amount) for s in sources] == [("valorous", 16)]


def test_experience_raises_a_trait_and_lowers_its_opposite():
    hero = devout()
    act(hero, Checked, rolls={"check": [3]}, what="valorous", award_check=True)
    act(hero, WinterResolved, rolls={"experience:valorous": [18]}, year=1621, land_roll=3)
    assert (hero.sheet.value("valorous"), hero.sheet.value("cowardly")) == (18, 2)


def test_a_second_winter_for_the_same_year_is_refused():
    hero = devout()
    act(hero, WinterResolved, year=1621, land_roll=3)
    with pytest.raises(Refusal, match="1621"):
        act(hero, WinterResolved, year=1621, land_roll=3)
    act(hero, WinterResolved, year=1622, land_roll=3)
    assert hero.condition.winters == (1621, 1622)


def test_training_is_an_experience_roll_and_costs_120_silvers():
    hero = devout(sword=12)
    out = act(
        hero,
        WinterResolved,
        rolls={"training:sword": [17, 19]},
        year=1621,
        land_roll=3,
        training=[{"what": "sword"}, {"what": "sword"}],
    ).outcome
    assert [(t.gain.from_, t.gain.to, t.silvers) for t in out.training] == [(12, 13, 120), (13, 14, 120)]
    assert hero.sheet.value("sword") == 14 and hero.condition.increases[-1].cause == "training"


def test_training_stops_at_15_for_a_physical_skill_and_the_remaining_months_are_spent():
    # Sword is a physical skill (skills.py): 14 -> 15 with a 17 in the first month; the second month is
    # spent at the cap without a roll, and the winter is not refused
    hero = devout(sword=14)
    out = act(
        hero,
        WinterResolved,
        rolls={"training:sword": [17]},
        year=1621,
        land_roll=3,
        training=[{"what": "sword"}, {"what": "sword"}],
    ).outcome
    assert [(t.gain and (t.gain.from_, t.gain.to), t.capped, t.silvers) for t in out.training] == [
        ((14, 15), None, 120),
        (None, 15, 120),
    ]
    assert hero.sheet.value("sword") == 15


def test_the_cap_comes_from_the_skill_not_from_the_request():
    # Stewardship is not physical: at 15 it still trains (a 16 raises it), and only 20 stops it
    out = act(
        devout(stewardship=15),
        WinterResolved,
        rolls={"training:stewardship": [16]},
        year=1621,
        land_roll=3,
        training=[{"what": "stewardship"}],
    ).outcome
    assert (out.training[0].gain.to, out.training[0].capped) == (16, None)
    out = act(
        devout(stewardship=20), WinterResolved, year=1621, land_roll=3, training=[{"what": "stewardship"}]
    ).outcome
    assert (out.training[0].gain, out.training[0].capped) == (None, 20)


def test_training_cannot_raise_traits_passions_or_statistics_other_than_pow():
    for what in ("valorous", "honor", "str"):
        with pytest.raises(Refusal):
            act(devout(), WinterResolved, year=1621, land_roll=3, training=[{"what": what}])


def test_pow_training_follows_the_ruling():
    with pytest.raises(Refusal, match="training pow: only a shaman"):
        act(devout(), WinterResolved, year=1621, land_roll=3, training=[{"what": "pow"}])
    out = act(
        devout(shaman=1),
        WinterResolved,
        rolls={"training:pow": [12]},
        year=1621,
        land_roll=3,
        training=[{"what": "pow"}],
    ).outcome
    assert out.training[0].gain.to == 11
    act(
        devout(),
        WinterResolved,
        Rulings(pow_training="anyone"),
        rolls={"training:pow": [2]},
        year=1621,
        land_roll=3,
        training=[{"what": "pow"}],
    )


def test_spells_are_learned_automatically_and_tactics_follow_the_ruling():
    hero = devout()
    act(
        hero,
        WinterResolved,
        year=1621,
        land_roll=3,
        training=[{"kind": "spell", "what": "bladesharp"}, {"kind": "tactic", "what": "formation"}],
    )
    assert hero.condition.learned == ("spell:bladesharp", "tactic:formation")
    with pytest.raises(Refusal, match="tactic_training"):
        act(
            devout(),
            WinterResolved,
            Rulings(tactic_training=False),
            year=1621,
            land_roll=3,
            training=[{"kind": "tactic", "what": "formation"}],
        )


def test_aging_lowers_statistics_as_recorded():
    hero = devout(str=14)
    act(hero, WinterResolved, year=1621, land_roll=3, aging={"str": -1}, family="a daughter is born")
    assert hero.sheet.value("str") == 13
    with pytest.raises(BadInput):
        act(devout(), WinterResolved, year=1621, land_roll=3, aging={"sword": -1})
