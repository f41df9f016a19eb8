"""Every PenDragon Pass event in sentences, each checked by hand; the sheet as
a player reads it. Nothing a person reads holds a Python repr or a True/False/None."""

import re

import pytest
from test_pendragon_support import T0, act, character

from chronicle.domain.pendragon import (
    EVENTS,
    Checked,
    ChirurgeryPerformed,
    ExperienceRolled,
    FeatAttempted,
    FirstAidGiven,
    GeasBroken,
    GeasTaken,
    IncreaseSpent,
    Injured,
    MagicallyHealed,
    OathBroken,
    OathFulfilled,
    OathSworn,
    Rested,
    Rulings,
    StatusAwarded,
    TacticResolved,
    WinterResolved,
    explain,
    sheet_lines,
)

VIRTUES = ["chaste", "energetic", "generous", "modest", "temperate"]
REPR = re.compile(r"[{}\[\]]|\b(True|False|None)\b|=\S|'\w+':|\w+\(")  # dicts, lists, flags, key=value, calls


def vasana():
    """SIZ 15, CON 13: 28 hit points; STR 14: Healing Rate 2; Sword 15, an initiate with Religion 10."""
    return character(
        siz=15,
        con=13,
        str=14,
        sword=15,
        stewardship=12,
        religion=10,
        initiate=1,
        valorous=17,
        honor=15,
        loyalty_clan=18,
        chaste=16,
        virtues=VIRTUES,
    )


def told(event):
    text = explain(event, "Vasana")
    assert not REPR.search(text.replace('"', "")), text
    assert text.endswith(".")
    return text


def test_a_check_names_both_sides_the_numbers_and_the_experience_check():
    event = act(
        vasana(),
        Checked,
        rolls={"check": [12], "opponent": [9]},
        what="sword",
        modifier=-3,
        opponent="Harrek:sword",
        opponent_value=14,
        award_check=True,
    )
    assert told(event) == (
        "Vasana rolled Sword 12 (15 - 3): 12 against 12, a critical; Harrek rolled 9 against 14, "
        "a success; Vasana wins. Vasana earns an experience check in Sword."
    )


def test_status_awards_give_the_reason_and_the_modifiers():
    hero = vasana()
    # 100 x (1 + 10% - 50%) = 60, the modifiers summed (ruling status_modifiers=additive)
    assert told(act(hero, StatusAwarded, foe="rune-master", head=True, missile=True)) == (
        "Vasana gains 60 Status for defeating a Rune Master (base 100; +10% for taking the enemy's head and -50% "
        "for using missiles, additive): Status is now 60."
    )
    assert told(act(hero, StatusAwarded, honour="rune-lord")).startswith(
        "Vasana gains 600 Status for the honour Rune Lord (base 600): Status is now 660."
    )
    assert told(act(hero, StatusAwarded, amount=-700, reason="fled the  field")) == (
        'Vasana loses 700 Status for "fled the field" (base -700): Status is now 0 (never below 0).'
    )


def test_an_increase_names_the_value_and_its_opposite():
    hero = vasana()
    act(hero, StatusAwarded, amount=1000, reason="slew the dragon")
    assert told(act(hero, IncreaseSpent, what="valorous")) == (
        "Vasana spends an increase earned by Status: Valorous rises from 17 to 18, and its opposite Cowardly "
        "falls by 1; 0 increases still pending."
    )


def test_oaths_quote_their_text_and_geasa_theirs():
    hero = vasana()
    assert told(act(hero, OathSworn, text="avenge my father")) == 'Vasana swears an oath (oath-1): "avenge my father".'
    assert told(act(hero, OathFulfilled, oath="oath-1", status=100)) == (
        "Vasana fulfils the oath oath-1 and gains 100 Status, set by the table: Status is now 100."
    )
    act(hero, OathSworn, text="guard the temple")
    assert told(act(hero, OathBroken, rolls={"honor_loss": [4]}, oath="oath-2", grave=True)) == (
        "Vasana breaks the oath oath-2: a grave failure: Honor falls by 4 (d6), from 15 to 11."
    )
    assert told(act(hero, GeasTaken, text="never eat goose", clan=True)) == (
        'Vasana takes a clan geas (geas-1): "never eat goose"; each winter it is kept gains 5 Status.'
    )
    assert told(act(hero, GeasBroken, rolls={"honor_loss": [3]}, geas="geas-1")) == (
        "Vasana breaks the geas geas-1: Honor falls by 3 (d6), from 11 to 8, "
        "and Status falls by 10 (a clan geas) to 90."
    )


def test_feats_and_tactics():
    hero = vasana()
    assert told(act(hero, FeatAttempted, rolls={"feat": [6]}, what="sword", description="leaps the shield wall")) == (
        'Vasana attempts a Feat of Sword, "leaps the shield wall": rolled 6, needing at most 7 (half of 15): '
        "done, counting as a critical."
    )
    assert told(
        act(
            hero,
            FeatAttempted,
            Rulings(feat_threshold="half_floor_exclusive"),
            rolls={"feat": [7]},
            what="sword",
            description="a leap",
        )
    ).endswith("needing under 7 (half of 15): a fumble: Vasana is knocked down.")
    # Sword 15 - 5 = 10, rolled 8: a success; Harrek's 14 rolled 16: a failure; the win adds a d6
    assert told(
        act(
            hero,
            TacticResolved,
            rolls={"check": [8], "opponent": [16], "great_blow": [4]},
            tactic="great-blow",
            skill="sword",
            opponent="Harrek:sword",
            opponent_value=14,
        )
    ) == (
        "Vasana uses the tactic great blow with Sword against Harrek (-5 to Vasana). Vasana rolled 8 against 10, "
        "a success and Harrek rolled 16 against 14, a failure. Vasana wins. 4 extra damage (d6)."
    )


def test_wounds_healing_chirurgery_rest_and_a_death():
    hero = vasana()
    assert told(act(hero, Injured, damage=13, attacker="Harrek", at=T0)) == (
        "Harrek wounds Vasana: wound #1, 13 points; a major wound, which needs Chirurgery. Vasana has 15 hit points."
    )
    assert told(
        act(hero, FirstAidGiven, rolls={"check": [8], "heal": [2]}, wound=1, skill=12, healer="Harrek", at=T0)
    ) == (
        "Harrek gives Vasana First Aid on wound #1: First Aid rolled 8 against 12, a success, "
        "healing 2 (d3). Vasana has 17 hit points."
    )
    assert told(act(hero, ChirurgeryPerformed, rolls={"check": [9]}, skill=14, healer="Harrek", at=T0)) == (
        "Harrek performs Chirurgery on Vasana: Chirurgery rolled 9 against 14, a success. No wound or "
        "unconsciousness needs Chirurgery any more, so natural healing proceeds. Vasana has 17 hit points."
    )
    assert told(act(hero, Rested, hours=14 * 24)) == (
        "Vasana takes 2 full weeks of rest at Healing Rate 2: heals 4 (wound #1 by 4). Vasana has 21 hit points."
    )
    # 21 - 14 = 7: at or below a quarter of 28
    assert told(act(hero, Injured, damage=14)) == (
        "Vasana is wounded: wound #2, 14 points; a major wound, which needs Chirurgery. Vasana has 7 hit points and is "
        "unconscious."
    )
    assert (
        told(act(hero, MagicallyHealed, wound=2, points=6))
        == "Magic heals 6 of Vasana's wound #2. Vasana has 13 hit points."
    )
    assert told(act(hero, Injured, damage=20)).endswith("a knockdown. Vasana has -7 hit points and dies.")


def test_a_winter_tells_economics_worship_status_training_and_experience():
    hero = vasana()
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
        training=[{"what": "sword"}],
        aging={"str": -1},
        family="a daughter is born",
    )
    # Stewardship 12 + 2 = 14, rolled 14: critical; Status: 25 + Chaste 16 + Loyalty (clan) 18 + Valorous 17 + 2
    assert told(event) == (
        "The winter of year 1621 for Vasana (the land rolled 5: good land, +2). Economics with Stewardship rolled "
        "14 against 14, a critical: 25 Status, 120 pennies of goods and a check. Worship with Religion rolled 6 "
        "against 10, a success: a POW check. Status gained: economics 25, Chaste 16, Loyalty (clan) 18, Valorous 17 "
        "and leadership 2, 78 in all; Status is now 78. Experience: POW rolled 11: it rises from 10 to 11, "
        "Stewardship rolled 20: it rises from 12 to 13 and Sword rolled 9, not over 15: no gain. A month's "
        "training (120 silvers): Sword is already at its cap of 15, so the month is spent without a roll. "
        "Aging: STR -1. "
        'Family: "a daughter is born". Vasana leads 250 people.'
    )
    poor = act(
        character(stewardship=12),
        WinterResolved,
        rolls={"productivity": [20]},
        year=1,
        land_roll=3,
        productivity="stewardship",
    )
    assert "a fumble: a disastrous winter: Impoverished for Stable and Family rolls." in told(poor)


def test_experience_rolls_a_month_after_the_adventure():
    hero = vasana()
    act(hero, Checked, rolls={"check": [7]}, what="stewardship", award_check=True)
    rulings = Rulings(experience_timing="month_after_adventure")
    assert told(act(hero, ExperienceRolled, rulings, rolls={"experience:stewardship": [13]})) == (
        "Vasana's experience rolls a month after the adventure: Stewardship rolled 13: it rises from 12 to 13."
    )


def test_every_event_type_has_its_own_sentence():
    from chronicle.domain.pendragon.explain import TELLERS

    assert set(TELLERS) == set(EVENTS)


def test_the_sheet_as_a_player_reads_it():
    hero = vasana()
    act(hero, StatusAwarded, honour="rune-lord")
    act(hero, OathSworn, text="avenge my father")
    act(hero, GeasTaken, text="never eat goose")
    act(hero, Injured, damage=13)
    act(hero, Checked, rolls={"check": [7]}, what="sword", award_check=True)
    lines = sheet_lines(hero.sheet, hero.condition)
    assert all(not REPR.search(line.replace('"', "")) for line in lines), lines
    assert lines[0] == "Hit points 15 of 28; needs Chirurgery and has a major wound."
    assert lines[1] == "Wounds: wound #1: 13 of its 13 points unhealed (major, needs Chirurgery)."
    assert "Chaste* 16 / Lustful 4" in lines[3] and "Valorous 17 / Cowardly 3" in lines[3]
    assert (
        "Status 600: 400 more earns the next increase (one every 1,000); 0 increases earned, 0 spent, 0 pending."
        in lines
    )
    assert "Honours: Rune Lord; an initiate." in lines
    assert 'Oaths: open: oath-1 "avenge my father".' in lines
    assert 'Geasa: geas-1 "never eat goose", kept.' in lines
    assert "Checks pending: Sword." in lines


@pytest.mark.parametrize("event_class", EVENTS)
def test_each_event_class_is_told(event_class):
    from chronicle.domain.pendragon.explain import TELLERS

    assert event_class in TELLERS
