"""The table view's fixtures: a PenDragon Pass campaign recorded through the CLI, and ways to serve it."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading

HERE = Path(__file__).parent  # not the repository's root, whose `chronicle/` folder is not the package
HOSTILE = "<script>alert(1)</script>"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's, which Playwright drives by its path (it downloads no browser)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OATH = 'avenge the <b>temple</b> & "Orlanth"'


@dataclass
class Table:
    db: str
    run: object  # the root conftest's `Run`
    said: list[str] = field(default_factory=list)

    def character_url(self, client: TestClient, name: str) -> str:
        """The address the campaign page links a character's name to."""
        page = client.get("/").text
        found = re.search(
            r'href="(/c/[^"?]+)">'
            + re.escape(name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
            + "<",
            page,
        )
        assert found, f"no link to {name} on the campaign page"
        return found.group(1)

    def chronicle(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run `chronicle` in another process, as a game master at another terminal would."""
        done = subprocess.run(
            [sys.executable, "-m", "chronicle.cli", "--db", self.db, "--by", "gm", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=HERE,
        )
        assert done.returncode == 0, done.stderr + done.stdout
        return done


@pytest.fixture
def table(run) -> Table:
    """Sartar: Vasana (Status from two awards) and a character whose name is markup, with an oath."""
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17")
    run.json("character", "add", HOSTILE, "--stat", "siz=12", "--stat", "con=11")
    run.json("status", "award", "Vasana", "--honour", "rune-lord")
    run.json("status", "award", "Vasana", "--amount", "50", "--reason", "held the <i>ford</i>")
    run.json("oath", "swear", HOSTILE, OATH)
    return Table(run.db, run)


@pytest.fixture
def client(table: Table) -> Iterator[TestClient]:
    data = Reading(table.db)
    with TestClient(build(data, table.said.append)) as served:
        yield served
    data.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """A headless Chromium for the browser tests of a module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextmanager
def serving(db: str, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`chronicle serve --port 0 ARGS` as a real process on this machine; its address, until the block ends."""
    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", db, "serve", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
        env=env,
    )
    assert server.stdout is not None and server.stderr is not None  # both piped
    first = server.stdout.readline()
    assert " at http://127.0.0.1:" in first, first + server.stderr.read()
    try:
        yield first.split(" at ")[1].split()[0].rstrip("/")
    finally:
        server.terminate()
        server.communicate(timeout=20)
