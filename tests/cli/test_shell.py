"""`chronicle shell`: the lines `batch` takes, each its own transaction, at a prompt on a terminal (driven
here through a pseudo-terminal) or from standard input."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronicle.cli.complete import line_completions

SETUP = ["campaign new Sartar --system pendragon-pass", "character add Vasana --stat siz=15"]
ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-B]|[=>78])")


class Terminal:
    """A process on a pseudo-terminal: what it shows (without escape sequences), read in order, and keys."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path):
        master, slave = pty.openpty()
        self.master, self.shown, self.read = master, "", 0
        self.process = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)

    def expect(self, text: str, timeout: float = 30) -> None:
        """Wait until TEXT is shown after what was expected before (keys typed ahead, while a line runs,
        go to the terminal's own line editing, not to the prompt: wait for the prompt first)."""
        deadline = time.monotonic() + timeout
        while (found := self.screen().find(text, self.read)) < 0:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not shown after {self.screen()[: self.read]!r}: {self.screen()[self.read :]!r}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    self.shown += os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the process ended
                    assert text in self.screen()[self.read :], f"{text!r} not shown: {self.screen()!r}"
        self.read = found + len(text)

    def screen(self) -> str:
        return ANSI.sub("", self.shown)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.process.wait(30)
        finally:
            os.close(self.master)


@pytest.fixture
def table(run_sqlite):
    for line in SETUP:
        assert run_sqlite(*line.split()).exit_code == 0
    return run_sqlite


def shell_on_terminal(db: str, home: Path, cwd: Path) -> Terminal:
    env = {
        **os.environ,
        "CHRONICLE_HOME": str(home),
        "CHRONICLE_BY": "gm",
        "TERM": "xterm",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # answers no cursor-position request: prompt_toolkit need not wait for one
    }
    return Terminal([sys.executable, "-m", "chronicle.cli", "--db", db, "shell"], env, cwd)


def injuries(run) -> int:
    return sum(event["type"] == "Injured" for event in run.json("log")["events"])


def test_on_a_terminal_a_wound_a_refusal_completion_and_history_across_runs(table, tmp_path):
    home = tmp_path / "home"  # the user's folder: the identity that made the campaign, a history of its own
    shutil.copytree(os.environ["CHRONICLE_HOME"], home)
    assert not (home / "shell_history").exists()
    shell = shell_on_terminal(table.db, home, tmp_path)
    shell.expect("chronicle>")
    shell.send("injure Vas\t")  # the one character name it can be, completed
    shell.expect("injure Vasana")
    shell.send(" --damage 100\r")
    shell.expect("Vasana has -75 hit points and dies.")
    shell.expect("chronicle>")
    shell.send("injure Vasana --damage 1\r")  # refused: the prompt comes back, nothing written
    shell.expect("Error: Vasana is dead (-75 hit points)")
    shell.expect("chronicle>")
    shell.send("exit\r")
    assert shell.close() == 0
    assert injuries(table) == 1
    assert "injure Vasana --damage 1" in (home / "shell_history").read_text()

    again = shell_on_terminal(table.db, home, tmp_path)  # a new run recalls the last one's lines
    again.expect("chronicle>")
    again.send("\x1b[A\x1b[A")  # up twice: past `exit`, the refused line
    again.expect("injure Vasana --damage 1")
    again.send("\r")
    again.expect("Error: Vasana is dead (-75 hit points)")
    again.expect("chronicle>")
    again.send("\x04")  # Ctrl-D leaves
    assert again.close() == 0
    assert injuries(table) == 1


def chronicle_process(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", *args],
        env={**os.environ, "CHRONICLE_BY": "gm"},
        text=True,
        **kwargs,
    )


def test_from_standard_input_it_goes_on_after_failing_lines_and_exits_0(table):
    lines = [
        "injure Vasana --damage 3",
        "injure Nobody --damage 3",  # bad input
        "roll d20 --bogus",  # Click refuses it
        "",
        "# a comment",
        "batch -",  # not a line the shell takes
        "injure Vasana --damage 100",
        "injure Vasana --damage 1",  # refused: Vasana is dead
        "character show Vasana --json",
    ]
    shell = chronicle_process(
        "--db", table.db, "shell", stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = shell.communicate("\n".join(lines) + "\n", timeout=60)
    assert shell.returncode == 0, err
    assert err.splitlines() == [
        "Error: line 2: no character in campaign 'Sartar' named 'Nobody'",
        "Error: line 3: No such option '--bogus'.",
        "Error: line 6: batch cannot run inside the shell (it runs its lines in one transaction of its own):"
        " run it on its own",
        "Error: line 8: Vasana is dead (-78 hit points): force it to wound them anyway",
    ]
    assert "Vasana is wounded: wound #1, 3 points." in out
    assert json.loads(out.splitlines()[-1])["condition"]["hp"] == -78
    assert injuries(table) == 2


def test_each_line_sees_what_other_processes_wrote_meanwhile(table):
    shell = chronicle_process(
        "--db", table.db, "shell", stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    stdin, stdout = shell.stdin, shell.stdout
    assert stdin is not None and stdout is not None  # both piped
    try:

        def names() -> list[str]:
            stdin.write("character list --json\n")
            stdin.flush()
            return [row["name"] for row in json.loads(stdout.readline())["characters"]]

        assert names() == ["Vasana"]
        assert table("character", "add", "Harrek", "--stat", "siz=12").exit_code == 0  # another writer
        assert sorted(names()) == ["Harrek", "Vasana"]
        stdin.write("injure Harrek --damage 2\n")
        stdin.flush()
        assert "Harrek is wounded" in stdout.readline()
    finally:
        stdin.close()
        assert shell.wait(60) == 0
    assert injuries(table) == 1


def test_a_failing_first_line_in_an_empty_folder_leaves_the_next_its_ledger(sqlite_db, run_sqlite):
    """A failed line rolls back what it made (the read models' tables): the next line finds none missing."""
    lines = "roll d20\ncampaign new Sartar --system pendragon-pass\ncharacter add Vasana --stat siz=15\n"
    done = run_sqlite("shell", input=lines)
    assert done.exit_code == 0
    assert done.stderr.startswith("Error: line 1: no campaign yet")
    assert "Added Vasana" in done.stdout
    assert [c["name"] for c in run_sqlite.json("character", "list")["characters"]] == ["Vasana"]


def test_a_lines_own_json_and_campaign_last_that_line_only(table):
    table("campaign", "new", "Glorantha", "--system", "adnd2e")
    table("campaign", "use", "Sartar")
    lines = "character list --json --campaign Glorantha\ncharacter list --json\nroll d20\n"
    done = table("shell", input=lines)
    first, second, third = done.stdout.splitlines()[:3]
    assert json.loads(first)["characters"] == []
    assert [c["name"] for c in json.loads(second)["characters"]] == ["Vasana"]
    assert third.startswith("Rolled d20") or "rolled d20" in third


def test_completion_offers_commands_options_and_names_as_the_shell_takes_them(table):
    """The completer behind the prompt: Click's completion of a line without program or global options."""
    from chronicle.cli.context import Env
    from chronicle.cli.main import chronicle

    table("character", "add", "Goblin Chief", "--stat", "siz=10")
    with chronicle.make_context("chronicle", ["--db", table.db]) as ctx:
        ctx.obj = Env.from_options(table.db, False, "gm", None, None)

        def offered(text: str) -> tuple[int, list[str]]:
            start, items = line_completions(ctx, text, refused={"batch", "shell"})
            return start, [item.value for item in items]

        first = offered("")[1]
        assert "injure" in first and "shell" not in first and "batch" not in first
        assert not any(word.startswith("-") for word in first)  # no global option in a line
        assert offered("inj") == (0, ["injure"])
        assert offered("injure Vas") == (7, ["Vasana"])
        assert offered('injure "Gob') == (7, ["Goblin Chief"])
        assert offered("injure Vasana --da") == (14, ["--damage"])
        assert offered("campaign use ") == (13, ["Sartar"])
