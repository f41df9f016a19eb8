"""`export` / `import`: the whole log of a campaign as JSON Lines, one event a line, oldest first.

A line is `{"id", "topic", "originator_id", "originator_version", "state"}` where `state` is the
stored event state as JSON. Import re-checks everything (hashes, chains, outcomes) before it
writes, then inserts all events in one transaction straight from that state.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import operator
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent

from ..domain.errors import BadInput, Refusal
from ..domain.ids import event_id
from . import bulk
from .history import campaign_notifications
from .importing import Checked, ShareReport, check_share


def export_lines(session: Any) -> Iterator[bytes]:
    app = session.app
    for _, notification in campaign_notifications(app, session.campaign.id):
        if notification is None:
            continue  # indexed, gone from the log since: `verify` reports it
        state = app.mapper.decode_state(notification.state)
        yield orjson.dumps({
            "id": event_id(notification.originator_id, notification.originator_version),
            "topic": notification.topic,
            "originator_id": str(notification.originator_id),
            "originator_version": notification.originator_version,
            "state": state,
        }, option=orjson.OPT_SORT_KEYS)


def import_lines(open_app: Callable[[], Any], source: BinaryIO, workers: int | None = None) -> dict[str, Any]:
    """Check every line and write them all in one transaction; refuse (writing nothing) on any problem.

    Streaming, in bounded memory: worker processes each read the file and check a share of its
    aggregates (ledger/importing.py), and the events they checked are inserted, in the file's
    order, while they check the rest; the transaction commits only when every line has passed.
    `open_app()` opens the ledger: it is checked first, then opened again once the workers are
    forked."""
    open_app().close()  # a bad target is reported before any work
    with _as_file(source) as path:
        shares = workers or bulk.workers(os.path.getsize(path), PARALLEL_FROM)
        jobs = [functools.partial(check_share, path, k, shares) for k in range(shares)]
        with bulk.Workers(jobs) as checking:
            app = open_app()
            try:
                with bulk.paused_gc():
                    _insert(app, in_line_order(checking.outputs), lambda: _refuse_unless_ok(checking.results()))
            finally:
                app.close()
            lines = sum(report.lines for report in checking.results())
    return {"events": lines}


PARALLEL_FROM = 4_000_000  # bytes of input (some 5,000 events): below it, one process checks them all


@contextlib.contextmanager
def _as_file(source: BinaryIO) -> Iterator[str]:
    """A path to the input that every worker can open and read for itself: the input's own file,
    else (stdin, a pipe) a copy of it in a temporary file."""
    name = getattr(source, "name", None)
    try:
        itself = isinstance(name, str) and os.path.samestat(os.fstat(source.fileno()), os.stat(name))
    except (OSError, ValueError):
        itself = False
    if itself:
        yield name
        return
    with tempfile.NamedTemporaryFile(prefix="chronicle-import-", suffix=".jsonl") as copy:
        shutil.copyfileobj(source, copy, 1 << 20)
        copy.flush()
        yield copy.name


def _refuse_unless_ok(reports: list[ShareReport]) -> None:
    """The first line that is not an exported event is bad input; else any problem is a refusal."""
    bad = sorted(report.bad_line for report in reports if report.bad_line)
    if bad:
        raise BadInput(bad[0][1])
    problems = sorted((p for report in reports for p in report.problems), key=lambda p: p["position"])
    if problems:
        first = problems[0]
        raise Refusal(f"the file does not verify: line {first['position']}: {first['problem']}"
                      f" ({len(problems)} problem(s)); nothing was imported")


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


def _insert(app: Any, chunks: Iterator[list[Checked]], before_commit: Callable[[], None]) -> None:
    """The checked events, sealed as the ledger stores them, in one transaction of the recorder's own
    datastore, a chunk at a time: any conflict, or an error raised by `before_commit()`, rolls
    back everything."""
    recorder, mapper = app.recorder, app.mapper
    sealing = mapper.cipher or mapper.compressor
    postgres = type(recorder).__module__.endswith("postgres")
    conflicts: tuple[type[BaseException], ...] = (IntegrityError,)
    if postgres:
        import psycopg

        conflicts += (psycopg.errors.IntegrityError,)
    # the row the library's SQLite recorder inserts, from the 2nd to 5th items of a checked line
    insert = f"INSERT INTO {recorder.events_table_name} VALUES (?2, ?3, ?4, ?5)"
    try:
        with recorder.datastore.transaction(commit=True) as cursor:
            for chunk in chunks:
                if sealing:
                    chunk = [(n, oid, version, topic, mapper._seal(state)) for n, oid, version, topic, state in chunk]
                if postgres:  # locks the table and notifies, then one INSERT ... FROM unnest(...)
                    recorder._insert_stored_events(cursor, [
                        StoredEvent(originator_id=UUID(hex=oid), originator_version=version, topic=topic, state=state)
                        for _, oid, version, topic, state in chunk])
                else:
                    cursor.executemany(insert, chunk)
            before_commit()
    except conflicts:
        raise Refusal("these events are already in the ledger (the campaign exists); nothing was imported") from None
    if postgres:  # fresh statistics for the planner, as after any bulk load (else it sorted whole logs to page them)
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"ANALYZE {app.views.events[0]}")
