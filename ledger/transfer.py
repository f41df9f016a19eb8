"""`export` / `import`: the whole log of a campaign as JSON Lines, one event a line, oldest first.

A line is `{"id", "topic", "originator_id", "originator_version", "state"}` where `state` is the
stored event state as JSON. Import re-checks everything (hashes, chains, outcomes) before it
writes, then inserts all events in one transaction straight from that state.
"""

from __future__ import annotations

import tempfile
from array import array
from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import IntegrityError, StoredEvent

from ..domain.errors import BadInput, Refusal
from ..domain.ids import event_id
from .history import notifications_at
from .mapper import event_from_state
from .verify import Verifier


def export_lines(session: Any) -> Iterator[bytes]:
    app, campaign = session.app, session.campaign
    app.index.catch_up()
    positions = [row[0] for row in app.index.log(campaign.id)]
    for notification in notifications_at(app, positions):
        state = app.mapper.decode_state(notification.state)
        yield orjson.dumps({
            "id": event_id(notification.originator_id, notification.originator_version),
            "topic": notification.topic,
            "originator_id": str(notification.originator_id),
            "originator_version": notification.originator_version,
            "state": state,
        }, option=orjson.OPT_SORT_KEYS)


def import_lines(app: Any, lines: Iterable[bytes | str]) -> dict[str, Any]:
    """Check every line, then write them all in one transaction; refuse (writing nothing) on any problem.

    Streaming, in bounded memory: the first pass verifies each line while copying it to a spool file
    (characters' histories are kept as offsets into it, for re-deriving amendments); the second pass
    reads the spool back and inserts its stored state in large chunks inside one transaction.
    """
    with tempfile.TemporaryFile() as spool:
        checker = _SpooledVerifier(spool)
        uuids: dict[Any, UUID] = {}
        count = 0
        for number, line in enumerate(lines, start=1):
            if isinstance(line, str):
                line = line.encode()
            if not line.strip():
                continue
            record = _parse(line, number)
            checker.offset = spool.tell()
            spool.write(line if line.endswith(b"\n") else line + b"\n")
            checker.feed(number, _decode(record, _uuid(uuids, record["originator_id"]), number))
            count += 1
        report = checker.report()
        if not report["ok"]:
            first = report["problems"][0]
            raise Refusal(f"the file does not verify: line {first['position']}: {first['problem']}"
                          f" ({len(report['problems'])} problem(s)); nothing was imported")
        spool.seek(0)
        _insert(app, _stored(app, spool))
    return {"events": count}


CHUNK = 5000


def _stored(app: Any, spool: Any) -> Iterator[list[StoredEvent]]:
    """The spooled lines as stored events, a chunk at a time: state re-serialised as the ledger stores it."""
    mapper = app.mapper
    seal = mapper._seal if (mapper.cipher or mapper.compressor) else None
    chunk: list[StoredEvent] = []
    uuids: dict[Any, UUID] = {}
    for line in spool:
        record = orjson.loads(line)
        state = orjson.dumps(record["state"])
        chunk.append(StoredEvent(originator_id=_uuid(uuids, record["originator_id"]),
                                 originator_version=record["originator_version"], topic=record["topic"],
                                 state=seal(state) if seal else state))
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _insert(app: Any, chunks: Iterator[list[StoredEvent]]) -> None:
    """All chunks in one transaction of the recorder's own datastore: any conflict rolls back everything."""
    recorder = app.recorder
    postgres = type(recorder).__module__.endswith("postgres")
    conflicts: tuple[type[BaseException], ...] = (IntegrityError,)
    if postgres:
        import psycopg

        conflicts += (psycopg.errors.IntegrityError,)
    else:
        from eventsourcing.sqlite import SQLiteAggregateRecorder
    try:
        with recorder.datastore.transaction(commit=True) as cursor:
            for chunk in chunks:
                if postgres:  # locks the table and notifies, then one INSERT ... FROM unnest(...)
                    recorder._insert_stored_events(cursor, chunk)
                else:  # one executemany (the application recorder would execute row by row for ids)
                    SQLiteAggregateRecorder._insert_events(recorder, cursor, chunk)
    except conflicts:
        raise Refusal("these events are already in the ledger (the campaign exists); nothing was imported") from None


class _Sink(list):  # type: ignore[type-arg]
    """A history that keeps nothing: the spooled verifier keeps offsets instead of events."""

    def append(self, _: Any) -> None:
        return None


class _SpooledVerifier(Verifier):
    """The Verifier, remembering where each character's lines are in the spool rather than the events."""

    def __init__(self, spool: Any) -> None:
        super().__init__()
        self.spool, self.offset = spool, 0
        self.offsets: dict[UUID, array[int]] = {}

    def _check(self, event: Any) -> str | None:
        problem = super()._check(event)
        owner = event.originator_id
        if owner in self.histories:
            if not isinstance(self.histories[owner], _Sink):
                self.histories[owner], self.offsets[owner] = _Sink(), array("q")
            self.offsets[owner].append(self.offset)
        return problem

    def _rederive_amendment(self, event: Any, events: list[Any]) -> str | None:
        return super()._rederive_amendment(event, self._recall(event.originator_id))

    def _recall(self, owner: UUID) -> list[Any]:
        end = self.spool.tell()
        found = []
        for offset in self.offsets.get(owner, ()):
            self.spool.seek(offset)
            record = orjson.loads(self.spool.readline())
            found.append(_decode(record, owner, 0))
        self.spool.seek(end)
        return found


def _uuid(known: dict[Any, UUID], text: Any) -> UUID:
    """UUID(text), parsed once per aggregate (a file has many events per aggregate)."""
    found = known.get(text) if isinstance(text, str) else None
    if found is None:
        found = UUID(text)
        known[text] = found
    return found


def _parse(line: bytes | str, number: int) -> dict[str, Any]:
    try:
        record = orjson.loads(line)
        keys = {"topic", "originator_id", "originator_version", "state"}
        if not isinstance(record, dict) or not keys <= set(record):
            raise ValueError(f"a line needs {sorted(keys)}")
        return record
    except (ValueError, orjson.JSONDecodeError) as error:
        raise BadInput(f"line {number}: not an exported event ({error})") from None


def _decode(record: dict[str, Any], originator: UUID, number: int) -> Any:
    try:  # upcast like the mapper, keeping the recorded content for the hash check
        return event_from_state(record["topic"], originator, record["originator_version"], dict(record["state"]), digest=True)
    except Exception as error:  # unreadable events are reported by the verifier as problems
        return error
