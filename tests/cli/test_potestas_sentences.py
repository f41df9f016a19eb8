"""Potestas weapons through the command line: weapons named from the sheet, several damage qualities, and the dying
save's rounds. Each refusal or bad input writes nothing."""

import json
import re

import pytest

REPR = re.compile(r"=True|=False|=None|\{'|\['|\('|Condition\(|Outcome\(|Inputs\(")


def keep(run):
    run("campaign", "new", "Keep", "--system", "potestas")
    run(
        "character",
        "add",
        "Kara",
        "--stat",
        "bab=3",
        "--stat",
        "str=14",
        "--stat",
        "dex=12",
        "--stat",
        "weapons=longsword:damage=5,types=slashing;javelin:damage=4,thrown,types=piercing",
    )
    run("character", "add", "Brand", "--stat", "fort=4", "--stat", "dr=5/magic")


def count(run) -> int:
    return len(run.json("log")["events"])


def test_weapons_on_the_sheet_are_shown_and_named_by_attack(run_sqlite):
    run = run_sqlite
    keep(run)
    sheet = run.json("character", "show", "Kara")["sheet"]
    assert [(w["name"], w["damage"], w["thrown"], w["ranged"]) for w in sheet["weapons"]] == [
        ("longsword", "5", False, False),
        ("javelin", "4", True, True),
    ]
    out = run.json("attack", "Kara", "Brand", "--weapon", "Javelin", "--roll", "15", "--save-roll", "10")
    assert out["attack"]["weapons"] == [{"name": "javelin", "bonus": 4}]  # BAB 3 + Dex 1: thrown is ranged
    assert out["injuries"][0]["damage"] == 6  # 4 + 2 for Str 14


def test_a_sheet_with_two_weapons_and_no_weapon_named_is_refused_naming_them(run_sqlite):
    keep(run_sqlite)
    refused = run_sqlite("attack", "Kara", "Brand", "--roll", "15", "--save-roll", "10")
    assert refused.exit_code == 2 and "several weapons (longsword, javelin)" in refused.stderr
    out = run_sqlite.json("attack", "Kara", "Brand", "--weapon", "longsword", "--roll", "15", "--save-roll", "10")
    assert out["attack"]["modifiers"] == {} and [w["name"] for w in out["attack"]["weapons"]] == ["longsword"]
    both = run_sqlite.json("attack", "Kara", "Brand", "--multi-weapon", "--roll", "19", "--save-roll", "10")
    assert both["attack"]["modifiers"] == {"multi_weapon": -6}  # every weapon one-handed, no feat


@pytest.mark.parametrize(
    "args",
    [
        ("attack", "Kara", "Brand", "--weapon", "axe", "--roll", "15"),
        ("attack", "Kara", "Brand", "--weapon", "longsword", "--weapon", "javelin", "--roll", "15"),
        ("attack", "Kara", "Brand", "--weapon", "longsword", "--multi-weapon", "--roll", "15"),
        ("character", "add", "Twin", "--stat", "weapons=dagger:damage=2;dagger:damage=3"),
    ],
)
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
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "1")  # disabled (natural 1)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "2")  # dying, 2 wounds
    assert run.json("dying-save", "Brand", "--roll", "5")["dc"] == 10  # 5 + 4 - 2 = 7
    stable = run.json("dying-save", "Brand", "--roll", "12", "--rounds", "2")  # DC 10 + 1 + 2; 14
    assert (stable["dc"], stable["result"]) == (13, "stable")
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "2")  # back into dying, 3 wounds
    again = run.json("dying-save", "Brand", "--roll", "10")
    assert (again["dc"], again["total"], again["result"]) == (14, 11, "dying")  # 4 rounds so far, not DC 10
    ignored = run.json("injure", "Brand", "--damage", "12", "--nonlethal", "--save-roll", "2")
    assert ignored["ignored"] and ignored["condition"]["nonlethal_wounds"] == 0
    assert run.json("verify")["ok"]


def test_every_reply_for_people_is_sentences_without_reprs(run_sqlite):
    run = run_sqlite
    keep(run)
    replies = [
        run(*args).output
        for args in (
            (
                "attack",
                "Kara",
                "Brand",
                "--weapon",
                "longsword",
                "--roll",
                "20",
                "--confirm-roll",
                "18",
                "--save-roll",
                "1",
            ),
            ("injure", "Brand", "--damage", "12", "--type", "slashing,magic", "--save-roll", "2"),
            ("dying-save", "Brand", "--roll", "4"),
            ("injure", "Brand", "--damage", "12", "--nonlethal", "--save-roll", "1"),
            ("rest", "Brand", "--hours", "8", "--force"),  # dying, not stable: forced
            ("exert", "Kara", "--action", "ran to the gate"),
            ("fall", "Kara", "--feet", "40", "--save-roll", "11"),
            ("rules", "falling", "700"),
            ("rules", "fortitude-dc", "12"),
        )
    ]
    for reply in replies:
        assert reply.strip() and not REPR.search(reply), reply
    attack, injured, dying, ignored, rested, exerted, fell, falling, dc = replies
    assert attack.startswith("Kara attacks Brand with longsword (+5): attack bonus +5.")
    assert "Hit 1, critical: (5 (longsword) + 2 Str + 0 enhancement) x 2 = 14 damage." in attack
    assert "Brand takes 12 lethal damage (magic, slashing)." in injured and "Brand is now dying." in injured
    assert "against DC 10 (10 + 0 rounds unconscious so far)" in dying
    assert "Being unconscious, Brand ignores a nonlethal wound." in ignored
    assert rested.startswith("Brand rests for 8 hours and heals 1 lethal step (a step heals a wound, or the state")
    assert exerted.startswith("Kara makes a strenuous effort: \u201cran to the gate\u201d. Kara is no worse for it.")
    assert fell.startswith("Kara falls: a fall of 40 ft strikes at 52.92 ft/s: 10 x 4 = 40 bludgeoning damage.")
    assert falling.strip() == (
        "A fall of 700 ft strikes at 210 ft/s (terminal velocity): 42 x 4 = 168 bludgeoning "
        "damage. No fall deals more: 210 ft/s is terminal velocity."
    )
    assert dc.strip() == "DC 17 = 15 + 12/5, rounded down"


@pytest.mark.parametrize("weapons", ["sword:damage=1d8", "sword:damage=1d8;bow:damage=1d6,ranged"])
def test_a_potestas_attack_takes_the_sheets_only_weapon_and_names_several(run, weapons):
    """One weapon: the attack takes it without --weapon; two: refused naming both (both databases)."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "bab=3", "--stat", f"weapons={weapons}")
    run("character", "add", "Brand", "--stat", "fort=4")
    result = run("--json", "attack", "Kara", "Brand", "--roll", "15", "--save-roll", "10")
    if ";" in weapons:
        assert result.exit_code == 2 and "several weapons (sword, bow)" in json.loads(result.stderr)["error"]["message"]
    else:
        assert result.exit_code == 0 and json.loads(result.stdout)["attack"]["weapons"][0]["name"] == "sword"
