"""`export` / `import`: the whole log of a campaign as JSON Lines, one event a line, oldest first.

A line is `{"id", "topic", "originator_id", "originator_version", "state"}` where `state` is the
stored event state as JSON. The last line closes the export: `{"closing": {"events": N, "digest":
HEX}}`, its number of events and the digest of its aggregates' heads (ledger/trust/digest.py), so a file
cut short, even at a line boundary, is refused. Import re-checks everything (hashes, chains,
outcomes, that every event is of the one campaign the file starts) before it writes, then inserts
all events in one transaction straight from that state.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import operator
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, BinaryIO
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import get_topic

from ...domain.campaign import CampaignStarted
from ...domain.errors import BadInput, ChronicleError, Refusal
from ...domain.ids import event_id
from ...projections.catchup import catch_up
from ...projections.store import aggregate_id
from ..application.views.history import campaign_notifications
from ..store import snapshots
from ..store.mapper import mapper_of
from ..trust import digest, tree
from ..trust.fair_dice import settle as settle_dice
from ..trust.signatures import in_log_order
from . import names, rebuild
from . import workers as bulk
from .importing import CLOSING, LONGEST_LINE, Checked, ShareReport, check_share

if TYPE_CHECKING:
    from ..application.session import Session
    from ..store.chronicle import Chronicle

CATCH_UP = 20000  # events a page when an import into a ledger in use catches its read models up


def export_lines(session: Session) -> Iterator[bytes]:
    """The campaign's lines, then the closing line. An index that lacks events of the log is one clear
    error before any line, never an export without them; so is an aggregate whose versions
    the index gives out of turn."""
    app = session.app
    app.index.catch_up()
    lacking = app.index.lacking()
    if lacking:
        raise Incomplete(f"the index lacks {lacking} event(s) of the log")
    heads: dict[UUID, tuple[int, str]] = {}
    for _, notification in campaign_notifications(app, session.campaign.id, catch_up=False):
        if notification is None:
            continue  # indexed, gone from the log since: `verify` reports it
        version = notification.originator_version
        if version != heads.get(notification.originator_id, (0, ""))[0] + 1:
            raise Incomplete(
                f"the log or its index lacks version {version - 1} of an aggregate whose version {version} it holds",
                "`chronicle verify` names what the log lacks; `chronicle rebuild` restores an index that lost events",
            )
        state = mapper_of(app).decode_state(notification.state)
        heads[notification.originator_id] = (notification.originator_version, state.get("hash", ""))
        yield orjson.dumps(
            {
                "id": event_id(notification.originator_id, notification.originator_version),
                "topic": notification.topic,
                "originator_id": str(notification.originator_id),
                "originator_version": notification.originator_version,
                "state": state,
            },
            option=orjson.OPT_SORT_KEYS,
        )
    yield closing_line(heads)


class Incomplete(ChronicleError):
    """An export refused because the index it reads the campaign's events from lacks some."""

    code = "read_models"

    def __init__(self, problem: str, remedy: str = "run `chronicle rebuild`, then export again"):
        super().__init__(f"{problem}: nothing was exported; {remedy}")


def closing_line(heads: dict[UUID, tuple[int, str]]) -> bytes:
    listed = [(ident, version, head) for ident, (version, head) in heads.items()]
    return orjson.dumps({"closing": {"events": sum(v for _, v, _ in listed), "digest": digest.of_heads(listed)}})


def export_heads(path: str) -> dict[UUID, tuple[int, str]]:
    """Each aggregate's last (version, hash) in an export (for `verify --against`); the file must be whole."""
    heads: dict[UUID, tuple[int, str]] = {}
    closed = None
    with open(path, "rb") as source:
        for number, line in enumerate(iter(functools.partial(source.readline, LONGEST_LINE + 1), b""), start=1):
            if len(line) > LONGEST_LINE:  # (a file with no line ends, /dev/zero: never read whole)
                raise BadInput(f"{path}: line {number} is longer than {LONGEST_LINE:,} bytes: not an export")
            if line.isspace():
                continue
            if closed is not None:
                raise BadInput(f"{path}: line {number} follows the export's closing line")
            try:
                record = orjson.loads(line)
                if line.startswith(CLOSING):
                    closed = record["closing"]
                    continue
                heads[UUID(record["originator_id"])] = (int(record["originator_version"]), str(record["state"]["hash"]))
            except (ValueError, KeyError, TypeError, AttributeError):
                raise BadInput(f"{path}: line {number} is not an exported event") from None
    _check_closing(closed, heads, path)
    return heads


def _check_closing(closed: object, heads: dict[UUID, tuple[int, str]] | dict[str, tuple[int, str]], path: str) -> None:
    if closed is None:
        raise BadInput(
            f"{path} has no closing line: it was cut short (or made before exports had one); nothing was imported"
        )
    listed = [(UUID(str(ident)), version, head) for ident, (version, head) in heads.items()]
    if not isinstance(closed, dict) or closed.get("events") != sum(v for _, v, _ in listed):
        raise BadInput(
            f"{path}: its closing line counts {closed.get('events') if isinstance(closed, dict) else '?'}"
            f" events, the file holds {sum(v for _, v, _ in listed)}: it is not whole"
        )
    if closed.get("digest") != digest.of_heads(listed):
        raise BadInput(f"{path}: its closing line's digest does not match its events: it is not whole")


def import_lines(open_app: Callable[..., Chronicle], source: BinaryIO, workers: int | None = None) -> dict[str, Any]:
    """Check every line and write them all in one transaction; refuse (writing nothing) on any problem.

    Streaming, in bounded memory: worker processes each read the file and check a share of its
    aggregates (ledger/bulk/importing.py), and the events they checked are inserted, in the file's
    order, while they check the rest; the transaction commits only when every line has passed.
    The sentences `log` tells of each event are kept with them, as a command keeps those of the events
    it records; then the read models are brought up to date, as after any write (`_read_models`).
    `open_app()` opens the ledger (`open_ledger`): it is checked first, then opened again once the
    workers are forked."""
    app = open_app()  # a bad target is reported before any work
    try:
        tell = mapper_of(app).cipher is None  # (an encrypted ledger's sentences stay sealed)
        if tell:
            app.told  # its table, made before the import's transaction  # noqa: B018
        app.index.catch_up()  # the campaigns' names, as `_campaign_names` reads them, are then its rows
    finally:
        app.close()
    name = getattr(source, "name", None)
    shown = name if isinstance(name, str) and name not in ("-", "<stdin>") else "the input"
    with _as_file(source) as path:
        shares = workers or bulk.workers(os.path.getsize(path), PARALLEL_FROM)
        jobs = [functools.partial(check_share, path, k, shares, tell) for k in range(shares)]
        with bulk.Workers(jobs) as checking:
            app = open_app()
            campaigns = functools.partial(_campaign_names, app)
            try:
                with bulk.paused_gc():
                    whole = functools.partial(_refuse_unless_ok, path=path, shown=shown, campaigns=campaigns)
                    _insert(app, in_line_order(checking.outputs), lambda: whole(checking.results()))
                # committed: the checks' own folds of long characters, so no first load folds all of one
                snapshots.keep(app, [taken for report in checking.results() for taken in report.snapshots])
            finally:
                app.close()
            lines = sum(report.lines for report in checking.results())
            started = set().union(*(report.campaigns for report in checking.results()))
    _read_models(open_app, workers)
    _witness(open_app, started)
    return {"events": lines}


def _witness(open_app: Callable[..., Chronicle], campaigns: set[str]) -> None:
    """Grow the imported campaign's stored Merkle tree now, as the import's last step: else the first
    write after it, a roll as likely as any, would hash every imported event before it could note the
    head it saw (some 13 s after an import of a million events)."""
    app = open_app()
    try:
        for campaign in campaigns:
            tree.extend(app, UUID(campaign))
    finally:
        app.close()


def _read_models(open_app: Callable[..., Chronicle], workers: int | None) -> None:
    """Fold the imported events into the read models now, as a command does its own: else the first
    command after the import, a `character show` as likely as any, would fold every one of them.
    Into a ledger whose read models hold nothing yet (a new file: the usual import), they are built
    the way `rebuild` builds them, by worker processes side by side; else caught up in this one."""
    app = open_app()
    try:
        empty = app.index.position() == 0 and app.characters.position() == 0
        if not (empty and app.feed.last() >= rebuild.PARALLEL_FROM):
            catch_up([app.index, app.characters], batch_size=CATCH_UP)
            return
    finally:
        app.close()
    rebuild.rebuild(open_app, rebuild.PROJECTIONS, workers, keep_told=True)


def _whole(reports: list[ShareReport], path: str, shown: str) -> None:
    """The file ends with its closing line, which matches its events, and they are one campaign's."""
    heads = {ident: head for report in reports for ident, head in report.heads.items()}
    closed = None
    if reports[0].closings > 1:
        raise BadInput(f"{shown} holds {reports[0].closings} closing lines: several exports put together")
    if reports[0].closings:
        try:
            closed = orjson.loads(_last_line(path))
        except orjson.JSONDecodeError:
            raise BadInput(f"{shown}: its closing line is cut short; nothing was imported") from None
        closed = closed.get("closing") if isinstance(closed, dict) else None
        if closed is None:
            raise BadInput(f"{shown}: events follow its closing line")
    _check_closing(closed, heads, shown)
    campaigns = set().union(*(report.campaigns for report in reports))
    owners = set().union(*(report.owners for report in reports))
    if len(campaigns) != 1:
        raise Refusal(f"the file starts {len(campaigns)} campaigns: an export holds exactly one; nothing was imported")
    if owners - campaigns:
        raise Refusal("the file holds characters of another campaign than the one it starts; nothing was imported")


def _last_line(path: str) -> bytes:
    with open(path, "rb") as source:
        source.seek(max(0, os.path.getsize(path) - 4096))
        lines = [line for line in source.read().splitlines() if line.strip()]
    return lines[-1] if lines else b""


PARALLEL_FROM = 4_000_000  # bytes of input (some 5,000 events): below it, one process checks them all


@contextlib.contextmanager
def _as_file(source: BinaryIO) -> Iterator[str]:
    """A path to the input that every worker can open and read for itself: the input's own file,
    else (stdin, a pipe) a copy of it in a temporary file."""
    name = getattr(source, "name", None)
    if isinstance(name, str) and _is_file_of(source, name) and os.path.isfile(name):  # (not a device: /dev/zero)
        yield name
        return
    with tempfile.NamedTemporaryFile(prefix="chronicle-import-", suffix=".jsonl") as copy:
        _copy_lines(source, copy)
        copy.flush()
        yield copy.name


def _copy_lines(source: BinaryIO, copy: IO[bytes]) -> None:
    """Copy a stream whose lines are each at most LONGEST_LINE bytes: a longer one is bad input (a
    stream with no line ends, /dev/zero, stops there instead of filling the disk)."""
    run = 0  # bytes since the last line end
    while chunk := source.read(1 << 20):
        copy.write(chunk)
        end = chunk.rfind(b"\n")
        run = len(chunk) - end - 1 if end >= 0 else run + len(chunk)
        if run > LONGEST_LINE:
            raise BadInput(f"the input holds a line longer than {LONGEST_LINE:,} bytes: not an export")


def _is_file_of(source: BinaryIO, name: str) -> bool:
    try:
        return os.path.samestat(os.fstat(source.fileno()), os.stat(name))
    except (OSError, ValueError):
        return False


def _refuse_unless_ok(
    reports: list[ShareReport], path: str, shown: str, campaigns: Callable[[set[str]], list[str]]
) -> None:
    """The first line that is not an exported event is bad input, as is a file that is not whole;
    else any problem is a refusal, a name a command would not have given too (`campaigns(ids)`: the
    names of the ledger's campaigns but those)."""
    bad = sorted(report.bad_line for report in reports if report.bad_line)
    if bad:
        raise BadInput(bad[0][1])
    _whole(reports, path, shown)
    campaign = next((n[3] for report in reports for n in report.names if n[1] == "started"), "of the file")
    _, _, refused = in_log_order([report.signatures for report in reports], campaign, require=False)
    _, unfair = settle_dice([report.dice for report in reports], "line {}".format)
    problems = sorted(
        [*(p for report in reports for p in report.problems), *refused, *unfair], key=lambda p: p["position"]
    )
    if problems:
        first = problems[0]
        raise Refusal(
            f"the file does not verify: line {first['position']}: {first['problem']}"
            f" ({len(problems)} problem(s)); nothing was imported"
        )
    started = set().union(*(report.campaigns for report in reports))
    names.check((named for report in reports for named in report.names), campaigns(started))


def _campaign_names(app: Chronicle, leaving: set[str]) -> list[str]:
    """The names of the ledger's campaigns, but those of ids `leaving`: the index's, and those started in
    the log after its position (caught up before the import, it has few if any)."""
    index = app.index
    found = [name for ident, name, _ in index.campaigns() if ident not in leaving]
    table, at = app.views.events
    decode = mapper_of(app).decode_state
    for ident, state in app.views.query(
        f"SELECT originator_id, state FROM {table} WHERE {at} > ? AND topic = ?",  # noqa: S608 - the library's names
        (index.position(), get_topic(CampaignStarted)),
    ):
        if str(aggregate_id(ident)) not in leaving:
            found.append(decode(bytes(state))["name"])
    return found


def in_line_order(streams: list[Iterator[list[Checked]]]) -> Iterator[list[Checked]]:
    """The workers' chunks (each stream in line order) as chunks in the file's line order: the
    lines that every stream still running has passed are sorted together (runs, for `sort`) and
    handed on; the rest wait for the next round."""
    buffers: list[list[Checked]] = [[] for _ in streams]
    running = set(range(len(streams)))
    while running:
        for k in sorted(running):
            while not buffers[k]:
                chunk = next(streams[k], None)
                if chunk is None:
                    running.discard(k)
                    break
                buffers[k] = chunk
        limit = min((buffers[k][-1][0] for k in running), default=None)
        ready: list[Checked] = []
        for k, buffer in enumerate(buffers):
            cut = len(buffer) if limit is None else bisect.bisect_right(buffer, limit, key=LINE)
            ready += buffer[:cut]
            buffers[k] = buffer[cut:]
        if ready:
            ready.sort(key=LINE)
            yield ready


LINE = operator.itemgetter(0)


def _insert(app: Chronicle, chunks: Iterator[list[Checked]], before_commit: Callable[[], None]) -> None:
    """The checked events, sealed as the ledger stores them, in one transaction of the recorder's own
    datastore, a chunk at a time: any conflict, or an error raised by `before_commit()`, rolls
    back everything."""
    recorder: Any = app.recorder  # a SealedRecorder of the library's SQLite or PostgreSQL recorder
    mapper = mapper_of(app)
    sealing = mapper.cipher or mapper.compressor
    postgres = type(recorder).__module__.endswith("postgres")
    conflicts: tuple[type[BaseException], ...] = (IntegrityError,)
    if postgres:
        import psycopg

        conflicts += (psycopg.errors.IntegrityError,)
    # the row the library's SQLite recorder inserts: the 2nd to 5th items of a checked line
    insert = f"INSERT INTO {recorder.events_table_name} VALUES (?, ?, ?, ?)"
    try:  # waiting its turn for the write lock (SQLite), not failing as busy at its first insert
        with app.unit(immediate=True), recorder.datastore.transaction(commit=True) as cursor:
            if not postgres:  # the PostgreSQL recorder checks in `_insert_stored_events` (ledger/store/sealing.py)
                recorder.check_sealing(cursor)
            for chunk in chunks:
                rows = [
                    (oid, version, topic, mapper._seal(state) if sealing else state)
                    for _, oid, version, topic, state, _ in chunk
                ]
                if postgres:  # locks the table and notifies, then one INSERT ... FROM unnest(...) RETURNING
                    recorder._insert_stored_events(
                        cursor,
                        [
                            StoredEvent(
                                originator_id=UUID(hex=oid), originator_version=version, topic=topic, state=state
                            )
                            for oid, version, topic, state in rows
                        ],
                    )
                    positions: Sequence[int] = [row["notification_id"] for row in cursor.fetchall()]
                else:
                    cursor.executemany(insert, rows)
                    # its rows' positions: rowids one after another, as no other writer can insert meanwhile
                    cursor.execute("SELECT last_insert_rowid()")
                    last = cursor.fetchone()[0]
                    positions = range(last - len(rows) + 1, last + 1)
                told = [(at, *line[5]) for at, line in zip(positions, chunk, strict=True) if line[5] is not None]
                app.views.insert(cursor, "chronicle_told", told)
            before_commit()
    except conflicts:
        raise Refusal("these events are already in the ledger (the campaign exists); nothing was imported") from None
    if postgres:  # fresh statistics for the planner, as after any bulk load (else it sorted whole logs to page them)
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"ANALYZE {app.views.events[0]}")
