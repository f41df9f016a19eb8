"""What signing costs, in-process (no interpreter start): appends through the application layer with every
event signed and sealed with its signature, against the same appends with signing turned off; `verify` of
the signed log against `verify` with its signature checks turned off. Each side takes turns with the other
(the machine's speed drifts), the median of RUNS each.

`python -m benchmarks.signing` runs these rows alone; `python -m benchmarks` includes them."""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .measure import row

APPENDS = 400
RUNS = 5


@contextlib.contextmanager
def unsigned() -> Iterator[None]:
    """The application layer with signing turned off: no signature made, no event sealed again."""
    from chronicle.ledger import application

    sign, seal = application.sign, application.seal_with
    application.sign = lambda *args, **kwargs: None  # type: ignore[assignment]
    application.seal_with = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        yield
    finally:
        application.sign, application.seal_with = sign, seal


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """`verify` with its signature checks turned off (every event counted as unsigned)."""
    from chronicle.ledger.signatures import SignatureCheck

    feed = SignatureCheck.feed

    def skip(self: SignatureCheck, position: int, event: object) -> None:
        self.unsigned += 1

    SignatureCheck.feed = skip  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        SignatureCheck.feed = feed  # type: ignore[method-assign]


def appends(work: Path, name: str) -> float:
    """Seconds per append of APPENDS Potestas injuries (and rests, which heal them) on a new ledger."""
    from chronicle.ledger.application import Ledger
    from chronicle.ledger.commands import potestas, table

    ledger = Ledger(str(work / f"{name}.db"), by="gm", seed=1)
    try:
        ledger.execute(table.CampaignNew(name="Bench", system="potestas"))
        ledger.execute(table.CharacterAdd(name="Brand", stat=["fort=30"]))
        started = time.perf_counter()
        for i in range(APPENDS):
            if i % 2:
                ledger.execute(potestas.Rest(name="Brand", hours=24))
            else:
                ledger.execute(potestas.Injure(name="Brand", damage=3, save_roll=10))
        return (time.perf_counter() - started) / APPENDS
    finally:
        ledger.close()


def verifying(db: Path) -> float:
    from chronicle.ledger.application import Ledger
    from chronicle.ledger.verify import verify

    ledger = Ledger(str(db), by="gm")
    try:
        started = time.perf_counter()
        report = verify(ledger.read())
        assert report["ok"], report["problems"][:3]
        return time.perf_counter() - started
    finally:
        ledger.close()


def measure(work: Path) -> None:
    signed, plain, checked, bare = [], [], [], []
    for i in range(RUNS):
        signed.append(appends(work, f"signed-{i}"))
        with unsigned():
            plain.append(appends(work, f"plain-{i}"))
        checked.append(verifying(work / "signed-0.db"))
        with unchecked():
            bare.append(verifying(work / "signed-0.db"))
    append, unsigned_append = statistics.median(signed), statistics.median(plain)
    row("in-process append, unsigned (baseline)", f"{unsigned_append * 1000:.2f} ms")
    row(
        "in-process append, signed",
        f"{append * 1000:.2f} ms",
        f"{append / unsigned_append:.2f}x unsigned (goal <= 1.1x)",
    )
    events = APPENDS + 2
    with_checks, without = statistics.median(checked), statistics.median(bare)
    row(f"verify {events} signed events, signatures unchecked (baseline)", f"{events / without:,.0f} events/s")
    row(
        f"verify {events} signed events",
        f"{events / with_checks:,.0f} events/s",
        f"{without / with_checks:.2f}x unchecked (goal >= 0.7x)",
    )


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="chronicle-signing-") as folder:
        import os

        os.environ["CHRONICLE_HOME"] = str(Path(folder) / "home")
        measure(Path(folder))
