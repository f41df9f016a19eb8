"""The ledger's fair dice in a unit of work (docs/fair-dice.md): the next seed of the campaign's committed
chain, taken when a roll first needs one, in the command's own transaction (ledger/store/seed_chains.py);
a new chain committed (a `DiceCommitted` event of the campaign, signed with the command) before the
first roll that finds the last one used up; and the campaign's `fair_dice` ruling held to.

Where the index is taken matters: inside the unit that records the roll, never before it (as a sequence
would hand it out), so a command that loses a race and decides again, or is refused, leaves no index
skipped: the count goes back with everything else it did."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...domain.commitments import DiceCommitted
from ...domain.errors import BadInput, Refusal
from ...domain.fair_dice import FairSeed, chain
from ...domain.participants import holder
from ..store.seed_chains import seed_chains
from .reply import Reply

if TYPE_CHECKING:
    from .session import Session

LENGTH = 1024  # seeds a chain: a new one is committed every LENGTH fair rolls
LENGTH_SETTING = "CHRONICLE_DICE_CHAIN"  # another length (tests force renewals with a short one)
LONGEST = 1 << 20


def chain_length() -> int:
    given = os.environ.get(LENGTH_SETTING, "").strip()
    if not given:
        return LENGTH
    if not (given.isascii() and given.isdigit()) or not 1 <= int(given) <= LONGEST:
        raise BadInput(f"{LENGTH_SETTING} is how many seeds a chain of dice holds: a whole number from 1 to {LONGEST}")
    return int(given)


def reveal(session: Session) -> FairSeed:
    """The next fair seed of the session's campaign, taken in the session's transaction; the chain
    renewed first when it is used up (or there is none yet)."""
    campaign = session.campaign
    if session.from_device and session.device_seed is None and _rule(session) != "optional":
        raise Refusal(
            f"this campaign's ruling fair_dice={_rule(session)}: a roll asked for from a device carries that"
            " device's seed (device_seed)"
        )
    store = seed_chains(session.app)
    with store.transaction() as cursor:
        if store.ready(cursor, session.fair_tables_made):
            session.fair_tables_made = True
        taken = store.take(cursor, campaign.id)
        if taken is None:
            length = chain_length()
            seeds = chain(os.urandom(32), length)
            store.add(cursor, campaign.id, seeds)
            campaign.trigger_event(
                DiceCommitted, head=seeds[0].hex(), length=length, by=session.by, timestamp=session.now()
            )
            taken = store.take(cursor, campaign.id)
            assert taken is not None
    session.fair_taken.append({"index": taken.number, "head": taken.head})
    # (its values checked already: an index from 1, the seed's bytes and a command's device seed as hex)
    return FairSeed.model_construct(index=taken.number, seed=taken.seed.hex(), device_seed=session.device_seed)


def hold_table_dice(session: Session, table: Mapping[str, Any]) -> None:
    """Refuse the table's own dice where the campaign's `fair_dice` ruling wants the ledger's."""
    rule = _rule(session)
    if rule == "optional":
        return
    if rule == "everyone":
        whose = "every roll is the ledger's"
    elif session.from_device:
        whose = "a roll asked for from a device is the ledger's"
    elif rule == "players" and _is_player(session):
        whose = "a player's rolls are the ledger's"
    else:
        return
    given = ", ".join(sorted(table))
    raise Refusal(
        f"this campaign's ruling fair_dice={rule}: {whose} fair dice, so the table's own dice ({given}) are not"
        " taken: leave them out and the ledger rolls"
    )


def _rule(session: Session) -> str:
    return str(getattr(session.rulings(), "fair_dice", "optional"))


def _is_player(session: Session) -> bool:
    found = holder(session.campaign.participants, session.key) if session.key else None
    return found is not None and found.role == "player"


def naming_seeds(reply: Reply, taken: list[dict[str, Any]]) -> Reply:
    """REPLY's document naming the fair seeds the command took (`fair_dice`: each one's index and its
    chain's head), for the device that asked to find its roll by."""
    if not taken:
        return reply
    return Reply(lambda: {**reply.document, "fair_dice": taken}, reply.build_text)
