"""One NUL byte once made a PostgreSQL ledger unreadable. Every text entering the
ledger is checked first (NUL, control characters, lone surrogates, bytes that are not UTF-8); a
refusal is bad input that writes nothing, and no message replays a terminal escape sequence."""

from __future__ import annotations

import json

import pytest

from chronicle.domain.errors import BadInput
from chronicle.domain.text import normalise_name, safe_line

from .edges import exported, refused, stored, story


@pytest.mark.parametrize("text", ["Al\x00ice", "Al\x1b[2Jice", "bell\x07", "csi\x9b31m", "del\x7f", "cr\r"])
def test_a_control_character_in_any_stored_text_is_refused_and_nothing_is_written(run, text):
    story(run)
    before = stored(run.db)
    for args in (
        ("character", "add", text, "--stat", "hp=3"),
        ("roll", "d20", "--reason", text),
        ("--by", text, "roll", "d20"),
    ):
        line = refused(run(*args))
        assert "\x1b" not in line and "\x00" not in line and "\x9b" not in line
    assert stored(run.db) == before
    assert run.json("verify")["ok"] is True  # and every read still works


def test_bytes_that_are_not_utf8_are_refused_where_arguments_enter(run):
    story(run)
    before = stored(run.db)
    refused(run("roll", "d20", "--reason", "caf\udce9"), 2, "not valid UTF-8")
    refused(run("character", "add", "Br\udcffuno", "--stat", "hp=3"), 2, "not valid UTF-8")
    assert stored(run.db) == before


def test_tab_and_newline_stay_allowed_in_free_text(run):
    story(run)
    assert run("roll", "d20", "--reason", "first line\n\tsecond line").exit_code == 0


def test_an_imported_line_holding_a_nul_is_refused_and_nothing_is_written(run, tmp_path):
    lines = exported(tmp_path)
    lines[1] = lines[1].replace('"name":"Bruno"', '"name":"Bru\\u0000no"')
    path = tmp_path / "nul.jsonl"
    path.write_text("\n".join(lines) + "\n")
    refused(run("import", str(path)), 2, "line 2", "NUL")
    assert stored(run.db) == 0


def test_names_are_normalised_so_alice_and_alice_with_a_space_are_one():
    assert normalise_name("Alice ") == normalise_name(" Alice") == "Alice"
    assert normalise_name("Cafe\u0301") == "Caf\u00e9"  # decomposed é is the composed one (NFC)
    for bad in ("", "   ", "A\nB", "A\x1bB", "A\tB"):
        with pytest.raises(BadInput):
            normalise_name(bad)


def test_messages_escape_what_a_terminal_would_obey():
    assert safe_line("no character named \x1b[2Jx\n") == "no character named \\x1b[2Jx\\n"


def test_a_lookup_of_a_name_with_an_escape_sequence_prints_it_escaped(run):
    story(run)
    line = refused(run("character", "show", "\x1b[31mred"))
    assert "\x1b" not in line and "\\x1b[31mred" in line
    as_json = run("--json", "character", "show", "\x1b[31mred")
    assert "\x1b" not in as_json.stderr and json.loads(as_json.stderr)["error"]["message"]


def test_alice_and_alice_with_a_space_are_one_character(run):
    story(run)
    assert run("character", "add", "Alice ", "--stat", "hp=8").exit_code == 0
    assert run.json("character", "show", "Alice")["name"] == "Alice"
    before = stored(run.db)
    refused(run("character", "add", " Alice", "--stat", "hp=8"), 1, "Alice")
    assert stored(run.db) == before
