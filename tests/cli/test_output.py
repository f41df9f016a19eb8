"""Output for people at the table: a long human output fits the terminal's width, broken
between words; `export -o FILE` says what it wrote, and nothing joins an export on stdout."""

from __future__ import annotations

import os
import shutil

import pytest

from chronicle.cli import output
from chronicle.cli.output import Exact, fitted

WINTER = """
campaign new Sartar --system pendragon-pass
character add Vasana --stat siz=15 --stat con=13 --stat valorous=17 --stat stewardship=12 --stat religion=10 \
--stat initiate=1 --virtues valorous,generous,honest,just,merciful
check Vasana stewardship --roll 3 --award-check
"""


def test_a_long_line_is_broken_between_words_and_keeps_its_indent():
    line = "    #5 Vasana gains 400 Status for the honour Rune Lord (base 400): Status is now 1,000."
    assert fitted(line, 40).split("\n") == [
        "    #5 Vasana gains 400 Status for the",
        "    honour Rune Lord (base 400): Status",
        "    is now 1,000.",
    ]
    table = "Vasana  12  hp 28/28\nshort"
    assert fitted(table, 40) == table  # lines that fit are left as they are, spacing and all
    assert fitted("a " + "x" * 50, 20) == "a\n" + "x" * 50  # a word longer than the line stands alone


@pytest.fixture
def terminal(monkeypatch):
    """Output as if stdout were a terminal COLUMNS wide and tall enough for no pager."""

    def at(columns: int) -> None:
        monkeypatch.setattr(output, "on_terminal", lambda: True)
        monkeypatch.setattr(output, "width", lambda: columns)
        monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((columns, 10_000)))

    return at


def test_winter_on_a_terminal_fits_its_width_without_breaking_a_word(run_sqlite, tmp_path, terminal):
    script = tmp_path / "winter.batch"
    script.write_text(WINTER.replace("\\\n", ""))
    assert run_sqlite("batch", str(script)).exit_code == 0
    terminal(50)
    done = run_sqlite("winter", "--year", "1621", "--land-roll", "4")
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.rstrip("\n").split("\n")
    assert len(lines) > 3 and all(len(line) <= 50 for line in lines), lines
    told = " ".join(done.stdout.split())
    assert "The winter of year 1621 for Vasana (the land rolled 4: normal land, +0)." in told


def test_a_signed_note_is_printed_whole_even_on_a_narrow_terminal(capsys, terminal):
    terminal(20)
    note = "example.org/log\n3\n— chronicle AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/== more"
    output.show(Exact(note))
    assert capsys.readouterr().out == note + "\n"


def test_export_to_a_file_says_what_it_wrote_and_nothing_joins_stdout(run_sqlite, tmp_path):
    script = tmp_path / "winter.batch"
    script.write_text(WINTER.replace("\\\n", ""))
    assert run_sqlite("batch", str(script)).exit_code == 0
    target = tmp_path / "sartar.jsonl"
    done = run_sqlite("export", "-o", str(target))
    assert done.exit_code == 0, done.stderr
    assert done.stdout == f"Wrote the 3 events of Sartar to {target}.\n"
    assert len(target.read_text().splitlines()) == 4  # the events and the closing line
    assert run_sqlite.json("export", "-o", str(target)) == {"campaign": "Sartar", "events": 3, "output": str(target)}
    streamed = run_sqlite("export")
    assert streamed.stdout == target.read_text() and "Wrote" not in streamed.stdout


def test_export_through_a_link_writes_its_file_and_keeps_the_link(run_sqlite, tmp_path):
    script = tmp_path / "winter.batch"
    script.write_text(WINTER.replace("\\\n", ""))
    assert run_sqlite("batch", str(script)).exit_code == 0
    real, link = tmp_path / "real.jsonl", tmp_path / "latest.jsonl"
    real.write_text("older\n")
    link.symlink_to(real)
    assert run_sqlite("export", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith('{"id"') and len(real.read_text().splitlines()) == 4
