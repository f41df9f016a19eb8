"""An event recorded under an older version of its rules is checked for what its signed document names."""

from types import SimpleNamespace
from typing import Any

from chronicle.ledger.trust.derivation import _as_then, _named_alike


def test_a_key_a_later_version_added_is_left_out_where_the_event_never_held_it():
    derived = {"damage": 14, "wound": 1, "at": "2026-12-06T08:46:55Z"}
    recorded = {"damage": 14, "at": "2026-12-06T08:46:55Z"}
    assert _as_then(derived, recorded) == recorded
    assert _as_then({"damage": 15, "wound": 1}, recorded) != recorded


def test_an_older_event_must_still_hold_every_value_its_document_names():
    event: Any = SimpleNamespace(inputs={"attacker": "Thief", "maneuver": "sap", "weapon": None})
    document = {"command": "attack", "attacker": "Thief", "target": "Brute", "maneuver": "sap"}
    assert _named_alike(document, [(41, 0, event)], "attack") is None
    forged: Any = SimpleNamespace(inputs={"attacker": "Brute", "maneuver": "sap", "weapon": None})
    found = _named_alike(document, [(41, 0, forged)], "attack")
    assert found is not None
    position, why = found
    assert position == 41 and "its attacker is" in why and "Brute" in why
