"""`serve` does not run out of file descriptors: `/events` takes a bounded number of clients (a clear 503
past it), uvicorn answers 503 past its connection limit, and a server whose descriptors run out all the same
says so in one line (no traceback per refused accept) and answers again once the clients have left."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.limits import RESERVE, room
from chronicle.cli.web.reading import Reading

HERE = Path(__file__).parent


def test_events_turns_clients_away_past_its_cap_with_a_clear_503(table):
    data = Reading(table.db)
    try:
        with TestClient(build(data, table.said.append, streams=2)) as client:
            with client.stream("GET", "/events") as first, client.stream("GET", "/events") as second:
                assert first.status_code == second.status_code == 200
                turned = client.get("/events")
                assert turned.status_code == 503 and turned.headers["retry-after"] == "60"
                assert "at most 2 live pages at once" in turned.text
                assert client.get("/").status_code == 200  # pages are not streams
    # (that a client that leaves makes room: the server processes below, where clients really leave)
    finally:
        data.close()


def test_the_room_follows_the_descriptor_limit():
    found = room()
    assert found.descriptors >= resource.getrlimit(resource.RLIMIT_NOFILE)[0]  # raised, never lowered
    assert 2 <= found.streams <= found.connections // 2
    assert found.connections + found.backlog <= max(found.descriptors - RESERVE, 16)


@contextmanager
def serving(db: str, descriptors: int) -> Iterator[tuple[subprocess.Popen, int]]:
    """`chronicle serve` in a process that may hold `descriptors` files (soft and hard limit)."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", db, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
        preexec_fn=limited,
    )
    try:
        assert server.stdout is not None and server.stderr is not None  # both piped
        first = server.stdout.readline()
        assert " at http://" in first, first + server.stderr.read()
        yield server, int(first.split(" at ")[1].split(":")[2].split("/")[0])
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)


def flood(port: int, clients: int, connecting: float = 2) -> Counter:
    """Open `clients` streams at once, see what each was answered, then leave (a connection not made
    within `connecting` seconds counts as not connected: a server out of descriptors accepts none)."""
    opened: list[socket.socket] = []
    answers: Counter[str] = Counter()
    for _ in range(clients):
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=connecting)
            connection.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n")
            opened.append(connection)
        except OSError:
            answers["not connected yet"] += 1
    time.sleep(2)
    deadline = time.monotonic() + 1  # one more second for all the answers together, not a second each
    for connection in opened:
        connection.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            answers[connection.recv(64).split(b"\r\n")[0].decode()] += 1
        except OSError:
            answers["waiting"] += 1
        connection.close()
    return answers


def page(port: int, within: float) -> int:
    """The status of `GET /`, asked until `within` seconds have passed."""
    deadline = time.monotonic() + within
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n")
                connection.settimeout(5)
                return int(connection.recv(64).split(b" ")[1])
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def stopped(server: subprocess.Popen) -> tuple[str, str]:
    server.send_signal(signal.SIGINT)
    out, err = server.communicate(timeout=30)
    assert server.returncode == 0 and "Stopped." in out
    return out, err


def test_a_flood_of_streams_under_a_low_limit_is_answered_503_and_the_server_goes_on(run_sqlite):
    run_sqlite.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    with serving(run_sqlite.db, 128) as (server, port):
        answers = flood(port, 400)
        assert answers["HTTP/1.1 200 OK"] >= 2 and answers["HTTP/1.1 503 Service Unavailable"] >= 300, answers
        assert page(port, within=10) == 200
        out, err = stopped(server)
    assert "Traceback" not in err and len(err.splitlines()) <= 2, err[:2000]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts the server's descriptors in /proc")
def test_a_server_out_of_descriptors_says_so_once_and_answers_when_clients_leave(run_sqlite):
    run_sqlite.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    with serving(run_sqlite.db, 1024) as (server, port):
        assert page(port, within=10) == 200
        held = len(os.listdir(f"/proc/{server.pid}/fd"))  # what serving holds before any client
        stopped(server)
    with serving(run_sqlite.db, held + 4) as (server, port):  # a few connections at most: accepts fail
        flood(port, 60, connecting=0.5)  # (bounded: connections beyond the backlog wait, then give up)
        assert page(port, within=15) == 200
        out, err = stopped(server)
    assert "Traceback" not in err and 1 <= err.count("out of file descriptors") <= 3, err[:2000]
    assert len(err.splitlines()) <= 6, err[:2000]
