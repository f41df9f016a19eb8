"""PenDragon Pass commands for the rules read closer to the text: Chirurgery, the dead refused unless forced, and
`winter --ask` asking the table for each die in turn."""

import json

from test_pendragon import events, fails, glorantha

from chronicle.cli.systems import pendragon_ask


def test_chirurgery_lets_a_major_wound_heal(run_sqlite):
    run = run_sqlite
    glorantha(run)  # Vasana: SIZ 15, CON 13 (28 hit points), STR 14: Healing Rate 2
    run.json("character", "add", "Healer", "--stat", "chirurgery=14")
    run.json("injure", "Vasana", "--damage", "13", "--attacker", "Harrek")  # CON or more: a major wound
    assert run.json("rest", "Vasana", "--hours", "168")["healed"] == {}
    fails(run, 1, "chirurgery", "Vasana", "--healer", "Vasana", "--roll", "3")  # never the patient
    fails(run, 2, "chirurgery", "Vasana", "--healer", "Nobody", "--roll", "3")
    done = run.json("chirurgery", "Vasana", "--healer", "Healer", "--roll", "9")
    assert (done["treated"], done["roll"]["result"], done["hp"]) == (True, "success", 15)
    assert "needs_chirurgery" not in done["condition"]["states"]
    assert run.json("rest", "Vasana", "--hours", "168")["healed"] == {"1": 2}
    fails(run, 1, "chirurgery", "Vasana", "--skill", "14", "--roll", "3")  # no longer needed
    human = run("chirurgery", "Harrek", "--skill", "12")
    assert human.exit_code == 1 and "needs Chirurgery" in human.stderr


def test_the_dead_are_refused_injury_and_first_aid_unless_forced(run_sqlite):
    run = run_sqlite
    glorantha(run)
    run.json("injure", "Harrek", "--damage", "40")
    fails(run, 1, "injure", "Harrek", "--damage", "3")
    fails(run, 1, "first-aid", "Harrek", "1", "--heal-roll", "2")
    assert run.json("injure", "Harrek", "--damage", "3", "--force")["hp"] == 16 + 10 - 43
    assert run.json("first-aid", "Harrek", "1", "--heal-roll", "2", "--force")["healed"] == 2


def test_the_dead_are_refused_magic_and_rest_unless_forced(run_sqlite):
    run = run_sqlite
    glorantha(run)
    run.json("injure", "Harrek", "--damage", "40")
    assert "dead" in fails(run, 1, "heal", "Harrek", "1", "--points", "5")["message"]
    assert "dead" in fails(run, 1, "rest", "Harrek", "--hours", "400")["message"]
    assert run.json("heal", "Harrek", "1", "--points", "5", "--force")["healed"] == 5
    assert run.json("rest", "Harrek", "--hours", "1", "--force")["healed"] == {}


def test_winter_asks_the_table_for_each_die_naming_character_and_check(run_sqlite, monkeypatch):
    run = run_sqlite
    glorantha(run)
    run.json("check", "Vasana", "sword", "--roll", "7", "--award-check")
    assert run("winter", "--ask").exit_code == 2  # no terminal here: nothing asked, nothing written
    monkeypatch.setattr(pendragon_ask, "on_terminal", lambda: True)
    # the land; Vasana's productivity (Stewardship 12, rolled 3: a success, so a check) and worship
    # (Religion 10, rolled 15: failure); then her checks in name order: Stewardship, Sword. Harrek rolls nothing.
    result = run("winter", "--ask", input="4\n3\n15\n20\n9\n")
    assert result.exit_code == 0, result.stderr
    asked = [line for line in result.stderr.splitlines() if "(d" in line]
    assert [line.split(":")[0] for line in asked] == ["Winter of year 1", "Vasana", "Vasana", "Vasana", "Vasana"]
    assert "the experience roll for stewardship (d20)" in result.stderr
    assert "the experience roll for sword (d20)" in result.stderr
    resolved = [e for e in events(run) if e["type"] == "WinterResolved" and e["character"] == "Vasana"][-1]
    assert {r["purpose"]: r["faces"] for r in resolved["data"]["dice"]["rolls"]} == {
        "productivity": [3],
        "worship": [15],
        "experience:stewardship": [20],
        "experience:sword": [9],
    }
    assert json.loads(run("--json", "character", "show", "Vasana").stdout)["sheet"]["skills"]["stewardship"] == 13
