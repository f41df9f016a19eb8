"""Issue 22 through the command line: weapons named from the sheet, several damage qualities, and the dying
save's rounds. Each refusal or bad input writes nothing."""

import json

import pytest


def keep(run):
    run("campaign", "new", "Keep", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "bab=3", "--stat", "str=14", "--stat", "dex=12", "--stat",
        "weapons=longsword:damage=5,types=slashing;javelin:damage=4,thrown,types=piercing")
    run("character", "add", "Brand", "--stat", "fort=4", "--stat", "dr=5/magic")


def count(run) -> int:
    return len(run.json("log")["events"])


def test_weapons_on_the_sheet_are_shown_and_named_by_attack(run_sqlite):
    run = run_sqlite
    keep(run)
    sheet = run.json("character", "show", "Kara")["sheet"]
    assert [(w["name"], w["damage"], w["thrown"], w["ranged"]) for w in sheet["weapons"]] == [
        ("longsword", "5", False, False), ("javelin", "4", True, True)]
    out = run.json("attack", "Kara", "Brand", "--weapon", "Javelin", "--roll", "15", "--save-roll", "10")
    assert out["attack"]["weapons"] == [{"name": "javelin", "bonus": 4}]  # BAB 3 + Dex 1: thrown is ranged
    assert out["injuries"][0]["damage"] == 6                              # 4 + 2 for Str 14


def test_a_sheet_with_two_weapons_and_no_weapon_named_attacks_with_the_first_only(run_sqlite):
    keep(run_sqlite)
    out = run_sqlite.json("attack", "Kara", "Brand", "--roll", "15", "--save-roll", "10")
    assert out["attack"]["modifiers"] == {} and [w["name"] for w in out["attack"]["weapons"]] == ["longsword"]
    both = run_sqlite.json("attack", "Kara", "Brand", "--multi-weapon", "--roll", "19", "--save-roll", "10")
    assert both["attack"]["modifiers"] == {"multi_weapon": -6}  # every weapon one-handed, no feat


@pytest.mark.parametrize("args", [
    ("attack", "Kara", "Brand", "--weapon", "axe", "--roll", "15"),
    ("attack", "Kara", "Brand", "--weapon", "longsword", "--weapon", "javelin", "--roll", "15"),
    ("attack", "Kara", "Brand", "--weapon", "longsword", "--multi-weapon", "--roll", "15"),
    ("character", "add", "Twin", "--stat", "weapons=dagger:damage=2;dagger:damage=3"),
])
def test_weapon_mistakes_are_bad_input_and_write_nothing(run_sqlite, args):
    keep(run_sqlite)
    before = count(run_sqlite)
    result = run_sqlite("--json", *args)
    assert result.exit_code == 2, result.output
    assert json.loads(result.stderr)["error"]["code"] == "bad_input"
    assert count(run_sqlite) == before


def test_several_damage_qualities_overcome_dr(run_sqlite):
    keep(run_sqlite)
    magic = run_sqlite.json("injure", "Brand", "--damage", "12", "--type", "slashing,magic", "--save-roll", "15")
    assert (magic["after_dr"], magic["dc"]) == (12, 17)
    plain = run_sqlite.json("injure", "Brand", "--damage", "12", "--type", "slashing", "--save-roll", "15")
    assert (plain["after_dr"], plain["dc"]) == (7, 16)


def test_the_dying_save_counts_every_round_unconscious(run_sqlite):
    run = run_sqlite
    keep(run)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "1")   # disabled (natural 1)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "2")   # dying, 2 wounds
    assert run.json("dying-save", "Brand", "--roll", "5")["dc"] == 10          # 5 + 4 - 2 = 7
    stable = run.json("dying-save", "Brand", "--roll", "12", "--rounds", "2")  # DC 10 + 1 + 2; 14
    assert (stable["dc"], stable["result"]) == (13, "stable")
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "2")   # back into dying, 3 wounds
    again = run.json("dying-save", "Brand", "--roll", "10")
    assert (again["dc"], again["total"], again["result"]) == (14, 11, "dying")  # 4 rounds so far, not DC 10
    ignored = run.json("injure", "Brand", "--damage", "12", "--nonlethal", "--save-roll", "2")
    assert ignored["ignored"] and ignored["condition"]["nonlethal_wounds"] == 0
    assert run.json("verify")["ok"]
