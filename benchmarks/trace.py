"""The path of one command through the layers, traced (docs/design.md, The path of a command and of a query):
`python -m benchmarks.trace` makes a Potestas campaign with one character in a fresh SQLite ledger, then runs
`injure` and `character show` through `chronicle`'s own entry, each in a process of its own as a user runs it,
under `sys.setprofile`, and prints for each: the product modules it imported and entered, the Python calls
made in each layer, the calls that crossed from one layer into another, and the first function entered in
each layer, in order. Counts, not times: they do not depend on the machine."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

LAYERS = (
    "chronicle.cli",
    "chronicle.ledger.application.commands",
    "chronicle.ledger.application.queries",
    "chronicle.ledger.application.views",
    "chronicle.ledger.application",
    "chronicle.ledger.store",
    "chronicle.ledger.trust",
    "chronicle.ledger.bulk",
    "chronicle.projections",
    "chronicle.domain",
)


def layer_of(module: str) -> str:
    for layer in LAYERS:
        if module == layer or module.startswith(f"{layer}."):
            return layer.removeprefix("chronicle.")
    return "library: " + module.split(".")[0]  # eventsourcing, pydantic, click, the standard library...


class Trace:
    def __init__(self, landmarks: tuple[tuple[str, str], ...]) -> None:
        self.calls: Counter[str] = Counter()
        self.crossings: Counter[tuple[str, str]] = Counter()
        self.entered: set[str] = set()
        self.first: dict[str, str] = {}
        # per (TARGET, THROUGH): the stack at the first call into a function of TARGET made through THROUGH
        self.landmarks = landmarks
        self.paths: dict[tuple[str, str], list[str]] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "?")
        layer = layer_of(module)
        self.calls[layer] += 1
        if module.startswith("chronicle."):
            self.entered.add(module)
            self.first.setdefault(layer, f"{module.removeprefix('chronicle.')}:{frame.f_code.co_name}")
        for target, through in self.landmarks:
            if (target, through) in self.paths or not module.startswith(target) or frame.f_code.co_name == "<module>":
                continue
            stack = stack_of(frame)
            if any(through in step for step in stack):
                self.paths[(target, through)] = stack
        caller = frame.f_back
        if caller is not None:
            source = layer_of(caller.f_globals.get("__name__", "?"))
            if source != layer and not (source.startswith("library") and layer.startswith("library")):
                self.crossings[(source, layer)] += 1


def stack_of(frame: FrameType | None) -> list[str]:
    """chronicle's functions on the stack, outermost first."""
    steps: list[str] = []
    while frame is not None:
        module = frame.f_globals.get("__name__", "?")
        if module.startswith("chronicle."):
            steps.append(f"{module.removeprefix('chronicle.')}:{frame.f_code.co_qualname}")
        frame = frame.f_back
    return steps[::-1]


def traced(run: Callable[[], None], landmarks: tuple[tuple[str, str], ...]) -> tuple[Trace, set[str]]:
    before = set(sys.modules)
    trace = Trace(landmarks)
    sys.setprofile(trace)
    try:
        run()
    finally:
        sys.setprofile(None)
    imported = {name for name in set(sys.modules) - before if name.startswith("chronicle.")}
    return trace, imported


def command(*args: str) -> Callable[[], None]:
    from chronicle.cli.main import chronicle

    def run() -> None:
        try:
            chronicle.main(list(args), prog_name="chronicle", standalone_mode=False)
        except SystemExit:
            pass

    return run


def report(title: str, trace: Trace, imported: set[str]) -> None:
    print(f"## {title}")
    print(f"product modules imported: {len(imported)}; entered: {len(trace.entered)}")
    product = {layer: n for layer, n in trace.calls.items() if not layer.startswith("library")}
    libraries = sum(n for layer, n in trace.calls.items() if layer.startswith("library"))
    print(f"Python calls: {sum(product.values())} in chronicle, {libraries} in libraries")
    for layer, count in sorted(product.items(), key=lambda item: -item[1]):
        print(f"  {layer:32} {count:7}")
    print("first function entered per layer, in order:")
    for layer, where in trace.first.items():
        print(f"  {layer:32} {where}")
    for (target, through), stack in trace.paths.items():
        print(f"the stack at the first call into {target.removeprefix('chronicle.')} through {through}:")
        for step in stack:
            print(f"  {step}")
    print("calls from one layer into another (chronicle's layers):")
    for (source, target), count in sorted(trace.crossings.items(), key=lambda item: -item[1]):
        if not (source.startswith("library") or target.startswith("library")):
            print(f"  {source:32} -> {target:32} {count:6}")
    print()


TRACED = {
    # the command, and the stacks printed: at the first call into a module of the first name made through
    # a function of the second
    "injure": (
        ("injure", "Brand", "--damage", "12", "--save-roll", "9"),
        (
            ("chronicle.ledger.application.commands", "Ledger.execute"),
            ("chronicle.ledger.store", "Session.save"),
            ("chronicle.projections", "Ledger._fold"),
        ),
    ),
    "show": (("character", "show", "Brand"), (("chronicle.projections", "Ledger.ask"),)),
}


def main() -> None:
    if len(sys.argv) == 3:  # one traced command in a process of its own: python -m benchmarks.trace DB NAME
        db, name = sys.argv[1:]
        args, landmarks = TRACED[name]
        trace, imported = traced(command("--db", db, "--by", "gm", *args), landmarks)
        report(" ".join(args), trace, imported)
        return
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "trace.db")
        for args in (("campaign", "new", "Saltmarsh", "--system", "potestas"), ("character", "add", "Brand")):
            subprocess.run([sys.executable, "-m", "chronicle.cli", "--db", db, "--by", "gm", *args], check=True)
        for name in TRACED:
            subprocess.run([sys.executable, "-m", "benchmarks.trace", db, name], check=True)


if __name__ == "__main__":
    main()
