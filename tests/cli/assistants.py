"""An assistant's table for the MCP tests: a Potestas campaign, Greyhawk, with a gm (Aric) and a player (Ann, who
plays Brand), each with an identity of their own; `chronicle mcp` started as one of them; and a client session
driven against it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters


class Table:
    """Greyhawk as above; with `also`, further empty Potestas campaigns started after it (the last is then the
    current one)."""

    def __init__(self, run, tmp_path: Path, monkeypatch, also: tuple[str, ...] = ()):
        self.run, self.monkeypatch = run, monkeypatch
        self.homes = {name: tmp_path / f"home-{name}" for name in ("gm", "Ann")}
        self.keys = {name: self.cli(name, "identity", "show")["key"] for name in self.homes}
        self.cli("gm", "campaign", "new", "Greyhawk", "--system", "potestas")
        self.cli("gm", "character", "add", "Aric", "--stat", "fort=5", "--stat", "dr=2")
        self.cli("gm", "character", "add", "Brand", "--stat", "fort=3")
        self.cli("gm", "participant", "add", "Ann", "--role", "player", "--plays", "Brand", "--key", self.keys["Ann"])
        for campaign in also:
            self.cli("gm", "campaign", "new", campaign, "--system", "potestas")

    def cli(self, who: str, *args: str) -> dict[str, Any]:
        self.monkeypatch.setenv("CHRONICLE_HOME", str(self.homes[who]))
        return self.run.json(*args, by=who)

    def refused(self, who: str, *args: str) -> tuple[int, dict[str, Any]]:
        """The CLI's exit code and `--json` error for a command WHO runs that fails."""
        self.monkeypatch.setenv("CHRONICLE_HOME", str(self.homes[who]))
        done = self.run("--json", *args, by=who)
        assert done.exit_code != 0, done.stdout
        return done.exit_code, json.loads(done.stdout or done.stderr)

    def events(self, campaign: str) -> int:
        return len(self.cli("gm", "--campaign", campaign, "log")["events"])

    def server(self, who: str, *options: str) -> StdioServerParameters:
        """`chronicle mcp` as WHO runs it: their home, and no --by (the identity in use names them)."""
        return StdioServerParameters(
            command=sys.executable,
            args=["-m", "chronicle.cli", "--db", self.run.db, "mcp", *options],
            env={"CHRONICLE_HOME": str(self.homes[who])},
        )


def drive(params: StdioServerParameters, session) -> Any:
    """Run `session(client)` against a fresh server process, at most a minute."""

    async def main() -> Any:
        with anyio.fail_after(60):
            async with Client(params) as client:
                return await session(client)

    return anyio.run(main)
