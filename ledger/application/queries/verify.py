"""`verify` and `checkpoint`: the log re-derived and its chains, signatures and Merkle tree checked; the
log as it is now, signed as a note a table keeps outside the database."""

from __future__ import annotations

import contextlib
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ....domain.errors import BadInput
from ..reply import Reply
from ..text import Exact, group, rendered, table
from .base import Query, answers, field

if TYPE_CHECKING:
    from ....domain.campaign import Campaign
    from ...store.chronicle import Chronicle
    from ...trust.signed_note import Checkpoint as Note
    from ..ledger import Ledger

LONG = 2000  # events: a log this long is checked with a progress bar for people


@dataclass(frozen=True, kw_only=True)
class Verify(Query):
    """Re-derive every recorded outcome and check every signature, role and the log's hash chains and
    Merkle tree; `ok` is false, naming each event's position, when anything does not match."""

    query: ClassVar[str] = "verify"
    workers: int | None = field(
        "Processes checking the log side by side  [default: one per core on long logs]", document=False
    )
    digest: str | None = field(
        "Also prove the log still extends what this digest (from `campaign show`) noted.", document=False
    )
    against: str | None = field(
        "Also prove the log still extends this earlier export of the campaign (a file).", document=False
    )
    require_signatures: bool = field(
        "An event recorded before chronicle signed what it records is a problem too.", False
    )
    witness: str | None = field(
        "Also prove, by an RFC 6962 consistency proof, that the log still extends this checkpoint (a file"
        " holding a note from `chronicle checkpoint`), or name the first event whose history changed.",
        document=False,
    )


@dataclass(frozen=True, kw_only=True)
class Checkpoint(Query):
    """Sign the campaign's log as it is now: a note (a C2SP checkpoint) of its number of events and their
    RFC 6962 Merkle root, signed by the identity in use. Refused when the log no longer extends the last
    checkpoint this chronicle saw of the campaign."""

    query: ClassVar[str] = "checkpoint"


@answers(Verify)
def verify(ledger: Ledger, asked: Verify) -> Reply:
    from ...bulk import workers as bulk
    from ...bulk.transfer import export_heads
    from ...store.chronicle import open_ledger
    from ...trust.digest import Against, parse
    from ...trust.verify import PARALLEL_FROM, verify_side_by_side
    from ...trust.verify import verify as check

    noted, against = asked.digest, asked.against
    held = Against(export_heads(against) if against else None, parse(noted) if noted else None)
    session = ledger.read()
    session.app.index.catch_up()
    campaign_id = session.campaign.id
    note = _note(asked.witness, session.campaign) if asked.witness else None
    total = session.app.index.count(campaign_id)
    single = ledger.batch is not None or noted or against  # a digest's N-th event needs the campaign's whole order
    shares = 1 if single else asked.workers or bulk.workers(total, PARALLEL_FROM)
    shown = ledger.presentation.progress("verifying", total) if total >= LONG else contextlib.nullcontext(None)
    with shown as advance:
        if shares == 1:
            report = check(session, advance, held if (noted or against) else None, asked.require_signatures)
        else:
            ledger.close()  # no connection is held while the workers are forked: each opens its own
            opened = functools.partial(open_ledger, ledger.target)
            report = verify_side_by_side(opened, campaign_id, shares, advance, asked.require_signatures)
    witnessed(ledger.app, campaign_id, report, note)
    return Reply(lambda: report, lambda: told(report, ledger))


def told(report: dict[str, Any], ledger: Ledger) -> str:
    """A report for people: ok and its counts, or a table of the problems; then the checkpoint's verdict."""
    signed = f"; {report['signed']} signed, {report['unsigned']} unsigned" if report.get("unsigned") else ""
    human: Any
    if report["ok"]:
        human = f"ok: {report['events']} events re-derived and chained{signed}"
    else:
        human = table(
            f"{len(report['problems'])} problem(s) in {report['events']} events",
            ("position", "problem"),
            [(f"#{p['position']}", p["problem"]) for p in report["problems"]],
        )
    line = _witness_line(report.get("witness"))
    if line is None:
        return human if isinstance(human, str) else rendered(human, ledger.presentation)
    if isinstance(human, str):
        return f"{human}\n{line}"
    return rendered(group(human, line), ledger.presentation)


def _witness_line(witness: dict[str, Any] | None) -> str | None:
    if not witness:
        return None
    signed = f"the checkpoint of {witness['size']} events signed by {witness['key']}"
    if witness["extends"] and witness["log"]["size"] == witness["size"]:
        return f"The log is still the one of {signed}."
    if witness["extends"]:
        proof = witness.get("proof")
        return f"The log ({witness['log']['size']} events) extends {signed}" + (
            f": its consistency proof of {len(proof)} hash{'es' * (len(proof) != 1)} verifies."
            if proof is not None
            else "."
        )
    return f"The log does not extend {signed}: its history changed at #{witness['position']}."


def _note(path: str, campaign: Campaign) -> Note:
    """The checkpoint in the file at `path`: a note as `checkpoint` prints it, or its `--json` output."""
    from ...trust.signed_note import MAX_NOTE, read

    try:
        with open(path, "rb") as file:
            text = file.read(MAX_NOTE + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"cannot read the checkpoint {path}: {getattr(error, 'strerror', None) or error}") from None
    if text.lstrip().startswith("{"):
        try:
            text = json.loads(text)["note"]
        except (ValueError, KeyError, TypeError):
            raise BadInput(f"{path} holds JSON that is not the output of `checkpoint --json`") from None
        if not isinstance(text, str):
            raise BadInput(f"{path} holds JSON that is not the output of `checkpoint --json`")
    note = read(text)
    if note.campaign != campaign.id:
        raise BadInput(
            f"{Path(path).name} is a checkpoint of campaign {note.campaign}, not of {campaign.name}"
            f" ({campaign.id}): pick that campaign with --campaign"
        )
    return note


def witnessed(app: Chronicle, campaign_id: Any, report: dict[str, Any], note: Note | None) -> None:
    """The campaign's Merkle tree recomputed from the events and compared with the stored one, and
    with the checkpoint `note` when given (its part of the report: `witness`)."""
    from ...trust.witness import audit

    problems, witness = audit(app, campaign_id, note)
    if note is not None:
        report["witness"] = witness
    if problems:
        found = [*report["problems"], *({"position": p.position, "problem": p.problem} for p in problems)]
        report["problems"] = sorted(found, key=lambda p: p["position"])
        report["ok"] = False


@answers(Checkpoint)
def checkpoint(ledger: Ledger, asked: Checkpoint) -> Reply:
    from ...trust.identity import load_or_create
    from ...trust.witness import b64
    from ...trust.witness import checkpoint as sign

    signer = load_or_create()
    campaign = ledger.read().campaign
    made = sign(ledger.app, campaign.id, signer, where=ledger.target)
    data = {
        "campaign": str(campaign.id),
        "name": campaign.name,
        "size": made.size,
        "root": b64(made.root),
        "key": made.key,
        "note": made.note,
    }
    return Reply(lambda: data, lambda: Exact(made.note.removesuffix("\n")))  # printed as it is signed
