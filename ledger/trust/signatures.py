"""What `verify` checks of signatures: each one against its document, nonce, campaign and key (in the
workers, event by event), then, in log order, that the key was its author's at that point of the log
and that the author's role allowed the command (the participants as they were then).

An Ed25519 verification costs more than re-deriving an event: `verify` in one process defers them
(`Deferred`), and a forked helper process checks them while the log is re-derived, each distinct
signature of a message once.

A join (`participant join`) is signed by a key no participant holds yet: its authority is an invitation a
gm recorded before it. It stands when the token it shows hashes to an invitation still open then (not
taken up, not expired), and its event makes exactly that invitation's participant, with the signing key."""

from __future__ import annotations

import os
import weakref
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast
from uuid import UUID

from ...domain.campaign import CampaignStarted
from ...domain.errors import ChronicleError
from ...domain.events import DomainEvent
from ...domain.participants import (
    INVITATION_HOLDS,
    Participant,
    ParticipantInvited,
    ParticipantRemoved,
    ParticipantSet,
    Role,
    authorise,
    invitation_hash,
)
from .signing import message_of, verifies

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

JOIN = "participant join"
INVITED = "invitation"  # a join's role in `signers`, its "character" the hash of the token it shows

Invitations = dict[str, dict[str, Any]]  # open invitations' events, by their token's hash


class SignatureCheck:
    """One share's part: every signature checked, and what the log-order check needs kept, compactly.

    `deferred`: the signatures are checked at `settle` (their problems are its), meanwhile in a helper
    process when `helper` allows one (verify in one process); else each as it is fed (a share's worker,
    an import's)."""

    def __init__(self, campaign_id: UUID, system: str | None, deferred: bool = False, helper: bool = False):
        self.campaign_id, self.system = campaign_id, system
        self.unsigned = 0
        self.signers: list[
            tuple[int, str, str, str, str | None, str]
        ] = []  # (position, by, key, role, character, command)
        self.changes: list[tuple[int, str, dict[str, Any]]] = []  # the campaign's participant events
        # deferred: each signature's event waits as (its entry in `signers`, its aggregate, its author)
        self._deferred: Deferred[tuple[int, UUID, str]] | None = Deferred(helper) if deferred else None
        self._last: tuple[str, str, bytes, bool] | None = None  # the last check and its answer (a command's events)

    def feed(self, position: int, event: DomainEvent) -> str | None:
        """A problem with EVENT's signature, or None (deferred: to `settle`); keeps what the log-order check needs."""
        participants = (ParticipantSet, ParticipantRemoved, ParticipantInvited)
        if isinstance(event, participants) and event.originator_id == self.campaign_id:
            self.changes.append((position, type(event).__name__, event.model_dump(mode="json")))
        elif isinstance(event, CampaignStarted) and event.gm_key is not None:  # its creator, the first gm
            creator = {"name": event.by, "role": "gm", "plays": [], "key": event.gm_key}
            self.changes.append((position, ParticipantSet.__name__, creator))
        signed = event.signed
        if signed is None:
            self.unsigned += 1
            return None
        signed_message = message_of(signed, self.campaign_id)
        if signed_message is not None and self._deferred is not None:
            waiter = (len(self.signers), event.originator_id, event.by)
            self.signers.append((position, event.by, signed.key, *_asked(signed.document, self.system)))
            self._deferred.add(signed.key, signed.signature, signed_message, waiter)
            return None
        if signed_message is None or not self._verifies(signed.key, signed.signature, signed_message):
            self.signers.append((position, event.by, signed.key, "invalid", None, ""))
            return _refused(signed.key, event.by)
        role, character, command = _asked(signed.document, self.system)
        self.signers.append((position, event.by, signed.key, role, character, command))
        return None

    def settle(self) -> list[tuple[int, UUID, str]]:
        """The deferred signatures checked: (position, aggregate, problem) of each event whose signature does
        not verify, in log order (that signer is then counted as invalid, as `feed` counts one)."""
        if self._deferred is None:
            return []
        refused = []
        for signer, owner, by in self._deferred.settle():
            position, _, key, *_ = self.signers[signer]
            self.signers[signer] = (position, by, key, "invalid", None, "")
            refused.append((position, owner, _refused(key, by)))
        self._deferred = None
        return sorted(refused, key=lambda found: found[0])

    def _verifies(self, key: str, signature: str, signed_message: bytes) -> bool:
        """`verifies`, once for the events of one command in a row (they share its signature)."""
        last = self._last
        if last is not None and last[:3] == (key, signature, signed_message):
            return last[3]
        found = verifies(key, signature, signed_message)
        self._last = (key, signature, signed_message, found)
        return found

    def report(self) -> dict[str, Any]:
        return {"unsigned": self.unsigned, "signers": self.signers, "changes": self.changes}


def _refused(key: str, by: str) -> str:
    return f"the signature by {key} (recorded by {by}) does not verify: the event was changed"


Check = tuple[str, str, bytes]  # key, signature (both as recorded) and the message it signs
W = TypeVar("W")  # what waits for a check's answer


class Deferred(Generic[W]):
    """Signature checks answered in chunks of CHUNK, in bounded memory: each distinct check of the last
    REMEMBERED once (a command's events share their signature). With `helper`, once HELP_FROM have been
    asked a forked helper process takes chunks while this process goes on, at most AHEAD chunks ahead of
    its answers; a chunk it has no room for is checked here at once, and so is the last one, and whatever
    the helper did not answer (it died). Only a process with no other thread forks one (a thread of a
    connection pool could hold a lock the child would then wait on for ever), and only when a core seems
    free (`core_to_spare`). Every check is answered by one process or the other; `refused` gathers the
    waiters (the events) of those that do not verify."""

    CHUNK = 16
    AHEAD = 2
    HELP_FROM = 16  # (forking costs this process about 1 ms; 16 checks, about 2 ms)
    REMEMBERED = 4096

    def __init__(self, helper: bool):
        self.refused: list[W] = []
        self._numbers: dict[Check, int] = {}  # the last REMEMBERED distinct checks, by their numbers
        self._count = 0  # checks numbered so far
        self._chunk: list[Check] = []  # the newest ones, not yet dealt
        self._waiting: dict[int, list[W]] = {}  # the unanswered checks' waiters
        self._bad: set[int] = set()
        self._helper = helper
        self._child: _Helper | None = None
        self._out: dict[int, list[Check]] = {}  # chunks the helper has not answered, by their first number

    def add(self, key: str, signature: str, signed_message: bytes, waiter: W) -> None:
        check = (key, signature, signed_message)
        number = self._numbers.get(check)
        if number is not None:  # asked before
            if number in self._waiting:
                self._waiting[number].append(waiter)
            elif number in self._bad:
                self.refused.append(waiter)
            return
        number = self._numbers[check] = self._count
        self._count += 1
        if len(self._numbers) > self.REMEMBERED:
            del self._numbers[next(iter(self._numbers))]  # the oldest
        self._waiting[number] = [waiter]
        self._chunk.append(check)
        if len(self._chunk) == self.CHUNK:
            self._deal(helped=True)

    def settle(self) -> list[W]:
        """Every check answered: the waiters of those that do not verify."""
        if self._chunk:
            self._deal(helped=False)  # (the helper is busy with its own)
        self._answers(wait=True)
        if self._child is not None:
            self._child.stop()
            self._child = None
        return self.refused

    def _deal(self, helped: bool) -> None:
        start, chunk, self._chunk = self._count - len(self._chunk), self._chunk, []
        if self._child is None and self._helper and self._count >= self.HELP_FROM:
            self._helper = False  # one try
            self._child = _Helper.start() if core_to_spare() else None
        child = self._child
        if helped and child is not None:
            self._answers(wait=False)
            if self._child is not None and len(self._out) < self.AHEAD:
                if child.send((start, chunk)):
                    self._out[start] = chunk
                    return
                self._lost()
        self._answer(start, len(chunk), _bad_ones(chunk))

    def _answer(self, start: int, size: int, bad: list[int]) -> None:
        for offset in bad:
            self._bad.add(start + offset)
            self.refused.extend(self._waiting[start + offset])
        for number in range(start, start + size):
            del self._waiting[number]

    def _answers(self, wait: bool) -> None:
        """Take the helper's answers that are in (with `wait`, all it owes)."""
        child = self._child
        while child is not None and self._out and (wait or child.ready()):
            answer = child.receive()
            if answer is None or answer[0] not in self._out:
                self._lost()
                return
            start, bad = answer
            self._answer(start, len(self._out.pop(start)), bad)

    def _lost(self) -> None:
        """The helper is gone (or garbled): what it did not answer is checked here."""
        if self._child is not None:
            self._child.stop()
            self._child = None
        out, self._out = self._out, {}
        for start, chunk in out.items():
            self._answer(start, len(chunk), _bad_ones(chunk))


def core_to_spare() -> bool:
    """Whether the machine seems to have a core for a helper: its load average over the last minute (this
    process in it) half a core below its number of cores. Else the helper, woken on this process's core
    whenever a chunk is sent, only takes turns with it (measured: verify's wall time unchanged or longer
    at a load of 2.5 on 2 cores, while its own CPU time fell by a third)."""
    try:
        return os.getloadavg()[0] < (os.cpu_count() or 1) - 0.5
    except OSError:  # (no load average to be had)
        return True


def _bad_ones(checks: list[Check]) -> list[int]:
    """The offsets of the checks that do not verify."""
    return [offset for offset, check in enumerate(checks) if not verifies(*check)]


class _Helper:
    """A forked process answering chunks of checks: it reads (start, checks), writes (start, offsets that
    do not verify), until its input ends."""

    def __init__(self, pid: int, requests: Connection, answers: Connection):
        self.pid, self.requests, self.answers = pid, requests, answers
        # stopped once: by `stop`, or when dropped unstopped (verify failed midway), or at the interpreter's exit
        self._stop = weakref.finalize(self, _stopped, pid, requests, answers)

    @classmethod
    def start(cls) -> _Helper | None:
        import threading
        from multiprocessing import Pipe

        if os.name != "posix" or threading.active_count() > 1:
            return None
        take, requests = Pipe(duplex=False)
        answers, give = Pipe(duplex=False)
        try:
            pid = os.fork()
        except OSError:  # no process to be had: every check is made here
            for end in (take, requests, answers, give):
                end.close()
            return None
        if pid == 0:  # the helper: nothing it inherited but these pipes is used, and it leaves by os._exit
            code = 1
            try:
                requests.close()
                answers.close()
                while True:
                    try:
                        start, checks = take.recv()
                    except EOFError:
                        break
                    give.send((start, _bad_ones(checks)))
                code = 0
            finally:
                os._exit(code)
        take.close()
        give.close()
        return cls(pid, requests, answers)

    def send(self, chunk: tuple[int, list[Check]]) -> bool:
        try:
            self.requests.send(chunk)
        except OSError:  # (BrokenPipeError) it died
            return False
        return True

    def ready(self) -> bool:
        try:
            return self.answers.poll()
        except OSError:
            return True  # its end is gone: `receive` says so

    def receive(self) -> tuple[int, list[int]] | None:
        try:
            answer: tuple[int, list[int]] = self.answers.recv()
        except (EOFError, OSError):
            return None
        return answer

    def stop(self) -> None:
        """Close its input (it leaves); it is reaped once it has left, here or at the next helper's end,
        never waited for."""
        self._stop()


def _stopped(pid: int, requests: Connection, answers: Connection) -> None:
    requests.close()
    answers.close()
    _unreaped.append(pid)
    _reap()


_unreaped: list[int] = []  # helpers stopped but not yet seen to have left


def _reap() -> None:
    for pid in list(_unreaped):
        try:
            left = os.waitpid(pid, os.WNOHANG)[0] == pid
        except ChildProcessError:
            left = True
        if left:
            _unreaped.remove(pid)


def _asked(document: dict[str, Any], system: str | None) -> tuple[str, str | None, str]:
    """(the role the document's command needs, the character it acts on, its name)."""
    from ..application import commands

    name = str(document.get("command", ""))
    if name == JOIN:
        token = document.get("invitation")
        return INVITED, invitation_hash(token) if isinstance(token, str) else "", name
    try:
        model = commands.model_for(name, system)
    except ChronicleError:
        return "gm", None, name  # a command this chronicle does not know: only a gm's signature may stand
    key = model.character
    if key is not None:
        field = model.model_fields.get(key)
        key = (field.alias if field is not None and field.alias else key) if field is not None else key
    character = document.get(key) if key else None
    return model.role, character if isinstance(character, str) else None, name


def in_log_order(reports: list[dict[str, Any]], campaign: str, require: bool) -> tuple[int, int, list[dict[str, Any]]]:
    """(signed, unsigned, problems): every signature's key and role against the participants as they
    were at its position; with `require`, an unsigned event is a problem too."""
    signers = sorted(s for report in reports for s in report["signers"])
    changes = sorted(c for report in reports for c in report["changes"])
    unsigned = sum(report["unsigned"] for report in reports)
    problems: list[dict[str, Any]] = []
    participants: dict[str, Participant] = {}
    invitations: Invitations = {}
    made = {at: data for at, kind, data in changes if kind == ParticipantSet.__name__}
    pending = iter(changes)
    change = next(pending, None)
    for position, by, key, role, character, command in signers:
        while change is not None and change[0] < position:
            _apply(participants, invitations, change)
            change = next(pending, None)
        if role == "invalid":
            continue  # reported by the share that checked it
        if role == INVITED:
            refused = _joined(invitations, character or "", key, made.get(position))
            if refused:
                problems.append({"position": position, "problem": f"recorded by {by}: {refused}"})
            continue
        try:
            found = authorise(participants, campaign, key, cast(Role, role), character, command)
        except ChronicleError as refused:
            problems.append({"position": position, "problem": f"recorded by {by}: {refused}"})
            continue
        if found is not None and found.role == "player" and found.name.casefold() != by.casefold():
            problems.append(
                {"position": position, "problem": f"signed by the player {found.name} but recorded as by {by}"}
            )
    if require and unsigned:
        problems.append({"position": 0, "problem": f"{unsigned} events are unsigned (recorded before signatures)"})
    return len(signers), unsigned, problems


def _joined(invitations: Invitations, hashed: str, key: str, made: dict[str, Any] | None) -> str:
    """Why a join does not stand (empty when it does): the invitation its token hashes to must be open,
    its event must take it up, and make that invitation's participant with the signing key, in time."""
    invited = invitations.get(hashed)
    if invited is None:
        return "a join whose token is no open invitation's (never made, taken up already, or of another campaign)"
    if made is None or made.get("invitation") != hashed:
        return "a join that records no participant by its invitation"
    if made["key"] != key:
        return "a join that records another key than the one that signed it"
    wanted = (invited["name"].casefold(), invited["role"], list(invited["plays"]))
    if (made["name"].casefold(), made["role"], list(made["plays"])) != wanted:
        return f"a join that records other than the invitation of {invited['name']} held"
    sent, expires = datetime.fromisoformat(invited["timestamp"]), datetime.fromisoformat(invited["expires"])
    if expires - sent > INVITATION_HOLDS or datetime.fromisoformat(made["timestamp"]) > expires:
        return f"a join after its invitation expired ({invited['expires']})"
    return ""


def _apply(
    participants: dict[str, Participant], invitations: Invitations, change: tuple[int, str, dict[str, Any]]
) -> None:
    position, kind, data = change
    if kind == "ParticipantRemoved":
        participants.pop(data["name"], None)
        return
    if kind == "ParticipantInvited":
        invitations[data["invitation"]] = data
        return
    if data.get("invitation"):
        invitations.pop(data["invitation"], None)
    participants[data["name"]] = Participant(data["name"], data["role"], tuple(data["plays"]), data["key"], position)
