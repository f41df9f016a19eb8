"""Checking an exported file before it is imported, a share of its aggregates per worker process.

Every line is checked like `verify` checks the log (hash, chain, re-derived outcome). A line
belongs to the share of its aggregate: the last hex digit of its `originator_id`, read from the
line's text when it has the export's own form, else from its parsed JSON. Every worker reads the
whole input and checks the lines of its own share, so every line is checked by exactly one
worker, after every earlier line of its aggregate. Each worker streams the events it checked, in
the form they will be stored, in the input's order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, cast
from uuid import UUID

import orjson

from ...domain.amendments import Amended
from ...domain.campaign import CampaignStarted
from ...domain.character import Character, CharacterRegistered
from ...domain.errors import BadInput
from ...domain.events import Event
from ...domain.growth import CharacterRenamed
from ...domain.limits import INT64_MAX
from ...domain.text import check_json
from ...projections.told import told_row
from ..store.mapper import checked_event, event_from_state
from ..store.snapshots import of_folded
from ..trust.signatures import SignatureCheck
from ..trust.verify import Verifier, is_aggregate_topic, is_event_topic

CHUNK = 1000
KEYS = {"topic", "originator_id", "originator_version", "state"}
MARK = b'"originator_id":"'
HEX = [bytes([digit]) for digit in b"0123456789abcdefABCDEF"]
CLOSING = b'{"closing":'  # the export's last line: its count of events and their digest (ledger/bulk/transfer.py)
# line number, aggregate id (hex), version, topic, stored state, and how `log` tells it: (name, by, told,
# amended) as projections/told.py keeps it, or None (an encrypted ledger's sentences are not kept in the clear)
Told = tuple[str, str, str, str | None]
Checked = tuple[int, str, int, str, bytes, Told | None]
# an event that gives a name (ledger/bulk/names.py checks them once every share is done): line number, what it
# does ("started" a campaign, "registered" or "renamed" a character), aggregate, the name, and for a
# registration the campaign it was registered in
Named = tuple[int, str, UUID, str, UUID | None]


@dataclass
class ShareReport:
    lines: int = 0
    problems: list[dict[str, Any]] = field(default_factory=list)
    bad_line: tuple[int, str] | None = None  # the first line that is not an exported event, and why
    closings: int = 0  # closing lines seen (counted by share 0)
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)  # aggregate -> its last (version, hash)
    campaigns: set[str] = field(default_factory=set)  # campaigns started in the file
    owners: set[str] = field(default_factory=set)  # campaigns its other aggregates were created in
    snapshots: list[Any] = field(default_factory=list)  # of its long characters, as checked (ledger/store/snapshots.py)
    names: list[Named] = field(default_factory=list)  # its campaign's and characters' names, as given (`_note`)
    signatures: dict[str, Any] = field(default_factory=dict)  # what the log-order check of signatures needs


LONGEST_LINE = 1 << 24  # bytes of an export's line: no event is near it; a longer line is bad input


def share_of(line: bytes, shares: int) -> int:
    if shares == 1:
        return 0
    at = line.find(MARK) + len(MARK)
    digit = line[at + 35 : at + 36] if at >= len(MARK) and line[at + 36 : at + 37] == b'"' else b""
    if not digit:
        try:
            digit = str(orjson.loads(line).get("originator_id", ""))[-1:].encode()
        except (orjson.JSONDecodeError, AttributeError):
            return 0  # share 0 reports the line
    try:
        return int(digit, 16) % shares
    except ValueError:
        return 0


def check_share(
    path: str, k: int, shares: int, tell: bool, progress: Callable[[float], None]
) -> Generator[list[Checked], None, ShareReport]:
    """Check the lines of share `k` of `shares` in the file at `path`, yielding them a chunk at a
    time in the form they will be stored, with the sentences `log` tells of each if `tell`; returns
    the share's report."""
    report = ShareReport()
    ours = {digit + b'"': int(digit, 16) % shares == k for digit in HEX}  # the export's form: its id's last digit
    with open(path, "rb") as source, open(path, "rb") as again:
        verifier = Verifier(lambda offsets: list(_read_back(again, offsets)))
        signatures = SignatureCheck(*_campaign_of(path))
        feed, loads = verifier.feed, orjson.loads
        uuids: dict[str, tuple[UUID, str, str]] = {}
        chunk: list[Checked] = []
        offset = 0
        for number, line in enumerate(iter(functools.partial(source.readline, LONGEST_LINE + 1), b""), start=1):
            if len(line) > LONGEST_LINE:  # (a file with no line ends, /dev/zero: never read whole)
                report.bad_line = (
                    number,
                    f"line {number} is longer than {LONGEST_LINE:,} bytes: not an exported event",
                )
                break
            start, offset = offset, offset + len(line)
            if line.startswith(CLOSING):
                report.closings += k == 0
                continue
            at = line.find(MARK) + len(MARK)
            mine = ours.get(line[at + 35 : at + 37]) if at >= len(MARK) else None
            if mine is None:  # not in the export's own form
                mine = not line.isspace() and share_of(line, shares) == k
            if not mine:
                continue
            try:
                record = loads(line)
                topic, text, version, state = (
                    record["topic"],
                    record["originator_id"],
                    record["originator_version"],
                    record["state"],
                )
            except (orjson.JSONDecodeError, TypeError, KeyError):  # not an object with the export's keys
                report.bad_line = (number, str(_not_an_event(line, number)))
                break
            try:
                originator, text, hexed = _uuid(uuids, text, number)
                _version(version, number)
                stored = _stored(record, number)
            except BadInput as error:
                report.bad_line = (number, str(error))
                break
            event: Event | Exception
            digest: str | None
            try:  # unreadable events are reported by the verifier as problems
                event, digest = checked_event(topic, originator, version, state, text)
            except Exception as error:
                event, digest = error, None
            reported = len(verifier.problems)
            feed(number, event, digest, where=start)
            if len(verifier.problems) == reported and not isinstance(event, Exception):
                unsigned = signatures.feed(number, event)  # each signature against its document and key
                if unsigned:
                    verifier.problems.append({"position": number, "problem": unsigned})
            _note(report, number, text, version, state, event)
            chunk.append((number, hexed, version, topic, stored, _told(verifier, event) if tell else None))
            if len(chunk) == CHUNK:
                yield chunk
                progress(len(chunk))
                chunk = []
        if chunk:
            yield chunk
    report.lines, report.problems = verifier.count, verifier.problems
    report.signatures = signatures.report()
    if not report.problems and report.bad_line is None:  # (else nothing is imported)
        report.snapshots = of_folded(chain.state for chain in verifier.chains.values())
    return report


def _campaign_of(path: str) -> tuple[UUID, str | None]:
    """The id and system of the campaign an export starts (its first line), for checking signatures; a
    file that starts otherwise is refused by the checks of its lines."""
    with open(path, "rb") as source:
        first = source.readline(1 << 20)
    try:
        record = orjson.loads(first)
        return UUID(str(record["originator_id"])), str(record["state"].get("system")) or None
    except (orjson.JSONDecodeError, TypeError, KeyError, ValueError, AttributeError):
        return UUID(int=0), None


def _told(verifier: Verifier, event: Event | Exception) -> Told | None:
    """How `log` tells the event, as a command that recorded it keeps it (ledger/application/session.py): with its
    character's name after it ("" for the campaign's own); None for an event that cannot be told (one
    that does not verify either: the import is refused), and for a correction, whose sentences name log
    positions this ledger gives only as the import inserts: `log` tells it from the event."""
    if isinstance(event, (Exception, Amended)):
        return None
    chain = verifier.chains.get(event.originator_id)
    owner = chain.state if chain else None
    if owner is None:
        return None
    try:
        _, *told = told_row(0, event, owner.name if isinstance(owner, Character) else "", owner.system)
    except Exception:  # noqa: BLE001 - reported by the checks if the event is wrong; else `log` tells it anew
        return None
    return cast(Told, tuple(told))


def _version(version: Any, number: int) -> None:
    """A version is a whole number from 1 (as JSON holds one: "2" is text, and would be hashed as text)."""
    if type(version) is not int or not 1 <= version <= INT64_MAX:
        shown = orjson.dumps(version).decode()[:40]
        raise BadInput(f"line {number}: not an exported event (its originator_version {shown} is no whole number)")


def _stored(record: dict[str, Any], number: int) -> bytes:
    """The line's state as it will be stored, once its topics are known to be chronicle's own classes
    (resolving any other would import an arbitrary module) and its texts are checked."""
    if not isinstance(record["topic"], str) or not is_event_topic(record["topic"]):
        raise BadInput(f"line {number}: not an exported event (unknown topic {str(record['topic'])[:80]!r})")
    state = record["state"]
    if not isinstance(state, dict):
        raise BadInput(f"line {number}: not an exported event (its state is not an object)")
    if "originator_topic" in state and not (
        isinstance(state["originator_topic"], str) and is_aggregate_topic(state["originator_topic"])
    ):
        raise BadInput(
            f"line {number}: not an exported event (unknown aggregate {str(state['originator_topic'])[:80]!r})"
        )
    data = orjson.dumps(state)
    try:
        check_json(data)
    except BadInput as error:
        raise BadInput(f"line {number}: {error}") from None
    return data


def _note(
    report: ShareReport, number: int, originator: str, version: int, state: dict[str, Any], event: Event | Exception
) -> None:
    """What the whole file is checked for once every share is done: its campaign, its heads, and the
    names its events give."""
    head = state.get("hash")
    report.heads[originator] = (version, head if isinstance(head, str) else "")
    if isinstance(event, Exception):
        return
    if version == 1:
        owner = getattr(event, "campaign_id", None)
        if owner is None:
            report.campaigns.add(originator)
        else:
            report.owners.add(str(owner))
    if isinstance(event, CampaignStarted):
        report.names.append((number, "started", event.originator_id, event.name, None))
    elif isinstance(event, CharacterRegistered):
        report.names.append((number, "registered", event.originator_id, event.name, event.campaign_id))
    elif isinstance(event, CharacterRenamed):
        report.names.append((number, "renamed", event.originator_id, event.name, None))


def _read_back(source: BinaryIO, offsets: list[int]) -> Iterator[Event]:
    """The events at these offsets of the file (those that cannot be read were reported already)."""
    for offset in offsets:
        source.seek(offset)
        try:
            record = orjson.loads(source.readline())
            owner = UUID(record["originator_id"])
            yield event_from_state(record["topic"], owner, record["originator_version"], record["state"])
        except Exception:  # noqa: BLE001
            continue


def _uuid(known: dict[str, tuple[UUID, str, str]], text: Any, number: int) -> tuple[UUID, str, str]:
    """UUID(text), its canonical text and its hex, made once per aggregate (a file has many events per aggregate)."""
    found = known.get(text) if isinstance(text, str) else None
    if found is None:
        try:
            ident = UUID(text)
        except (TypeError, ValueError, AttributeError):
            raise BadInput(f"line {number}: not an exported event (originator_id is not a UUID)") from None
        found = known[text] = (ident, str(ident), ident.hex)
    return found


def _not_an_event(line: bytes, number: int) -> BadInput:
    """Why a line that is not an object with the export's keys is no exported event."""
    try:
        orjson.loads(line)
        reason = f"a line needs {sorted(KEYS)}"
    except orjson.JSONDecodeError as error:
        reason = str(error)
    return BadInput(f"line {number}: not an exported event ({reason})")
