"""What signing costs, in-process (no interpreter start): appends through the application layer with every
event signed and sealed with its signature, against the same appends with signing turned off; `verify` of
the signed log against `verify` with its signature checks turned off.

"Unsigned" is the same append without its signature: no document signed, no event sealed again, and no
signature stored with the events (so none read back when a character is loaded). Everything else is done
on both sides: the participant's key is loaded, the witness checks the log before the write, grows the
stored Merkle tree in the write's transaction and notes the head seen. The two sides take turns append by
append, on two ledgers side by side (the machine's speed drifts within a run, and other work shares it);
each run's ratio is its signed appends' time over its unsigned ones', and the rows give the median of RUNS.
`verify` with and without its checks take turns run by run, compared pair by pair.

`python -m benchmarks.signing` runs these rows alone; `python -m benchmarks` includes them."""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .measure import row

if TYPE_CHECKING:
    from chronicle.ledger.application.commands import Command

APPENDS = 400
RUNS = 5


@contextlib.contextmanager
def unsigned() -> Iterator[None]:
    """The application layer with signing turned off: no signature made, no event sealed again."""
    from chronicle.ledger.trust import signing  # (which `Ledger.execute` imports them from when it runs)

    sign, seal = signing.sign, signing.seal_with
    signing.sign = lambda *args, **kwargs: None  # type: ignore[assignment]
    signing.seal_with = lambda *args, **kwargs: None
    try:
        yield
    finally:
        signing.sign, signing.seal_with = sign, seal


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """`verify` with its signature checks turned off (every event counted as unsigned)."""
    from chronicle.ledger.trust.signatures import SignatureCheck

    feed = SignatureCheck.feed

    def skip(self: SignatureCheck, position: int, event: object) -> None:
        self.unsigned += 1

    SignatureCheck.feed = skip  # type: ignore[method-assign]
    try:
        yield
    finally:
        SignatureCheck.feed = feed  # type: ignore[method-assign]


@contextlib.contextmanager
def helpers() -> Iterator[list[object]]:
    """The helper processes verify forks to check signatures (none when the machine has no core to spare)."""
    from chronicle.ledger.trust import signatures

    helper = signatures._Helper
    original, start = helper.__dict__["start"], helper.start
    forked: list[object] = []

    def counted() -> signatures._Helper | None:
        found = start()
        if found is not None:
            forked.append(found)
        return found

    helper.start = counted  # type: ignore[method-assign]
    try:
        yield forked
    finally:
        setattr(helper, "start", original)  # noqa: B010 - the classmethod itself, as it was


def appends(work: Path, name: str) -> tuple[float, float]:
    """Seconds per append, signed and unsigned, of APPENDS Potestas injuries (and rests, which heal them)
    on each of two new ledgers, one append of each in turn (which one first alternates)."""
    from chronicle.ledger.application.commands import potestas, table
    from chronicle.ledger.application.ledger import Ledger

    # unseeded: each command is signed with a nonce of its own, as a user's is (a seeded ledger's nonces repeat
    # with its dice, and the same command's signature with them: verify would check it once)
    signed = Ledger(str(work / f"{name}-signed.db"), by="gm")
    plain = Ledger(str(work / f"{name}-plain.db"), by="gm")
    taken = {True: 0.0, False: 0.0}

    def append(ledger: Ledger, command: Command) -> None:
        with contextlib.nullcontext() if ledger is signed else unsigned():
            started = time.perf_counter()
            ledger.execute(command)
            taken[ledger is signed] += time.perf_counter() - started

    try:
        for ledger in (signed, plain):
            with contextlib.nullcontext() if ledger is signed else unsigned():
                ledger.execute(table.CampaignNew(name="Bench", system="potestas"))
                ledger.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
        for i in range(APPENDS):
            rest, injure = potestas.Rest(name="Brand", hours=24), potestas.Injure(name="Brand", damage=3, save_roll=10)
            command: Command = rest if i % 2 else injure
            for ledger in (signed, plain) if i % 4 < 2 else (plain, signed):
                append(ledger, command)
        return taken[True] / APPENDS, taken[False] / APPENDS
    finally:
        signed.close()
        plain.close()


def verifying(db: Path) -> float:
    from chronicle.ledger.application.ledger import Ledger
    from chronicle.ledger.trust.verify import verify

    ledger = Ledger(str(db), by="gm")
    try:
        started = time.perf_counter()
        report = verify(ledger.read())
        assert report["ok"], report["problems"][:3]
        return time.perf_counter() - started
    finally:
        ledger.close()


def measure(work: Path) -> None:
    runs = [appends(work, f"run-{i}") for i in range(RUNS)]
    append, unsigned_append = (statistics.median(times) for times in zip(*runs, strict=True))
    ratio = statistics.median(signed / plain for signed, plain in runs)
    row("in-process append, unsigned (baseline)", f"{unsigned_append * 1000:.2f} ms")
    row("in-process append, signed", f"{append * 1000:.2f} ms", f"{ratio:.2f}x unsigned (goal <= 1.1x)")
    verify_rows(work / "run-0-signed.db", APPENDS + 2, RUNS)


def verify_rows(db: Path, events: int, runs: int) -> None:
    """`verify` of the signed ledger DB (EVENTS events) with and without its signature checks, taking turns
    RUNS times, compared pair by pair."""
    checked, bare = [], []
    with helpers() as forked:
        for _ in range(runs):
            checked.append(verifying(db))
            with unchecked():
                bare.append(verifying(db))
    with_checks, without = statistics.median(checked), statistics.median(bare)
    pace = statistics.median(plain / signed for signed, plain in zip(checked, bare, strict=True))
    row(f"verify {events:,} signed events, signatures unchecked (baseline)", f"{events / without:,.0f} events/s")
    row(
        f"verify {events:,} signed events (a helper in {len(forked)} of {runs} runs)",
        f"{events / with_checks:,.0f} events/s",
        f"{pace:.2f}x unchecked (goal >= 0.7x)",
    )


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="chronicle-signing-") as folder:
        import os

        os.environ["CHRONICLE_HOME"] = str(Path(folder) / "home")
        measure(Path(folder))
