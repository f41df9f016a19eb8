"""Oaths and geasa (seed: Oaths; Glory and Ambitions, Other)."""

import pytest
from pydantic import ValidationError
from test_pendragon_support import act, character

from chronicle.domain.errors import NotFound, Refusal
from chronicle.domain.pendragon import GeasBroken, GeasTaken, OathBroken, OathFulfilled, OathSworn, view

DOSKIOR = "never to cross the Doskior before vengeance on the Fabeli"


def test_swearing_an_oath_gives_it_an_id():
    hero = character()
    assert act(hero, OathSworn, text=DOSKIOR).outcome.id == "oath-1"
    assert view(hero.sheet, hero.condition)["oaths"] == [{"id": "oath-1", "text": DOSKIOR, "state": "open"}]


def test_fulfilling_an_oath_gains_the_status_the_table_sets():
    hero = character()
    act(hero, OathSworn, text=DOSKIOR)
    assert act(hero, OathFulfilled, oath=DOSKIOR, status=10).outcome.total == 10  # found by text
    assert hero.condition.oaths[0].state == "fulfilled"


def test_an_oath_of_no_weight_gains_nothing_and_status_is_never_negative():
    hero = character()
    act(hero, OathSworn, text="never to eat broccoli", id="broccoli")
    assert act(hero, OathFulfilled, oath="broccoli", status=0).outcome.status == 0
    with pytest.raises(ValidationError):
        act(character(), OathFulfilled, oath="x", status=-1)


def test_breaking_an_oath_costs_one_honor():
    hero = character(honor=15)
    act(hero, OathSworn, text=DOSKIOR)
    assert act(hero, OathBroken, oath="oath-1").outcome.honor_loss == 1
    assert hero.sheet.honor == 14 and hero.condition.oaths[0].state == "broken"


def test_a_grave_broken_oath_costs_d6_honor():
    hero = character(honor=15)
    act(hero, OathSworn, text=DOSKIOR)
    assert act(hero, OathBroken, rolls={"honor_loss": [4]}, oath="oath-1", grave=True).outcome.honor_to == 11


def test_a_closed_or_unknown_oath_cannot_be_kept_or_broken():
    hero = character()
    act(hero, OathSworn, text=DOSKIOR)
    act(hero, OathFulfilled, oath="oath-1", status=10)
    with pytest.raises(Refusal):
        act(hero, OathBroken, oath="oath-1")
    with pytest.raises(NotFound):
        act(hero, OathFulfilled, oath="oath-9", status=1)


def test_taking_a_geas_records_its_clan_flag():
    hero = character()
    act(hero, GeasTaken, text="never refuse a challenge", clan=True)
    assert view(hero.sheet, hero.condition)["geasa"] == [
        {"id": "geas-1", "text": "never refuse a challenge", "clan": True, "state": "kept"}
    ]


def test_breaking_a_geas_gains_ten_status_and_loses_d6_honor():
    hero = character(honor=15)
    act(hero, GeasTaken, text="never eat goose")
    event = act(hero, GeasBroken, rolls={"honor_loss": [3]}, geas="geas-1")
    assert (event.outcome.status, event.outcome.total, hero.sheet.honor) == (10, 10, 12)
    assert hero.condition.geasa[0].state == "broken"


def test_breaking_a_clan_geas_loses_ten_status_but_never_below_zero():
    hero = character(honor=15)
    act(hero, OathSworn, text="hold the ford")
    act(hero, OathFulfilled, oath="oath-1", status=14)
    act(hero, GeasTaken, text="never refuse a challenge", clan=True)
    act(hero, GeasTaken, text="never eat goose", clan=True)
    assert act(hero, GeasBroken, rolls={"honor_loss": [6]}, geas="never refuse a challenge").outcome.status == -10
    assert (hero.condition.status, hero.sheet.honor) == (14 - 10, 15 - 6)
    out = act(hero, GeasBroken, rolls={"honor_loss": [1]}, geas="never eat goose").outcome
    assert (out.status, out.total, hero.condition.status) == (-10, 0, 0)  # 4 - 10 stops at 0


def test_a_geas_breaks_once_and_honor_stops_at_zero():
    hero = character(honor=2)
    act(hero, GeasTaken, text="never eat goose")
    assert act(hero, GeasBroken, rolls={"honor_loss": [6]}, geas="geas-1").outcome.honor_to == 0
    with pytest.raises(Refusal):
        act(hero, GeasBroken, rolls={"honor_loss": [1]}, geas="geas-1")
