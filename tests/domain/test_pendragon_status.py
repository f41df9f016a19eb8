"""Status awards, modifiers and increases (seed: Glory and Ambitions; docs/rulings.md `status_modifiers`)."""

import pytest
from pydantic import ValidationError
from test_pendragon_support import act, character

from chronicle.domain.errors import BadInput, NotFound, Refusal
from chronicle.domain.ids import event_id
from chronicle.domain.pendragon import FOES, HONOURS, IncreaseSpent, Rulings, StatusAwarded, view
from chronicle.domain.pendragon.status import modified

MULTIPLY = Rulings(status_modifiers="multiplicative")


def test_rulings_validate_from_strings_and_default_to_the_digest():
    assert (
        Rulings.model_validate({"status_modifiers": "multiplicative", "tactic_training": "false"}).tactic_training
        is False
    )
    assert Rulings().model_dump(mode="json") == {
        "fair_dice": "optional",
        "status_modifiers": "additive",
        "feat_threshold": "half_floor_inclusive",
        "break_shield_needs": "exceed",
        "unconscious_threshold": "quarter",
        "experience_timing": "winter",
        "pow_training": "shamans_only",
        "tactic_training": True,
        "spell_attack_modifier": "reflexive",
        "custom_worship": "shamans",
        "chirurgery_critical": "heals_rate",
        "chirurgery_interval_days": 7,
    }
    with pytest.raises(ValidationError):
        Rulings.model_validate({"status_modifiers": "sometimes"})


@pytest.mark.parametrize(
    "foe, status",
    [
        ("armoured-mounted-warrior", 35),
        ("notable-mounted-warrior", 50),
        ("rune-master", 100),
        ("shaman", 100),
        ("notable-rune-master", 250),
        ("famous-rune-master", 500),
        ("hero", 750),
        ("trollkin", 10),
        ("dwarf", 20),
        ("elf", 20),
        ("troll", 20),
        ("notable-dwarf", 50),
        ("notable-elf", 50),
        ("notable-troll", 50),
    ],
)
def test_each_foe_is_worth_its_table_value(foe, status):
    hero = character()
    assert act(hero, StatusAwarded, foe=foe).outcome.amount == status
    assert hero.condition.status == status


def test_the_foe_table_has_exactly_the_contract_keys():
    assert len(FOES) == 14


@pytest.mark.parametrize(
    "honour, status",
    [
        ("initiate", 50),
        ("acolyte", 200),
        ("priest", 500),
        ("high-priest", 500),
        ("rune-lord", 600),
        ("shaman", 250),
        ("thane", 200),
    ],
)
def test_each_one_time_honour_is_awarded_once(honour, status):
    hero = character()
    assert act(hero, StatusAwarded, honour=honour).outcome.amount == status
    with pytest.raises(Refusal, match="only once"):
        act(hero, StatusAwarded, honour=honour)
    assert hero.condition.status == status and hero.condition.honours == (honour,)


def test_the_honour_table_has_seven_titles():
    assert set(HONOURS) == {"initiate", "acolyte", "priest", "high-priest", "rune-lord", "shaman", "thane"}


def test_unknown_foes_and_honours_are_bad_input():
    with pytest.raises(BadInput):
        act(character(), StatusAwarded, foe="dragon")
    with pytest.raises(BadInput):
        act(character(), StatusAwarded, honour="king")


@pytest.mark.parametrize(
    "head, yoke, missile, additive, multiplicative",
    [
        (False, False, False, 100, 100),
        (True, False, False, 110, 110),
        (False, True, False, 150, 150),
        (False, False, True, 50, 50),
        (True, True, False, 160, 165),
        (True, False, True, 60, 55),
        (False, True, True, 100, 75),
        (True, True, True, 110, 82),  # 100 x 1.1 x 1.5 x 0.5 = 82.5, floored
    ],
)
def test_each_modifier_combination_on_a_rune_master(head, yoke, missile, additive, multiplicative):
    flags = {"head": head, "yoke": yoke, "missile": missile}
    assert act(character(), StatusAwarded, foe="rune-master", **flags).outcome.amount == additive
    assert act(character(), StatusAwarded, MULTIPLY, foe="rune-master", **flags).outcome.amount == multiplicative


def test_modified_awards_round_down():
    assert modified(35, [10], Rulings().status_modifiers) == 38  # 38.5
    assert modified(35, [-50], Rulings().status_modifiers) == 17  # 17.5


def test_an_explicit_amount_needs_a_reason():
    hero = character()
    assert act(hero, StatusAwarded, amount=40, reason="fed the clan through the drought").outcome.total == 40
    with pytest.raises(ValidationError):
        act(hero, StatusAwarded, amount=40)


def test_exactly_one_source_of_status():
    with pytest.raises(ValidationError):
        act(character(), StatusAwarded, foe="troll", honour="thane")


def test_leadership_is_one_per_hundred_people_at_most_one_hundred():
    assert act(character(), StatusAwarded, leadership_people=250).outcome.amount == 2
    assert act(character(), StatusAwarded, leadership_people=99).outcome.amount == 0
    assert act(character(), StatusAwarded, leadership_people=50_000).outcome.amount == 100


def test_a_flashy_magic_item_is_worth_one_to_ten():
    assert act(character(), StatusAwarded, magic_item=7).outcome.amount == 7
    with pytest.raises(ValidationError):
        act(character(), StatusAwarded, magic_item=11)


def test_head_yoke_and_missile_only_modify_defeated_foes():
    with pytest.raises(BadInput):
        act(character(), StatusAwarded, honour="thane", head=True)


def test_every_full_thousand_status_earns_one_increase():
    hero = character()
    act(hero, StatusAwarded, amount=999, reason="a long career")
    assert view(hero.sheet, hero.condition)["status"]["increases_earned"] == 0
    act(hero, StatusAwarded, foe="trollkin")
    assert view(hero.sheet, hero.condition)["status"] == {
        "total": 1009,
        "increases_earned": 1,
        "increases_spent": 0,
        "increases_pending": 1,
    }
    act(hero, StatusAwarded, amount=1000, reason="saga")
    assert hero.condition.increases_earned == 2


def test_spending_an_increase_raises_any_value_even_past_limits():
    hero = character(sword=21)
    act(hero, StatusAwarded, amount=1000, reason="saga")
    event = act(hero, IncreaseSpent, what="sword")
    assert (event.outcome.from_value, event.outcome.to_value, event.outcome.pending_after) == (21, 22, 0)
    shown = view(hero.sheet, hero.condition)
    assert shown["status"] == {"total": 1000, "increases_earned": 1, "increases_spent": 1, "increases_pending": 0}
    assert shown["increases"] == [
        {"what": "sword", "by": 1, "cause": "status", "event": event_id(event.originator_id, event.originator_version)}
    ]


@pytest.mark.parametrize("what, category", [("str", "statistic"), ("honor", "passion"), ("loyalty_clan", "passion")])
def test_an_increase_can_raise_statistics_and_passions(what, category):
    hero = character(str=14, honor=15, loyalty_clan=16)
    act(hero, StatusAwarded, amount=1000, reason="saga")
    before = hero.sheet.value(what)
    assert act(hero, IncreaseSpent, what=what).outcome.category == category
    assert hero.sheet.value(what) == before + 1


def test_raising_a_trait_by_increase_lowers_its_opposite():
    hero = character(valorous=17)
    act(hero, StatusAwarded, amount=1000, reason="saga")
    assert act(hero, IncreaseSpent, what="valorous").outcome.opposite == "cowardly"
    assert (hero.sheet.value("valorous"), hero.sheet.value("cowardly")) == (18, 2)


def test_no_pending_increase_is_refused_and_an_unknown_name_is_bad_input():
    hero = character(sword=15)
    with pytest.raises(Refusal, match="no increase pending"):
        act(hero, IncreaseSpent, what="sword")
    act(hero, StatusAwarded, amount=1000, reason="saga")
    with pytest.raises(NotFound):
        act(hero, IncreaseSpent, what="axe")
