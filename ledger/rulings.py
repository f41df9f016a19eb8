"""Changing a ruling: validated against the system's typed settings, recorded with a reason."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..domain.errors import BadInput
from ..domain.limits import INT64_LIMIT
from ..domain.model import beyond_int64
from ..domain.text import printable

if TYPE_CHECKING:
    from ..domain.model import Model
    from ..domain.systems import RuleSystem
    from .session import Session


def parse_rulings(rules: RuleSystem, current: dict[str, Any], assignments: dict[str, str]) -> Model:
    """The system's Rulings with `assignments` (strings from the command line) applied."""
    known = rules.Rulings.model_fields
    for key in assignments:
        if key not in known:
            raise BadInput(f"unknown ruling {key!r}; the {rules.NAME} rulings are: {', '.join(known)}")
    try:
        parsed = rules.Rulings.model_validate({**current, **assignments})
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise BadInput(f"bad value for ruling {key}: {first['msg']}") from None
    for key in assignments:  # a whole number typed for a ruling is held to 64 bits, as every stored one is
        beyond = beyond_int64(getattr(parsed, key))
        if beyond is not None:
            raise BadInput(f"bad value for ruling {key}: {printable(assignments[key][:40])} is beyond {INT64_LIMIT}")
    return parsed


def change_ruling(session: Session, assignment: str, reason: str) -> dict[str, Any]:
    key, sep, value = assignment.partition("=")
    key = key.strip()
    if not sep:
        raise BadInput(f"expected KEY=VALUE, got {assignment!r}")
    if not reason.strip():
        raise BadInput("--reason must say why")
    campaign = session.campaign
    parsed = parse_rulings(session.rules, campaign.rulings, {key: value.strip()})
    new_value = parsed.model_dump(mode="json")[key]
    previous = campaign.rulings.get(key)
    campaign.change_ruling(key, new_value, reason, session.by, session.now())
    return {
        "event": campaign.last_event_id,
        "version": campaign.version,
        "key": key,
        "value": new_value,
        "previous": previous,
        "reason": reason,
    }
