"""Free text made of digits is text, the 64-bit limit belongs to what
is read as a number; a sheet that lacks a value is named, with the nearest value it has."""

import pickle

import pytest

from chronicle.domain.errors import BadInput, NotFound, NotOnSheet
from chronicle.domain.pendragon import parse_sheet as pendragon_sheet
from chronicle.domain.potestas import Condition as PotestasCondition
from chronicle.domain.potestas import parse_sheet as potestas_sheet
from chronicle.domain.text import check_arguments

# 2**64 = 18,446,744,073,709,551,616 and 2**63 = 9,223,372,036,854,775,808: one past the largest 64-bit number
TWO_TO_64 = "18446744073709551616"
TWO_TO_63 = "9223372036854775808"


@pytest.mark.parametrize("text", [TWO_TO_64, "#" + TWO_TO_64, "-" + TWO_TO_63, "hp=" + "9" * 30, "9" * 5000])
def test_digits_typed_as_arguments_are_text_until_something_reads_them_as_a_number(text):
    check_arguments(["note", text])  # no refusal: `note 18446744073709551616` is a note


def test_arguments_are_still_refused_for_what_no_text_can_hold():
    with pytest.raises(BadInput, match="NUL"):
        check_arguments(["note", "a\x00b"])
    with pytest.raises(BadInput, match="not valid UTF-8"):
        check_arguments(["note", "a\udcff"])


@pytest.mark.parametrize("dr", [TWO_TO_63 + "/silver", TWO_TO_64 + "/adamantine", "-" + TWO_TO_64 + "/magic"])
def test_a_damage_reduction_with_a_kind_is_held_to_64_bits_as_the_plain_number(dr):
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr})
    with pytest.raises(BadInput, match="damage reduction is beyond the 64-bit limit"):
        potestas_sheet({"dr": dr.partition("/")[0]})


def test_a_damage_reduction_one_below_the_limit_keeps_its_kind():
    reduction = potestas_sheet({"dr": "9223372036854775806/silver"}).reduction
    assert (reduction.amount, reduction.bypass) == (2**63 - 2, "silver")


# a sheet that lacks a value: the rules say "this sheet", the ledger whose (NotOnSheet.of)

BRUNO = {"siz": "15", "con": "13", "sword": "15", "loyalty_clan": "16", "first_aid": "11"}


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("swrd", "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"),  # a letter dropped
        ("frist_aid", "Bruno's sheet has no skill 'frist_aid': did you mean 'first_aid'?"),  # two swapped
        ("valorus", "Bruno's sheet has no trait 'valorus': did you mean 'valorous'?"),  # the kind of what was meant
        ("loyalty_clna", "Bruno's sheet has no passion 'loyalty_clna': did you mean 'loyalty_clan'?"),
        ("sizz", "Bruno's sheet has no statistic 'sizz': did you mean 'siz'?"),
        ("chirurgery", "Bruno's sheet has no skill 'chirurgery'"),  # known to the system, not on this sheet
        ("hate_trolls", "Bruno's sheet has no passion 'hate_trolls'"),
    ],
)
def test_a_value_the_sheet_lacks_names_whose_sheet_what_kind_and_the_nearest_it_has(asked, said):
    sheet = pendragon_sheet(BRUNO)
    with pytest.raises(NotOnSheet) as lacking:
        sheet.value(asked)
    assert isinstance(lacking.value, NotFound)  # bad input (exit 2), as every unknown name
    assert str(lacking.value.of("Bruno")) == said


def test_a_name_ending_in_s_is_possessed_as_the_log_writes_it():
    with pytest.raises(NotOnSheet) as lacking:
        pendragon_sheet(BRUNO).value("swrod")
    assert str(lacking.value.of("Harrekus")) == "Harrekus' sheet has no skill 'swrod': did you mean 'sword'?"


def test_a_lacking_value_survives_a_trip_to_a_worker_process_and_back():
    with pytest.raises(NotOnSheet) as lacking:
        pendragon_sheet(BRUNO).value("swrd")
    again = pickle.loads(pickle.dumps(lacking.value))
    assert str(again) == str(lacking.value)
    assert str(again.of("Bruno")) == "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"


# a correction to a miss after the hits' own dice were corrected (amend on the command line refused it,
# naming dice the correction never gave): the rules take the hits away and leave those dice undrawn


def _orc_attacked():
    """Kara (Str 10, a 2d6 longsword) attacks Orc (Fortitude +1, defence 0): a roll of 15 against 10 hits;
    6 + 6 = 12 damage, DC 15 + 12 // 5 = 17; the save 5 + 1 = 6 fails by 11, disabling at the margin of 10."""
    from datetime import UTC, datetime
    from uuid import uuid4

    from chronicle.domain import systems
    from chronicle.domain.character import Character, CharacterRegistered
    from chronicle.domain.dice import Dice
    from chronicle.domain.potestas import Attacked, Injured
    from chronicle.domain.potestas.weapon import parse_weapon
    from chronicle.domain.potestas.weapons import AttackInputs

    rules, now = systems.get("potestas"), datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    orc = Character.start(
        CharacterRegistered,
        uuid4(),
        campaign_id=uuid4(),
        name="Orc",
        system="potestas",
        kind="character",
        sheet=potestas_sheet({"fort": "1"}).model_dump(mode="json"),
        by="gm",
        timestamp=now,
    )
    rulings = rules.Rulings()

    def record(action, inputs, table, **fields):
        dice = Dice(7, table=table)
        outcome = action.derive(orc.sheet, orc.condition, inputs, rulings, dice)
        return orc.record(
            action,
            inputs=inputs,
            outcome=outcome,
            rulings=rulings.model_dump(mode="json"),
            dice=dice.record(),
            by="gm",
            timestamp=now,
            **fields,
        )

    given = AttackInputs(attacker="Kara", weapons=(parse_weapon("longsword:damage=2d6,types=slashing"),))
    attack = record(Attacked, given, {"attack": [15], "damage": [6, 6]})
    (blow,) = attack.outcome.hits
    record(Injured, blow, {blow.save_purpose: [5]}, attack=attack.originator_version)
    return rules, orc, attack, now


def test_a_miss_corrected_after_its_hits_dice_were_corrected_takes_the_hits_away_leaving_their_dice_unused():
    from chronicle.domain.amendments import Amended
    from chronicle.domain.refold import FOLLOWING, directives, refold

    rules, orc, attack, now = _orc_attacked()
    assert (orc.condition.wounds, orc.condition.states) == (1, ["disabled"])
    events = list(orc.collect_events())

    def correction(version, table):
        return Amended(
            originator_id=orc.id,
            originator_version=version,
            timestamp=now,
            by="gm",
            target="attack",
            target_version=attack.originator_version,
            reason="misread",
            table=table,
            derivation=FOLLOWING,
        )

    # first the hit's dice: 1 + 1 = 2 damage, DC 15; the save 14 + 1 = 15 succeeds: no wound
    events.append(correction(4, {"damage:1:1": [1, 1], "save:1": [14]}))
    _, replayed = refold(rules, events, corrections=directives(events))
    outcome = replayed[-1].outcome
    assert outcome is not None and outcome["dc"] == 15 and outcome["outcome"] == "no_effect"
    # then the attack's own die: 2 + 0 misses 10, so the hit no longer counts; its dice are drawn by nothing
    events.append(correction(5, {"attack": [2]}))
    character, replayed = refold(rules, events, corrections=directives(events))
    attacked, hit = replayed[-2:]
    assert attacked.outcome is not None and attacked.outcome["hit"] is False and hit.counts is False
    assert attacked.unused == {"damage:1:1": [1, 1], "save:1": [14]}
    condition = character.condition
    assert isinstance(condition, PotestasCondition)
    assert (condition.wounds, condition.states) == (0, [])


# a correction told in log positions (`#47`) where the log is known, never by an aggregate version


def _correction(**fields):
    from datetime import UTC, datetime
    from uuid import uuid4

    from chronicle.domain.amendments import Amended

    return Amended(
        originator_id=uuid4(),
        originator_version=5,
        timestamp=datetime(2026, 12, 5, 20, 0, tzinfo=UTC),
        by="gm",
        target="1a2b3c4d-0000-5000-8000-000000000000",
        target_version=2,
        reason="misread",
        changes=[
            {"version": 3, "field": "outcome", "recorded": "wound", "replayed": "no_effect"},
            {"version": 4, "field": "counts", "recorded": True, "replayed": False},
        ],
        derivation=2,
        **fields,
    )


def test_a_correction_names_the_events_it_speaks_of_by_their_log_positions():
    from chronicle.domain.explain import explain

    asked = []

    def position_of(aggregate, version):  # the attack at #47, its hits at #48 and (after another event) #52
        asked.append(aggregate)
        return {2: 47, 3: 48, 4: 52}[version]

    corrected = _correction(table={"save:1": [15]})
    assert explain(corrected, "Orc", None, position_of) == (
        "A correction decides Orc's event at #47 again with hit 1's save 15: \"misread\"."
        " It changed #48: outcome from wound to no effect; #52: no longer counts."
    )
    assert set(asked) == {corrected.originator_id}  # the corrected character's own events
    assert explain(_correction(void=True), "Aris", None, position_of) == (
        'A correction voids Aris\' event at #47: "misread". It changed #48: outcome from wound to no effect;'
        " #52: no longer counts."
    )


def test_without_the_log_a_correction_names_versions_and_ids_as_before():
    from chronicle.domain.explain import explain

    said = explain(_correction(table={"save:1": [15]}), "Orc", None)
    assert said.startswith("A correction decides Orc's event 2 (1a2b3c4d) again") and "It changed event 3:" in said


# a Feat is named and described: blanks describe nothing


@pytest.mark.parametrize("blank", ["", " ", "\t \n"])
def test_a_feat_described_by_blanks_alone_is_bad_input(blank):
    from chronicle.domain.pendragon.feats import described

    with pytest.raises(BadInput, match="describe the Feat"):
        described(blank)


def test_a_feat_described_in_words_is_taken_as_written():
    from chronicle.domain.pendragon.feats import described

    assert described(" leaps onto the chariot's yoke ") == " leaps onto the chariot's yoke "


# a sheet's value as a person typed it: a number beyond 64 bits is said so, however many its digits


@pytest.mark.parametrize("typed", [TWO_TO_63, "-9223372036854775809", "9" * 5000, "+" + "0" * 40 + TWO_TO_64])
def test_a_typed_whole_number_beyond_64_bits_is_bad_input_naming_it(typed):
    from chronicle.domain.limits import typed_within_int64

    with pytest.raises(BadInput, match="^stat hp is beyond the 64-bit limit"):
        typed_within_int64(typed, "stat hp")


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("9223372036854775807", 2**63 - 1),
        ("-9223372036854775808", -(2**63)),
        (" 0012 ", 12),
        ("-" + "0" * 5000 + "7", -7),  # leading zeros are not digits to count, nor to convert
        ("abc", None),
        ("18/76", None),
        ("", None),
    ],
)
def test_a_whole_number_within_64_bits_is_read_and_other_text_left_to_the_caller(typed, number):
    from chronicle.domain.limits import typed_within_int64

    assert typed_within_int64(typed, "stat hp") == number


def test_each_systems_sheet_says_a_value_beyond_64_bits_by_its_key():
    from chronicle.domain.adnd2e import parse_sheet as adnd2e_sheet

    with pytest.raises(BadInput, match="^stat fort is beyond the 64-bit limit"):
        potestas_sheet({"fort": "9" * 5000})
    with pytest.raises(BadInput, match="^stat hp is beyond the 64-bit limit"):
        adnd2e_sheet({"hp": TWO_TO_63})
    with pytest.raises(BadInput, match="^sword is beyond the 64-bit limit"):
        pendragon_sheet({"sword": "-" + "9" * 5000})
    assert pendragon_sheet({"sword": "9223372036854775807"}).skills["sword"] == 2**63 - 1


def test_a_weapons_number_beyond_64_bits_is_said_so_by_its_part():
    from chronicle.domain.adnd2e.weapons import parse_weapon as adnd2e_weapon
    from chronicle.domain.potestas.weapon import parse_weapon as potestas_weapon

    with pytest.raises(BadInput, match="^weapon 'rapier': attack is beyond the 64-bit limit"):
        potestas_weapon("rapier:damage=1d6,attack=" + "9" * 5000)
    with pytest.raises(BadInput, match="^weapon 'rapier': enhancement is beyond the 64-bit limit"):
        potestas_weapon("rapier:damage=1d6,enhancement=" + TWO_TO_63)
    with pytest.raises(BadInput, match="^weapon 'club': magic is beyond the 64-bit limit"):
        adnd2e_weapon("club:blunt,damage=1d6,magic=-" + TWO_TO_64)
    assert potestas_weapon("rapier:damage=1d6,attack=15").attack == 15


# messages name the character: a refusal of the rules about "the character" is named where it is known


def test_a_refusal_about_the_character_is_said_of_them_by_name():
    from chronicle.domain.errors import CharacterRefused, OfTheCharacter, Refusal
    from chronicle.domain.pendragon.condition import Condition
    from chronicle.domain.pendragon.injury import refuse_the_dead

    # SIZ 12 + CON 11 = 23 hit points; one wound of 24 leaves -1: dead
    sheet = pendragon_sheet({"siz": "12", "con": "11"})
    wound = {"id": 1, "received": 24, "amount": 24, "major": True, "needs_chirurgery": True}
    condition = Condition.model_validate({"wounds": [wound]})
    with pytest.raises(CharacterRefused) as refused:
        refuse_the_dead(sheet, condition, force=False, what="heal them")
    assert isinstance(refused.value, OfTheCharacter) and refused.value.exit_code == 1
    assert str(refused.value) == "the character is dead (-1 hit points): force it to heal them anyway"
    named = refused.value.of("Suboti")
    assert type(named) is Refusal and str(named) == "Suboti is dead (-1 hit points): force it to heal them anyway"
    refuse_the_dead(sheet, condition, force=True, what="heal them")  # forced: no refusal
    again = pickle.loads(pickle.dumps(refused.value))
    assert str(again.of("Suboti")) == str(named)


def test_a_potestas_target_already_dead_is_named_as_the_target_until_the_ledger_names_it():
    from chronicle.domain.dice import Dice
    from chronicle.domain.errors import CharacterRefused
    from chronicle.domain.potestas.condition import Condition
    from chronicle.domain.potestas.injury import InjuryInputs, injure
    from chronicle.domain.potestas.rulings import Rulings

    with pytest.raises(CharacterRefused) as refused:
        injure(potestas_sheet({"fort": "1"}), Condition(lethal="dead"), InjuryInputs(damage=5), Rulings(), Dice(7))
    assert str(refused.value) == "the target is already dead; force it to injure anyway"
    assert str(refused.value.of("Orc")) == "Orc is already dead; force it to injure anyway"


def test_a_sheet_value_written_with_thousands_of_leading_zeros_is_its_number():
    zeros = "0" * 5000
    assert pendragon_sheet({"sword": zeros + "15"}).skills["sword"] == 15
    assert potestas_sheet({"fort": zeros + "5", "dr": zeros + "2/silver"}).fort == 5
