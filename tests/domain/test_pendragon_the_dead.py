"""The dead stay dead: magical healing and rest are refused on a dead character unless forced,
as injury and First Aid are; events recorded before the refusal re-derive as forced."""

import pytest
from test_pendragon_support import T0, act, character

from chronicle.domain.dice import Dice
from chronicle.domain.errors import Refusal
from chronicle.domain.pendragon import Injured, MagicallyHealed, Rested, Rulings, explain, view


def upcast(cls, state, stored_version=1):
    """The stored state as the ledger upcasts it from `stored_version` to the class's own."""
    for version in range(stored_version, cls.class_version):
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
    return state


def slain():
    """SIZ 12 + CON 11 = 23 hit points; wounds of 15 (major: CON 11 or more) and 9 leave -1: dead."""
    hero = character(siz=12, con=11, str=10)
    act(hero, Injured, damage=15, at=T0)
    act(hero, Injured, damage=9, at=T0)
    assert view(hero.sheet, hero.condition)["condition"]["hp"] == -1
    return hero


def test_magic_does_not_heal_the_dead_unless_forced():
    hero = slain()
    with pytest.raises(Refusal, match=r"dead \(-1 hit points\).*force"):
        act(hero, MagicallyHealed, wound=2, points=6, at=T0)
    forced = act(hero, MagicallyHealed, wound=2, points=6, at=T0, force=True)
    assert (forced.outcome.healed, forced.outcome.hp) == (6, 5)  # -1 + 6
    assert "forced" in explain(forced, "Suboti")


def test_rest_does_not_heal_the_dead_unless_forced():
    hero = slain()
    with pytest.raises(Refusal, match="dead"):
        act(hero, Rested, hours=336)
    # Healing Rate (STR 10 + CON 11) // 10 = 2, two full weeks: 4, all to wound 2 (wound 1 awaits Chirurgery)
    forced = act(hero, Rested, hours=336, force=True)
    assert (forced.outcome.healed, forced.outcome.hp) == ({2: 4}, 3)
    assert "forced" in explain(forced, "Suboti")


def test_the_living_heal_and_rest_as_before():
    hero = character(siz=12, con=11, str=10)
    act(hero, Injured, damage=8, at=T0)  # 15 left
    healed = act(hero, MagicallyHealed, wound=1, points=3, at=T0)
    rested = act(hero, Rested, hours=168)
    assert (healed.outcome.hp, rested.outcome.hp) == (18, 20)  # + 3, then a week at Healing Rate 2
    assert "forced" not in explain(healed, "Suboti") + explain(rested, "Suboti")


@pytest.mark.parametrize(
    ("event_class", "inputs"),
    [(MagicallyHealed, {"wound": 2, "points": 6, "at": T0}), (Rested, {"hours": 336})],
)
def test_a_heal_or_rest_of_the_dead_recorded_before_the_refusal_re_derives_as_it_was(event_class, inputs):
    hero = slain()
    before = (hero.sheet, hero.condition)
    recorded = act(hero, event_class, force=True, **inputs)
    state = recorded.model_dump(mode="json")
    del state["inputs"]["force"]  # version 1 had no such input: it healed the dead
    old = event_class.model_validate(upcast(event_class, state))
    assert old.inputs.force
    again = event_class.derive(*before, old.inputs, Rulings.model_validate(old.rulings), Dice.replay(old.dice))
    assert again == recorded.outcome
