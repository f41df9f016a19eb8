"""`chronicle verify`: re-derive every outcome and check the hash chains."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..ledger.bulk import workers as bulk
from ..ledger.bulk.transfer import export_heads
from ..ledger.store.chronicle import open_ledger
from ..ledger.trust.digest import Against, parse
from ..ledger.trust.verify import PARALLEL_FROM, verify_side_by_side
from ..ledger.trust.verify import verify as check
from .context import Env
from .options import common
from .output import emit, table

if TYPE_CHECKING:
    from ..domain.campaign import Campaign
    from ..ledger.store.chronicle import Chronicle
    from ..ledger.trust.signed_note import Checkpoint


@click.command()
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processes checking the log side by side  [default: one per core on long logs]",
)
@click.option(
    "--digest",
    "noted",
    metavar="DIGEST",
    help="Also prove the log still extends what this digest (from `campaign show`) noted.",
)
@click.option(
    "--against",
    type=click.Path(dir_okay=False, exists=True),
    metavar="EXPORT",
    help="Also prove the log still extends this earlier export of the campaign.",
)
@click.option(
    "--require-signatures",
    "require",
    is_flag=True,
    help="An event recorded before chronicle signed what it records is a problem too.",
)
@click.option(
    "--witness",
    type=click.Path(dir_okay=False, exists=True),
    metavar="NOTE",
    help="Also prove, by an RFC 6962 consistency proof, that the log still extends this checkpoint (a note"
    " from `chronicle checkpoint`), or name the first event whose history changed.",
)
@common
@click.pass_context
def verify(
    ctx: click.Context, workers: int | None, noted: str | None, against: str | None, require: bool, witness: str | None
) -> None:
    """Re-derive every recorded outcome and check the log's tamper-evident hash chains, reading
    every row of the events table; the index and the characters read model are checked against it.

    Exits 1 when anything does not match, naming the log position.

    \b
    Example:
      chronicle verify --json
      chronicle verify --digest 412-3f9a0c...   (as `campaign show` printed it)
      chronicle verify --witness session-12.note   (as `checkpoint` printed it)
    """
    env = ctx.obj
    held = Against(export_heads(against) if against else None, parse(noted) if noted else None)
    session = env.read()
    session.app.index.catch_up()
    campaign_id = session.campaign.id
    note = _note(witness, session.campaign) if witness else None
    total = session.app.index.count(campaign_id)
    single = env.batch is not None or noted or against  # a digest's N-th event needs the campaign's whole order
    shares = 1 if single else workers or bulk.workers(total, PARALLEL_FROM)
    with _progress(env, total) as advance:
        if shares == 1:
            report = check(session, advance, held if (noted or against) else None, require)
        else:
            env.close()  # no connection is held while the workers are forked: each opens its own
            report = verify_side_by_side(functools.partial(open_ledger, env.db), campaign_id, shares, advance, require)
    witnessed(env.app, campaign_id, report, note)
    emit(env, report, lambda: told(report))
    if not report["ok"]:
        ctx.exit(1)


def told(report: dict[str, Any]) -> Any:
    """A report for people: ok and its counts, or a table of the problems; then the checkpoint's verdict."""
    return _with_witness(report, _human(report))


def _human(report: dict[str, Any]) -> Any:
    signed = f"; {report['signed']} signed, {report['unsigned']} unsigned" if report.get("unsigned") else ""
    if report["ok"]:
        return f"ok: {report['events']} events re-derived and chained{signed}"
    return table(
        f"{len(report['problems'])} problem(s) in {report['events']} events",
        ("position", "problem"),
        [(f"#{p['position']}", p["problem"]) for p in report["problems"]],
    )


def _note(path: str, campaign: Campaign) -> Checkpoint:
    """The checkpoint in the file at `path`: a note as `checkpoint` prints it, or its `--json` output."""
    from ..domain.errors import BadInput
    from ..ledger.trust.signed_note import MAX_NOTE, read

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


def witnessed(app: Chronicle, campaign_id: Any, report: dict[str, Any], note: Checkpoint | None) -> None:
    """The campaign's Merkle tree recomputed from the events and compared with the stored one, and
    with the checkpoint `note` when given (its part of the report: `witness`)."""
    from ..ledger.trust.witness import audit

    problems, witness = audit(app, campaign_id, note)
    if note is not None:
        report["witness"] = witness
    if problems:
        found = [*report["problems"], *({"position": p.position, "problem": p.problem} for p in problems)]
        report["problems"] = sorted(found, key=lambda p: p["position"])
        report["ok"] = False


def _with_witness(report: dict[str, Any], human: Any) -> Any:
    witness = report.get("witness")
    if not witness:
        return human
    signed = f"the checkpoint of {witness['size']} events signed by {witness['key']}"
    if witness["extends"] and witness["log"]["size"] == witness["size"]:
        line = f"The log is still the one of {signed}."
    elif witness["extends"]:
        proof = witness.get("proof")
        line = f"The log ({witness['log']['size']} events) extends {signed}" + (
            f": its consistency proof of {len(proof)} hash{'es' * (len(proof) != 1)} verifies."
            if proof is not None
            else "."
        )
    else:
        line = f"The log does not extend {signed}: its history changed at #{witness['position']}."
    if isinstance(human, str):
        return f"{human}\n{line}"
    from rich.console import Group

    return Group(human, line)


def _progress(env: Env, total: int) -> Any:
    """A progress bar on stderr for people on long logs; nothing with --json."""
    import contextlib

    if env.json or total < 2000:
        return contextlib.nullcontext(None)
    from rich.progress import Progress

    @contextlib.contextmanager
    def bar() -> Any:
        with Progress(transient=True, console=_stderr()) as progress:
            task = progress.add_task("verifying", total=total)
            yield lambda n: progress.advance(task, n)

    return bar()


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)
