"""`chronicle roll`: the notation of the second round, the table's single die, and what a roll refuses."""

import json

import pytest

from chronicle.cli.main import chronicle

LIMIT = "64-bit limit"


@pytest.fixture
def table(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30")
    return run


def _events(run) -> int:
    return len(run.json("log")["events"])


def test_parentheses_and_multiplication_roll_and_record_as_written(table):
    rolled = table.json("roll", "(1d8+3)*2", "--dice", "5", "--for", "Bruno")
    assert rolled["notation"] == "(1d8+3)*2" and rolled["total"] == 16 and rolled["faces"] == [5]
    recorded = table.json("log", "Bruno")["events"][-1]["data"]
    assert recorded["notation"] == "(1d8+3)*2" and recorded["total"] == 16


def test_division_rounds_down(table):
    assert table.json("roll", "1d6/2", "--dice", "5")["total"] == 2
    assert table.json("roll", "-7/2")["total"] == -4


@pytest.mark.parametrize(
    "args",
    [("-1d4",), ("-1d4", "--reason", "-2"), ("--reason", "-2", "-1d4"), ("--for", "Bruno", "-1d4"), ("-1d4", "--json")],
)
def test_a_leading_minus_is_the_notation_not_an_option(table, args):
    rolled = table.json("roll", *args)
    assert rolled["notation"] == "-1d4"
    assert rolled["total"] == -rolled["faces"][0] and 1 <= rolled["faces"][0] <= 4


def test_a_leading_minus_works_in_a_batch_too(table):
    done = table("batch", "-", input='roll -(1d6+1) --reason "a curse"\n')
    assert done.exit_code == 0, done.output
    last = table.json("log")["events"][-1]["data"]
    assert last["notation"] == "-(1d6+1)" and last["total"] == -(last["faces"][0] + 1)


def test_roll_takes_the_tables_single_die_with_roll_n(table):
    rolled = table.json("roll", "d%", "--roll", "37", "--for", "Bruno", "--reason", "luck")
    assert {k: rolled[k] for k in ("notation", "total", "faces", "source")} == {
        "notation": "d%",
        "total": 37,
        "faces": [37],
        "source": "table",
    }
    assert set(rolled) >= {"event", "notation", "total", "faces", "source"}
    assert table.json("roll", "1d20+3", "--roll", "12")["total"] == 15


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("2d6", "--roll", "3"), "--dice"),
        (("8-2", "--roll", "3"), "no dice"),
        (("d20", "--roll", "21"), "cannot show 21"),
        (("d20", "--roll", "5", "--dice", "5"), "once"),
        (("d20", "--roll", "99999999999999999999999"), LIMIT),
    ],
)
def test_a_table_roll_that_does_not_fit_is_bad_input_and_writes_nothing(table, args, says):
    before = _events(table)
    result = table("--json", "roll", *args)
    assert result.exit_code == 2 and result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "bad_input" and says in error["message"]
    assert _events(table) == before


@pytest.mark.parametrize(
    ("notation", "says"),
    [
        ("2-8", "e.g. 2d4"),
        ("4-10", "e.g. 2d4+2"),
        ("99999999999999999999", LIMIT),
        ("9223372036854775807*2", LIMIT),
        ("1d6/(1d2-1)", "can be 0"),
        ("(1d6", "never closed"),
    ],
)
def test_notation_refusals_say_what_to_write_and_write_nothing(table, notation, says):
    before = _events(table)
    result = table("roll", notation)
    assert result.exit_code == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert _events(table) == before


def test_every_new_notation_verifies_after_it_is_recorded(table):
    for notation in ("(1d8+3)*2", "-1d4", "4d6kh3*2-1", "(2d6+1d4)/2", "-(1d6+1)"):
        table.json("roll", notation, "--for", "Bruno")
    assert table("verify").exit_code == 0


def test_a_seed_beyond_64_bits_is_bad_input_not_internal(table):
    before = _events(table)
    result = table.runner.invoke(chronicle, ["--db", table.db, "--json", "--seed", str(2**64), "roll", "d20"])
    assert result.exit_code == 2
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "bad_input" and LIMIT in error["message"]
    assert _events(table) == before
