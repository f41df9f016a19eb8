"""A spell cast with an attack, "at a reflexive 5/+5 modifier" (seed: Actions Permitted in Melee;
docs/rulings.md `spell_attack_modifier`): the caster's attack -5, the opponent's opposed roll +5."""

from test_pendragon_support import act, character

from chronicle.domain.dice import Dice
from chronicle.domain.pendragon import Rulings, TacticResolved, explain

SPELL_ATTACK = {"tactic": "spell-with-attack", "skill": "sword", "opponent_value": 12, "spell_skill": "sorcery"}
ROLLS = {"check": [9], "opponent": [15], "spell": [13]}
EARLIER = Rulings(spell_attack_modifier="both_minus_5")


def cast(rulings=None):
    hero = character(sword=15, sorcery=14)  # Suboti
    return act(hero, TacticResolved, rulings, rolls=ROLLS, opponent="Gorp", **SPELL_ATTACK)


def test_the_reflexive_modifier_is_minus_5_to_the_caster_and_plus_5_to_the_opponent():
    # Sword 15 - 5 = 10: a 9 succeeds; the opponent's 12 + 5 = 17: a 15 succeeds and, higher, wins (Suboti's 9
    # is a partial success); the spell is cast at Sorcery 14, unmodified: a 13 succeeds
    out = cast().outcome
    assert Rulings().spell_attack_modifier == "reflexive"
    assert [(r.value, r.roll, r.result) for r in out.rolls.values()] == [
        (10, 9, "partial_success"),
        (17, 15, "success"),
        (14, 13, "success"),
    ]
    assert (out.modifier, out.winner, out.effects) == (-5, "opponent", {"opponent_bonus": 5, "spell_cast": True})


def test_the_earlier_reading_is_minus_5_to_the_attack_and_the_spell():
    # Sword 10: the 9 succeeds; the opponent at 12 fails with 15, so Suboti wins; Sorcery 14 - 5 = 9: the 13 fails
    out = cast(EARLIER).outcome
    assert [(r.value, r.roll, r.result) for r in out.rolls.values()] == [
        (10, 9, "success"),
        (12, 15, "failure"),
        (9, 13, "failure"),
    ]
    assert (out.modifier, out.winner, out.effects) == (-5, "self", {"spell_cast": False})


def test_the_sentence_says_who_has_which_modifier():
    told = explain(cast(), "Suboti")
    assert told.startswith(
        "Suboti uses the tactic spell with attack with Sword against Gorp (-5 to Suboti, +5 to Gorp)."
    )
    assert "opponent bonus" not in told and told.endswith("Gorp wins. The spell is cast.")
    assert "+5 to" not in explain(cast(EARLIER), "Suboti")


def test_a_spell_attack_recorded_before_the_ruling_re_derives_under_the_earlier_reading():
    hero = character(sword=15, sorcery=14)
    before = (hero.sheet, hero.condition)
    recorded = act(hero, TacticResolved, EARLIER, rolls=ROLLS, **SPELL_ATTACK)
    state = recorded.model_dump(mode="json")
    del state["rulings"]["spell_attack_modifier"]  # version 1 recorded no such ruling
    TacticResolved.upcast_v1_v2(state)
    old = TacticResolved.model_validate(state)
    assert old.rulings["spell_attack_modifier"] == "both_minus_5"
    again = TacticResolved.derive(*before, old.inputs, Rulings.model_validate(old.rulings), Dice.replay(old.dice))
    assert again == recorded.outcome


def test_other_tactics_recorded_before_carry_no_spell_ruling():
    state = {"inputs": {"tactic": "great-blow", "skill": "sword", "opponent_value": 12}, "rulings": {}}
    TacticResolved.upcast_v1_v2(state)
    assert state["rulings"] == {}
