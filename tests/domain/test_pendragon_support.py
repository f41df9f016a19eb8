"""A tiny stand-in for the application: derive, record on a real Character, then re-derive from the record."""

from datetime import UTC, datetime
from uuid import uuid4

from chronicle.domain.character import Character, CharacterRegistered
from chronicle.domain.dice import Dice
from chronicle.domain.pendragon import Condition, Rulings, parse_sheet

T0 = datetime(1620, 1, 1, tzinfo=UTC)


def character(virtues=None, **stats):
    """A registered PenDragon Pass character with the given `--stat` values."""
    sheet = parse_sheet({k: str(v) for k, v in stats.items()}, virtues=virtues)
    return Character.start(
        CharacterRegistered,
        uuid4(),
        campaign_id=uuid4(),
        name="Suboti",
        system="pendragon-pass",
        sheet=sheet.model_dump(mode="json"),
        by="gm",
        timestamp=T0,
    )


def act(hero, event_class, rulings=None, rolls=None, seed=7, **inputs):
    """Derive and record one event as the application does; check a replay re-derives the same outcome
    and the stored JSON reloads to an equal event."""
    rulings = rulings or Rulings()
    inputs_model = event_class.model_fields["inputs"].annotation
    inputs = _validate(inputs_model, inputs)
    dice = Dice(seed, table=rolls)
    outcome = event_class.derive(hero.sheet, hero.condition, inputs, rulings, dice)
    assert not dice.unused(), f"unused table rolls {dice.unused()}"
    before = (hero.sheet, hero.condition)
    event = hero.record(
        event_class,
        inputs=inputs,
        outcome=outcome,
        rulings=rulings.model_dump(mode="json"),
        dice=dice.record(),
        by="gm",
        timestamp=T0,
    )
    again = event_class.derive(*before, inputs, Rulings.model_validate(event.rulings), Dice.replay(event.dice))
    assert again == outcome
    assert event_class.model_validate_json(event.model_dump_json()) == event
    return event


def _validate(model, data):
    from pydantic import TypeAdapter

    return TypeAdapter(model).validate_python(data)


def fresh():
    return Condition()
