"""Changing a ruling: validated against the system's typed settings, recorded with a reason."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ...domain.errors import BadInput, Refusal, in_words
from ...domain.explain import outcome_words
from ...domain.limits import typed_within_int64
from ...domain.spelling import nearest
from ...domain.text import printable

if TYPE_CHECKING:
    from ...domain.model import Model
    from ...domain.systems import RuleSystem
    from .session import Session


def parse_rulings(rules: RuleSystem, current: dict[str, Any], assignments: dict[str, str]) -> Model:
    """The system's Rulings with `assignments` (strings from the command line) applied."""
    known = rules.Rulings.model_fields
    for key in assignments:
        if key not in known:
            near = nearest(key, list(known))
            hint = f"did you mean {near!r}? " if near else ""
            raise BadInput(
                f"unknown ruling {printable(key[:60])}: {hint}the {rules.NAME} rulings are {', '.join(known)}"
            )
    for key, value in assignments.items():  # a whole number typed for a ruling: 64 bits, as every stored one
        typed_within_int64(value, f"bad value for ruling {key}: {printable(value[:40])}")
    try:
        return rules.Rulings.model_validate({**current, **assignments})
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise BadInput(
            f"bad value for ruling {key}: {printable(str(assignments.get(key, ''))[:40])} {in_words(first)}"
        ) from None


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
    if parse_rulings(session.rules, campaign.rulings, {}).model_dump(mode="json")[key] == new_value:
        raise Refusal(f"the ruling {key.replace('_', ' ')} is {outcome_words(new_value)} already: nothing to change")
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
