"""Potestas events: derive, record, fold and re-derive, as the ledger will (no database)."""

from datetime import UTC, datetime
from uuid import uuid4

from chronicle.domain.character import Character, CharacterRegistered
from chronicle.domain.dice import Dice
from chronicle.domain.potestas import (
    EVENTS,
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
)

WHEN = datetime(2024, 5, 1, tzinfo=UTC)


def record(event_class, sheet, condition, inputs, rulings=Rulings(), table=None, seed=9):
    """Derive an outcome and build the event the application would store."""
    dice = Dice(seed, table=table)
    outcome = event_class.derive(sheet, condition, inputs, rulings, dice)
    return event_class(
        originator_id=uuid4(),
        originator_version=2,
        timestamp=WHEN,
        by="gm",
        inputs=inputs,
        outcome=outcome,
        rulings=rulings.model_dump(mode="json"),
        dice=dice.record(),
    )


def fold(sheet, condition, *events):
    for event in events:
        sheet, condition = event.evolve(sheet, condition)
    return condition


def test_events_are_the_six_actions():
    assert [e.__name__ for e in EVENTS] == ["Injured", "DyingSaveMade", "Exerted", "Rested", "Attacked", "Fell"]


def test_a_story_from_wound_to_stable_and_back_to_health():
    sheet, condition = Sheet(fort=3), Condition()
    # A 12-point blow and a save of 2 + 3 against DC 17 fails by 12: wounded and disabled.
    first = record(Injured, sheet, condition, InjuryInputs(damage=12, type="slashing"), table={"save": [2]})
    condition = fold(sheet, condition, first)
    assert (first.outcome.outcome, condition.wounds, condition.states) == ("wound", 1, ["disabled"])
    # Running over half speed makes the disabled fighter dying.
    ran = record(Exerted, sheet, condition, ExertionInputs(action="ran"))
    condition = fold(sheet, condition, ran)
    assert ran.outcome.worsened == ("dying",)
    # First dying save, DC 10: 6 + 3 - 1 fails; the second, DC 11: 9 + 3 - 1 succeeds.
    failed = record(DyingSaveMade, sheet, condition, DyingSaveInputs(), table={"save": [6]})
    condition = fold(sheet, condition, failed)
    saved = record(DyingSaveMade, sheet, condition, DyingSaveInputs(), table={"save": [9]})
    condition = fold(sheet, condition, saved)
    assert (failed.outcome.dc, saved.outcome.dc, condition.states) == (10, 11, ["stable"])
    # Sixteen hours of rest: stable -> disabled -> unhurt.
    rested = record(Rested, sheet, condition, RestInputs(hours=16))
    assert fold(sheet, condition, rested) == Condition()


def test_a_stable_character_wounded_dies_when_the_recorded_ruling_says_so():
    stable = Condition(wounds=2, lethal="stable")
    blow = InjuryInputs(damage=5)
    strict = record(Injured, Sheet(), stable, blow, rulings=Rulings(wound_while_stable="dead"), table={"save": [1]})
    lenient = record(Injured, Sheet(), stable, blow, table={"save": [1]})
    assert fold(Sheet(), stable, strict).states == ["dead"]
    assert fold(Sheet(), stable, lenient).states == ["dying"]


def test_a_ledger_rolled_event_re_derives_the_same_outcome():
    sheet, condition = Sheet(fort=1), Condition(wounds=1)
    event = record(Injured, sheet, condition, InjuryInputs(damage=30), seed=4242)
    replayed = Injured.derive(
        sheet, condition, event.inputs, Rulings.model_validate(event.rulings), Dice.replay(event.dice)
    )
    assert replayed == event.outcome
    assert event.dice.rolls[0].purpose == "save"


def test_a_what_if_replay_under_another_ruling_can_change_the_outcome():
    event = record(Injured, Sheet(), Condition(), InjuryInputs(damage=12), table={"save": [8]})  # fails by 9
    what_if = Injured.derive(Sheet(), Condition(), event.inputs, Rulings(disable_margin=5), Dice.replay(event.dice))
    assert (event.outcome.degree, what_if.degree) == (1, 2)


def test_events_survive_a_json_round_trip_and_seal():
    attack = AttackInputs(weapons=(Weapon(damage="1d8", threat=19),), bab=6, strength=14, iterative=True)
    events = [
        record(Injured, Sheet(), Condition(), InjuryInputs(damage=9, type="fire", nonlethal=True)),
        record(Attacked, Sheet(defence=4), Condition(), attack, seed=77),
        record(Fell, Sheet(), Condition(), FallInputs(feet=60)),
        record(Rested, Sheet(), Condition(wounds=1), RestInputs(minutes=90)),
    ]
    for event in events:
        again = type(event).model_validate(event.model_dump(mode="json"))
        assert again == event
        assert again.sealed().hash == event.sealed().hash


def test_an_attack_records_on_the_target_and_its_hits_become_injuries():
    target = Sheet(fort=2, defence=4, dr="2")
    inputs = AttackInputs(weapons=(Weapon(damage="3"),), bab=11, strength=14, hurried=True)
    attacked = record(Attacked, target, Condition(), inputs, table={"attack": [15]})
    assert fold(target, Condition(), attacked) == Condition()
    assert [(h.hit, h.damage) for h in attacked.outcome.hits] == [(1, 5), (2, 5)]
    condition = Condition()
    for hit, roll in zip(attacked.outcome.hits, (8, 18), strict=True):
        injured = record(Injured, target, condition, hit, table={hit.save_purpose: [roll]})
        condition = fold(target, condition, injured)
    assert (condition.wounds, condition.states) == (1, [])


def test_a_fall_is_bludgeoning_damage_with_its_save_in_one_event():
    event = record(Fell, Sheet(fort=2, dr="3"), Condition(), FallInputs(feet=100), table={"save": [5]})
    fall, injury = event.outcome.fall, event.outcome.injury
    assert (fall.hits, fall.damage, injury.after_dr, injury.dc, injury.save.total, injury.outcome) == (
        16,
        64,
        61,
        27,
        7,
        "wound",
    )
    assert fold(Sheet(), Condition(), event).states == ["disabled"]


def test_the_character_aggregate_folds_potestas_events():
    hero = Character.start(
        CharacterRegistered,
        uuid4(),
        campaign_id=uuid4(),
        name="Ivanior",
        system="potestas",
        sheet=Sheet(fort=4).model_dump(mode="json"),
        by="gm",
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
    )
    event = record(Injured, hero.sheet, hero.condition, InjuryInputs(damage=12), table={"save": [5]})
    hero.record(
        Injured,
        inputs=event.inputs,
        outcome=event.outcome,
        rulings=event.rulings,
        dice=event.dice,
        by="gm",
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
    )
    condition = hero.condition
    assert isinstance(condition, Condition)
    assert (hero.version, condition.wounds, condition.states) == (2, 1, [])
