"""Reading the ledger's fair dice from the log (docs/fair-dice.md): its commitments, how many seeds each has
used, the fair rolls' share of all rolls (`chronicle dice`), and what a page needs to derive a fair roll's
faces again itself (its seeds, its dice and its commitment's head). Only what the log holds: the seeds not
yet revealed stay in the ledger's storage, which nothing here reads."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from ...store.mapper import mapper_of
from .history import notifications_at

if TYPE_CHECKING:
    from ...store.chronicle import Chronicle
    from ..session import Session

COMMITTED = "%:DiceCommitted"
MOST = 500  # positions a page asks about at once


def commitments(app: Chronicle, campaign_id: UUID) -> list[dict[str, Any]]:
    """The campaign's commitments to chains of seeds, in log order: position, head, length."""
    table, at = app.views.events
    rows = app.views.query(
        f"SELECT {at}, state FROM {table} WHERE originator_id = ? AND topic LIKE ? ORDER BY {at}",  # noqa: S608
        (app.views.originator(campaign_id), COMMITTED),
    )
    decode = mapper_of(app).decode_state
    found = []
    for position, state in rows:
        data = decode(bytes(state))
        found.append({"position": position, "head": data["head"], "length": data["length"]})
    return found


def report(session: Session) -> dict[str, Any]:
    """`chronicle dice`: each commitment with the seeds its rolls revealed (`used`), and how many of the
    campaign's rolls (events that rolled dice, the ledger's or the table's) were the ledger's fair dice."""
    app, campaign = session.app, session.campaign
    app.index.catch_up()
    committed = commitments(app, campaign.id)
    starts = [c["position"] for c in committed]
    used = [set[int]() for _ in committed]
    rolls = fair = 0
    decode = mapper_of(app).decode_state
    for stored in notifications_at(app, app.index.log(campaign.id)):
        dice = decode(stored.state).get("dice")
        if not isinstance(dice, dict) or not dice.get("rolls"):
            continue
        rolls += 1
        seed = dice.get("fair")
        if isinstance(seed, dict):
            fair += 1
            chain = bisect_left(starts, stored.id) - 1
            index = seed.get("index")
            if chain >= 0 and isinstance(index, int):
                used[chain].add(index)
    listed = [{**c, "used": len(seen)} for c, seen in zip(committed, used, strict=True)]
    return {"commitments": listed, "rolls": rolls, "fair": fair}


def fair_rolls(app: Chronicle, campaign_id: UUID, positions: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The fair rolls among the events at `positions` of the campaign (a page's), by position: the seeds,
    the ledger's dice in the order drawn (sides and faces), and the head of the commitment it belongs to,
    for the page to derive its faces again and to hash its seed back to that head."""
    wanted = sorted({p for p in positions if isinstance(p, int) and p > 0})[:MOST]
    if not wanted:
        return {}
    app.index.catch_up()
    theirs = set(app.index.log(campaign_id, since=wanted[0], until=wanted[-1]))
    wanted = [p for p in wanted if p in theirs]
    committed = commitments(app, campaign_id)
    starts = [c["position"] for c in committed]
    decode = mapper_of(app).decode_state
    found = {}
    for stored in notifications_at(app, wanted):
        if b'"fair"' not in stored.state and app.mapper.cipher is None:  # (most events: no decoding)
            continue
        state = decode(stored.state)
        dice = state.get("dice")
        if not isinstance(dice, dict) or not isinstance(seed := dice.get("fair"), dict):
            continue
        chain = bisect_left(starts, stored.id) - 1
        found[stored.id] = {
            "index": seed.get("index"),
            "seed": seed.get("seed"),
            "device_seed": seed.get("device_seed"),
            "rolls": [
                {"sides": roll.get("sides"), "faces": roll.get("faces")}
                for roll in dice.get("rolls") or []
                if isinstance(roll, dict) and roll.get("source") == "ledger"
            ],
            "commitment": committed[chain] if chain >= 0 and not state.get("origin") else None,
            "copied": bool(state.get("origin")),  # a replay's fork: its seed was revealed in another campaign
        }
    return found
