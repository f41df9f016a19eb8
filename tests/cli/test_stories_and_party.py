"""Each character's own story (an event belongs to every character it names: the attacker as well as the
target) and the party and the others (`--npc`), on both databases."""

from __future__ import annotations

import json

THIEF = ("Thief", "hp=30", "level=9", "class=thief", "weapons=club:blunt,small,damage=1d6")
GUARD = ("Guard", "hp=12", "level=1", "weapons=club:blunt,small,damage=1d6")


def greyhawk(run, *characters, npc=()):
    assert run("campaign", "new", "Greyhawk", "--system", "adnd2e").exit_code == 0
    for name, *stats in characters:
        extra = ("--npc",) if name in npc else ()
        added = run("character", "add", name, *extra, *(part for stat in stats for part in ("--stat", stat)))
        assert added.exit_code == 0, added.output


def punch(run):
    """The Thief punches the Guard (a hit: 2 subdual damage, halved); the Guard's club struck first for 3 + 4."""
    return run.json(
        "attack", "Thief", "Guard", "--maneuver", "punch", "--roll", "15", "--dice", "2",
        "--defender-armed", "--defender-roll", "6", "--defender-dice", "3",
    )  # fmt: skip


def test_the_attackers_log_holds_the_attack_it_made_on_another(run):
    greyhawk(run, THIEF, GUARD)
    punch(run)
    guard = {e["position"] for e in run.json("log", "Guard")["events"] if e["character"] == "Guard"}
    thief = run.json("log", "Thief")["events"]
    assert guard - {min(guard)} <= {e["position"] for e in thief}  # the attack and its damage, not the registration
    attack = next(e for e in thief if e["character"] == "Guard" and e["type"].endswith("Attacked"))
    assert attack["data"]["inputs"]["attacker"] == "Thief"
    told = run("log", "Thief").stdout
    assert "Thief punches Guard" in " ".join(told.split())
    assert "Thief punches Guard" in " ".join(run("log", "Thief", "--tail", "3").stdout.split())
    assert [e["position"] for e in run.json("log", "Thief", "--tail", "1")["events"]] == [thief[-1]["position"]]


def test_the_report_and_recap_tell_what_the_attacker_did(run):
    greyhawk(run, THIEF, GUARD)
    assert run("session", "start").exit_code == 0
    punch(run)
    report = " ".join(run("report", "Thief").stdout.split())
    assert "Thief punches Guard" in report
    recap = run.json("recap")
    thief = next(c for c in recap["characters"] if c["name"] == "Thief")
    assert thief["deeds"] and all(d["character"] == "Guard" for d in thief["deeds"])
    told = " ".join(run("recap").stdout.split())
    assert "Thief took 7 damage (7 real) and acted on Guard (2 events)" in told


def test_a_wound_and_a_first_aid_belong_to_the_attacker_and_the_healer_too(run):
    assert run("campaign", "new", "Sartar", "--system", "pendragon-pass").exit_code == 0
    for name in ("Vasana", "Harrek"):
        added = run("character", "add", name, "--stat", "siz=15", "--stat", "con=13", "--stat", "first_aid=15")
        assert added.exit_code == 0, added.output
    assert run("injure", "Vasana", "--damage", "8", "--attacker", "Harrek").exit_code == 0
    aided = run("first-aid", "Vasana", "1", "--healer", "Harrek", "--roll", "5")
    assert aided.exit_code == 0, aided.output
    on_vasana = [e for e in run.json("log", "Harrek")["events"] if e["character"] == "Vasana"]
    assert len(on_vasana) == 2  # the wound Harrek dealt and the First Aid Harrek gave
    assert "Harrek" in " ".join(run("log", "Harrek").stdout.split()).split("Vasana", 1)[1]


def test_others_are_marked_npc_and_listed_after_the_party(run):
    greyhawk(run, GUARD, THIEF, npc=("Guard",))
    assert run.json("character", "show", "Guard")["npc"] is True
    assert run.json("character", "show", "Thief")["npc"] is False
    listed = run.json("character", "list")["characters"]
    assert [(c["name"], c["npc"]) for c in listed] == [("Guard", True), ("Thief", False)]
    report = run.json("campaign", "report")
    assert [c["name"] for c in report["characters"]] == ["Thief", "Guard"]


def test_character_set_npc_and_pc_each_append_one_event_that_verify_accepts(run):
    greyhawk(run, THIEF, GUARD)
    before = len(run.json("log")["events"])
    cast = run.json("character", "set", "Guard", "--npc", "--reason", "a foe after all")
    assert cast["npc"] is True and len(run.json("log")["events"]) == before + 1
    assert run.json("character", "show", "Guard")["npc"] is True
    again = run("character", "set", "Guard", "--npc")
    assert again.exit_code == 1 and "one of the others already" in again.stderr
    assert run("character", "set", "Guard", "hp=3", "--pc").exit_code == 2
    assert run("character", "set", "Guard").exit_code == 2
    assert run.json("character", "set", "Guard", "--pc")["npc"] is False
    assert run.json("character", "show", "Guard")["npc"] is False
    assert "Guard leaves the party" in run("log", "Guard").stdout
    assert len(run.json("log")["events"]) == before + 2
    assert run.json("verify")["ok"] is True


def test_a_winter_without_a_plan_takes_the_party_only_and_leaders_are_the_partys(run):
    assert run("campaign", "new", "Sartar", "--system", "pendragon-pass").exit_code == 0
    assert run("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13").exit_code == 0
    assert run("character", "add", "Broo", "--npc", "--stat", "siz=12", "--stat", "con=12").exit_code == 0
    assert run.json("status", "award", "Broo", "--amount", "500", "--reason", "a raid")
    winter = run.json("winter", "--year", "1625", "--land-roll", "4")
    assert list(winter["characters"]) == ["Vasana"]
    leaders = run.json("campaign", "report")["status_leaders"]
    assert [leader["name"] for leader in leaders] == ["Vasana"]
    assert json.dumps(run.json("character", "show", "Broo")).count('"npc": true') == 1


def test_character_show_gives_health_as_left_of_and_level_in_every_system(run):
    greyhawk(run, THIEF, GUARD)
    punch(run)
    assert run.json("character", "show", "Thief")["health"] == {"left": 23, "of": 30, "level": "hurt"}
    assert run("campaign", "new", "Dragon Pass", "--system", "potestas").exit_code == 0
    assert run("character", "add", "Brand", "--stat", "fort=5").exit_code == 0
    assert run.json("character", "show", "Brand")["health"] == {"left": 4, "of": 4, "level": "fit"}


def test_a_rebuild_folds_again_which_characters_each_event_names(run):
    greyhawk(run, THIEF, GUARD)
    punch(run)
    before = [e["position"] for e in run.json("log", "Thief")["events"]]
    assert run("rebuild").exit_code == 0
    assert [e["position"] for e in run.json("log", "Thief")["events"]] == before
    assert "Thief punches Guard" in " ".join(run("log", "Thief").stdout.split())


def test_recap_tells_the_party_first_then_the_others(run):
    greyhawk(run, THIEF, GUARD, npc=("Guard",))
    assert run("session", "start").exit_code == 0
    punch(run)  # recorded on the Guard first
    assert [c["name"] for c in run.json("recap")["characters"]] == ["Thief", "Guard"]
    told = run("recap").stdout
    assert told.index("Thief took") < told.index("Guard ")
