"""`verify`'s check of the read models every command shows from (ledger/trust/verify.py): each row of the
campaign's aggregates against the fold of their events. The names `log`, `recap` and `character`
show come from these rows, so an edit of a row alone (a character renamed in the
index only) is an edit of what the table reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import orjson

from ...domain.campaign import Campaign
from ...domain.character import Character
from ...domain.character_state import CharacterState
from ...domain.text import printable
from ...projections.characters import render

if TYPE_CHECKING:
    from ...domain.systems import RuleSystem
    from ..store.chronicle import Chronicle

UNFOLLOWED = "the characters read model cannot follow the log"
RESTORES = "`chronicle rebuild` restores it"


class Folded:
    """What the check needs of an aggregate `verify` folded: its state, rule system and last position."""

    __slots__ = ("state", "rules", "position")

    def __init__(self, state: Campaign | Character | None, rules: RuleSystem | None, position: int):
        self.state, self.rules, self.position = state, rules, position


def read_model_problems(
    app: Chronicle,
    campaign_id: UUID,
    folded: dict[UUID, Folded],
    members: dict[UUID, bool],
    share: tuple[int, int],
) -> list[dict[str, Any]]:
    """The rows of the index and the characters read model that differ from `folded` (the share's
    aggregates whose events all verified), and the index's characters of the campaign that the log
    does not have in it (`members`: every aggregate of the share seen in the log, and whether it is
    the campaign's)."""
    try:
        app.characters.catch_up()
    except Exception as error:  # noqa: BLE001 - a log it cannot fold (rows gone or moved: reported already)
        return [{"position": 0, "problem": f"{UNFOLLOWED} ({type(error).__name__})"}]
    indexed = {
        UUID(ident): (campaign, name, system, kind, bool(retired))
        for ident, campaign, name, system, kind, retired in app.views.query(
            "SELECT id, campaign_id, name, system, kind, retired FROM chronicle_characters"
        )
    }
    found: list[dict[str, Any]] = []
    for ident, aggregate in folded.items():
        state = aggregate.state
        if isinstance(state, Campaign):
            found += _campaign(app, ident, state)
        elif isinstance(state, Character) and aggregate.rules is not None:
            whose = printable(state.name)
            fold = (str(state.campaign_id), state.name, state.system, state.kind, state.retired)
            if indexed.get(ident) != fold:
                what = "its name, campaign, kind or retirement edited"
                problem = f"the index differs from the log for {whose} ({what}): {RESTORES}"
                found.append({"position": aggregate.position, "problem": problem})
            if not _row_matches(app, ident, state, aggregate.rules):
                problem = f"the characters read model differs from the log for {whose} (edited): {RESTORES}"
                found.append({"position": aggregate.position, "problem": problem})
    return found + _strangers(indexed.items(), campaign_id, members, share)


def _campaign(app: Chronicle, ident: UUID, state: Campaign) -> list[dict[str, Any]]:
    rows = app.views.query("SELECT name, system, archived FROM chronicle_campaigns WHERE id = ?", (str(ident),))
    if [(name, system, bool(archived)) for name, system, archived in rows] == [
        (state.name, state.system, state.archived)
    ]:
        return []
    return [
        {
            "position": 0,
            "problem": f"the index differs from the log for the campaign {printable(state.name)} (edited): {RESTORES}",
        }
    ]


def _row_matches(app: Chronicle, ident: UUID, state: Character, rules: RuleSystem) -> bool:
    """Whether the character's row in the characters read model is the one its fold makes: what
    `show` prints, its name and version, and the state it goes on folding from."""
    rows = app.views.query(
        "SELECT campaign_id, name, version, state, view FROM chronicle_character_rows WHERE id = ?", (str(ident),)
    )
    if len(rows) != 1:
        return False
    campaign, name, version, kept, view = rows[0]
    try:
        same_state = CharacterState.model_validate_json(kept) == CharacterState.of(state)
        same_view = orjson.loads(view) == render(rules, state)
    except ValueError:  # not JSON, or not a state
        return False
    return same_state and same_view and (campaign, name, version) == (str(state.campaign_id), state.name, state.version)


def _strangers(
    indexed: Iterable[tuple[UUID, tuple[Any, ...]]],
    campaign_id: UUID,
    members: dict[UUID, bool],
    share: tuple[int, int],
) -> list[dict[str, Any]]:
    """Characters the index puts in the campaign that the log does not (of the share's aggregates)."""
    k, n = share
    return [
        {
            "position": 0,
            "problem": f"the index lists {printable(row[1])} in this campaign, which the log does not"
            f" (edited): {RESTORES}",
        }
        for ident, row in indexed
        if row[0] == str(campaign_id) and (n == 1 or (ident.int & 0xF) % n == k) and not members.get(ident)
    ]
