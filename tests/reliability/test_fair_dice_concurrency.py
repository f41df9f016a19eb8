"""Twelve writers roll the ledger's fair dice at once, through every front door (the command line, `shell`,
`batch` and `serve --writes`), on SQLite and PostgreSQL: 520 fair rolls take the seeds of their chains in
log order, each once, none skipped, the chains (of 65 seeds) renewed eight times as they run out under the
load (docs/fair-dice.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from uuid import UUID

from chronicle.ledger.trust.identity import load_or_create
from chronicle.ledger.trust.signing import sign

from .processes import PROGRAM

APPENDER = Path(__file__).with_name("appender.py")
CHAIN = 65  # (ROLLS is a multiple: every chain used up)
CLI, SHELLS, BATCHES, SERVED = (6, 50), (3, 40), (2, 30), 40  # (writers, rolls each): 520 in all
ROLLS = CLI[0] * CLI[1] + SHELLS[0] * SHELLS[1] + BATCHES[0] * BATCHES[1] + SERVED
NAMES = ("Bruno", "Aric", "Mira")


def chronicle(db: str, *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [*PROGRAM, "--db", db, "--by", "gm", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def post_rolls(address: str, campaign: str, devices: list, count: int, failures: list[str]) -> None:
    """The gms' devices, in turn: signed roll documents, each with a device seed of its own (a device told
    to wait, by the server's limit on each key, waits and sends the same document again)."""
    for n in range(count):
        document = {"command": "roll", "notation": "2d6", "device_seed": f"{n:064x}"}
        signed = sign(devices[n % len(devices)], UUID(campaign), document, f"served-{n}")
        body = json.dumps({"campaign": campaign, **signed.model_dump()}).encode()
        for _ in range(60):
            request = urllib.request.Request(address + "/api/commands", body, {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=120) as answer:
                    if not json.load(answer).get("fair_dice"):
                        failures.append(f"served roll {n} names no seed")
                break
            except urllib.error.HTTPError as problem:
                if problem.code != 429:
                    failures.append(f"served roll {n}: {problem}")
                    break
                time.sleep(float(problem.headers.get("Retry-After", "1")))
            except Exception as problem:  # noqa: BLE001 - every failure is reported
                failures.append(f"served roll {n}: {problem}")
                break


def test_twelve_writers_take_every_seed_once_in_order_through_every_front_door(run, monkeypatch, tmp_path):
    monkeypatch.setenv("CHRONICLE_DICE_CHAIN", str(CHAIN))
    run.json("campaign", "new", "Greyhawk", "--system", "adnd2e")
    for name in NAMES:
        run.json("character", "add", name, "--stat", "hp=30")
    campaign = run.json("campaign", "show")["id"]
    devices = [load_or_create(tmp_path / f"device-{k}") for k in range(6)]  # the server's limit is per key
    for k, device in enumerate(devices):
        run.json("participant", "add", f"Table {k}", "--role", "gm", "--key", device.public_key_text)

    server = chronicle(run.db, "serve", "--writes", "--port", "0")
    assert server.stdout is not None
    first = server.stdout.readline()
    assert " at http://127.0.0.1:" in first, first
    address = first.split(" at ")[1].split()[0].rstrip("/")
    try:
        writers = [
            subprocess.Popen(
                [sys.executable, str(APPENDER), run.db, NAMES[k % len(NAMES)], str(CLI[1])],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for k in range(CLI[0])
        ]
        shells = [chronicle(run.db, "shell", stdin=subprocess.PIPE) for _ in range(SHELLS[0])]
        for k in range(BATCHES[0]):
            lines = [
                json.dumps({"command": "roll", "notation": "d20", "for": NAMES[n % 3], "device_seed": f"{k}{n:063x}"})
                for n in range(BATCHES[1])
            ]
            (tmp_path / f"batch-{k}.jsonl").write_text("\n".join(lines) + "\n")
        batches = [
            chronicle(run.db, "--json", "batch", "--jsonl", str(tmp_path / f"batch-{k}.jsonl"))
            for k in range(BATCHES[0])
        ]
        failures: list[str] = []
        served = threading.Thread(target=post_rolls, args=(address, campaign, devices, SERVED, failures))
        served.start()
        typed = "".join("roll d6\n" if n % 2 else "roll d8 --for Mira\n" for n in range(SHELLS[1]))
        said = [shell.communicate(typed, timeout=900) for shell in shells]
        for worker in writers:
            out, err = worker.communicate(timeout=900)
            assert worker.returncode == 0, err
            report = json.loads(out)
            failures += report["messages"]
        for batch in batches:
            out, err = batch.communicate(timeout=900)
            assert batch.returncode == 0, err
            assert json.loads(out)["lines"] == BATCHES[1]
        served.join(timeout=900)
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert failures == [] and all(
        shell.returncode == 0 and err == "" for shell, (_, err) in zip(shells, said, strict=True)
    )

    events = run.json("log")["events"]
    fair = [
        (e["position"], e["data"]["dice"]["fair"]["index"]) for e in events if "fair" in (e["data"].get("dice") or {})
    ]
    committed = [e["position"] for e in events if e["type"] == "DiceCommitted"]
    assert len(fair) == ROLLS and len(committed) == ROLLS // CHAIN  # renewed under the load, each when used up
    seen, chain = [], -1
    for position, index in fair:  # in log order: each chain's seeds 1, 2, ... CHAIN, none twice, none skipped
        while chain + 1 < len(committed) and committed[chain + 1] < position:
            chain += 1
        seen.append(chain * CHAIN + index)
    assert seen == list(range(1, ROLLS + 1))
    verified = run.json("verify")
    assert verified["ok"], verified["problems"][:5]
    assert verified["dice"] == {"fair": ROLLS, "device_seeded": BATCHES[0] * BATCHES[1] + SERVED, "skipped": []}
    assert [c["used"] for c in run.json("dice")["commitments"]] == [CHAIN] * (ROLLS // CHAIN)
