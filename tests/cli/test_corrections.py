"""Corrections that mean what they say: `amend` and `replay` on the command line, on SQLite and
PostgreSQL. Numbers by hand: Kara (Str 10, a 2d6 longsword) attacks Orc (Fortitude +1, defence 0, so a
roll of 10 hits); a hit's injury save is against DC 15 + damage // 5, and failing by 10 or more disables."""

from __future__ import annotations

import json


def table(run, *attack: str) -> dict[str, int]:
    """A Potestas campaign, Kara's attack on Orc, and the positions of the attack and its hits."""
    run("campaign", "new", "Fight", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "weapons=longsword:damage=2d6,types=slashing")
    run("character", "add", "Orc", "--stat", "fort=1")
    result = run("attack", "Kara", "Orc", *attack)
    assert result.exit_code == 0, result.stderr
    return positions(run)


def positions(run) -> dict[str, int]:
    events = run.json("log", "Orc")["events"]
    found = {"attack": next(e["position"] for e in events if e["type"] == "Attacked")}
    found |= {f"hit {n}": e["position"] for n, e in enumerate((e for e in events if e["type"] == "Injured"), 1)}
    return found


def orc(run, *as_of: str) -> dict:
    return run.json("character", "show", "Orc", *as_of)["condition"]


def count(run) -> int:
    return len(run.json("log")["events"])


def test_an_attack_amended_to_a_miss_takes_its_hits_wounds_away_and_verify_re_derives_the_link(run):
    # 15 hits; damage 6 + 6 = 12, DC 17; save 5 + 1 = 6 fails by 11: a disabling wound
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")
    assert orc(run) == {**orc(run), "wounds": 1, "states": ["disabled"]}
    amended = run.json("amend", f"#{at['attack']}", "--roll", "attack=2", "--reason", "the die showed 2")
    changes = {(c["position"], c["field"]): (c["recorded"], c["replayed"]) for c in amended["changes"]}
    assert changes[(at["attack"], "hit")] == (True, False)
    assert changes[(at["hit 1"], "counts")] == (True, False)
    assert orc(run)["wounds"] == 0 and orc(run)["states"] == []
    assert run.json("verify")["ok"] is True
    # the views agree: as of the amendment, now, and the replay's end
    assert orc(run, "--as-of", amended["event"]) == orc(run)
    assert orc(run, "--as-of", f"#{at['hit 1']}")["wounds"] == 1  # the log as it stood before the correction
    assert run.json("replay", "Orc", "--ruling", "disable_margin=5")["final"]["Orc"] == orc(run)


def test_amending_an_attacks_damage_dice_re_derives_its_hits_damage_dc_and_outcome(run):
    # damage 1 + 1 = 2, DC 15; save 14 + 1 = 15: no effect. Corrected to 6 + 6 = 12: DC 17, 15 fails by 2
    at = table(run, "--roll", "15", "--dice", "1,1", "--save-roll", "14")
    assert orc(run)["wounds"] == 0
    amended = run.json("amend", f"#{at['attack']}", "--roll", "damage:1:1=6,6", "--reason", "misread")
    hit = {c["field"]: (c["recorded"], c["replayed"]) for c in amended["changes"] if c["position"] == at["hit 1"]}
    assert hit["damage"] == (2, 12) and hit["dc"] == (15, 17) and hit["outcome"] == ("no_effect", "wound")
    assert orc(run)["wounds"] == 1
    assert run.json("verify")["ok"] is True


def test_a_miss_amended_to_a_hit_brings_its_hit_with_the_save_the_table_gives(run):
    at = table(run, "--roll", "5")  # 5 misses 10: no hit, no injury
    corrections = ["--roll", "attack=15", "--roll", "damage:1:1=6,6", "--save-roll", "5"]
    result = run.json("amend", f"#{at['attack']}", *corrections, "--reason", "misread")
    new = result["changes"][-1]
    assert (new["position"], new["hit"], new["field"], new["replayed"]) == (at["attack"], 1, "counts", True)
    assert orc(run)["wounds"] == 1 and orc(run)["states"] == ["disabled"]  # 12 damage, DC 17, save 6
    assert run.json("verify")["ok"] is True


def test_save_roll_amends_a_hits_save_whatever_its_purpose_is_called_inside(run):
    # damage 2, DC 15: save 3 + 1 = 4 fails by 11 (disabled); corrected to 15: 16 succeeds
    at = table(run, "--roll", "15", "--dice", "1,1", "--save-roll", "3")
    assert orc(run)["states"] == ["disabled"]
    result = run("amend", f"#{at['hit 1']}", "--save-roll", "15", "--reason", "the die was misread")
    assert result.exit_code == 0, result.stderr
    assert orc(run)["wounds"] == 0
    amendment = next(e for e in run.json("log")["events"] if e["type"] == "Amended")
    assert amendment["data"]["table"] == {"save:1": [15]}
    # on the attack itself, --save-roll is its one hit's save
    run.json("amend", f"#{at['attack']}", "--save-roll", "2", "--reason", "the die was misread again")
    assert orc(run)["states"] == ["disabled"]
    assert run.json("verify")["ok"] is True


def test_a_purpose_the_event_does_not_roll_is_bad_input_listing_those_it_rolls(run):
    at = table(run, "--roll", "15", "--dice", "1,1", "--save-roll", "3")
    before = count(run)
    result = run("amend", f"#{at['hit 1']}", "--roll", "sav=12", "--reason", "typo")
    assert result.exit_code == 2
    assert f"#{at['hit 1']} rolls no 'sav' die" in result.stderr and "save:1" in result.stderr
    result = run("amend", f"#{at['attack']}", "--roll", "confirm=12", "--reason", "no threat")
    assert result.exit_code == 2 and "attack, damage:1:1, save:1" in result.stderr
    assert count(run) == before


def test_an_input_the_event_does_not_take_is_bad_input_in_words(run):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run("character", "add", "Bruno", "--stat", "hp=30", "--stat", "level=9")
    assert run("injure", "Bruno", "--damage", "7", "--mode", "sap").exit_code == 0
    assert run("rest", "Bruno", "--hours", "8").exit_code == 0
    rested = next(e["position"] for e in run.json("log")["events"] if e["type"] == "Rested")
    before = count(run)
    result = run("amend", f"#{rested}", "--damage", "8", "--reason", "x")
    assert result.exit_code == 2
    assert f"#{rested} takes no input 'damage'" in result.stderr and "hours, interrupted, minutes" in result.stderr
    assert "Extra inputs" not in result.stderr + result.stdout
    result = run("--json", "amend", f"#{rested}", "--set", "hours=many", "--reason", "x")
    assert result.exit_code == 2
    assert json.loads(result.stderr)["error"]["message"].startswith(f"#{rested}: hours='many' is not a value it takes")
    assert count(run) == before


def test_an_amendment_that_changes_no_recorded_outcome_is_refused_and_not_written(run):
    at = table(run, "--roll", "15", "--dice", "1,1", "--save-roll", "3")
    before = count(run)
    result = run("amend", f"#{at['hit 1']}", "--save-roll", "3", "--reason", "the same die")
    assert result.exit_code == 1
    assert "changes no recorded outcome" in result.stderr and "nothing was written" in result.stderr
    result = run("amend", f"#{at['attack']}", "--roll", "attack=16", "--reason", "still a hit by the same")
    assert result.exit_code == 0  # the total changes (16 against 15): an outcome, recorded
    assert count(run) == before + 1


def test_amend_and_replay_speak_in_log_positions(run):
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")
    told = run("amend", f"#{at['attack']}", "--roll", "attack=2", "--reason", "the die showed 2").stdout
    assert told.startswith(f"Corrected #{at['attack']} (Orc) with the attack roll 2")
    assert f"#{at['hit 1']}: no longer counts" in told and "event 2" not in told and "event 3" not in told
    replayed = run("replay", "Orc", "--ruling", "disable_margin=5").stdout
    assert "No recorded outcome changes" in replayed
    run("amend", f"#{run.json('log')['events'][-1]['position']}", "--void", "--reason", "it hit after all")
    replayed = run("replay", "Orc", "--ruling", "disable_margin=12")  # failing by 11 is no longer disabling
    assert f"Orc, #{at['hit 1']}:" in replayed.stdout and "event " not in replayed.stdout.replace("[event", "")
    changed = run.json("replay", "Orc", "--ruling", "disable_margin=12")["changed"]
    assert {c["position"] for c in changed} == {at["hit 1"]}


def test_two_corrections_of_one_event_add_up_and_voiding_the_second_keeps_the_first(run):
    at = table(run, "--roll", "5")
    run.json("amend", f"#{at['attack']}", "--roll", "attack=15", "--roll", "damage:1:1=6,6", "--reason", "misread")
    second = run.json("amend", f"#{at['attack']}", "--roll", "save:1=19", "--reason", "and the save")
    assert orc(run)["wounds"] == 0  # still a hit (the first correction holds): 20 against DC 17
    run.json("amend", second["event"], "--void", "--reason", "the save was right")
    assert orc(run)["wounds"] == 1
    assert run.json("verify")["ok"] is True


def test_a_dry_run_of_amend_says_what_would_change_and_writes_nothing(run):
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")
    before, wounded = count(run), orc(run)
    args = ("amend", f"#{at['attack']}", "--roll", "attack=2", "--reason", "the die showed 2", "--dry-run")
    answer = run.json(*args)
    assert answer["dry_run"] is True and "event" not in answer
    assert {"hit", "counts"} <= {c["field"] for c in answer["changes"]}
    said = run(*args).stdout
    assert said.startswith(f"Would correct #{at['attack']} (Orc)") and "It would change" in said
    assert said.rstrip().endswith("(A dry run: nothing written.)")
    assert count(run) == before and orc(run) == wounded
    assert run.json("amend", f"#{at['attack']}", "--roll", "attack=2", "--reason", "the die showed 2")["changes"]
    assert count(run) == before + 1


def test_a_dry_run_inside_a_batch_is_bad_input(run):
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")
    before = count(run)
    line = f"amend '#{at['attack']}' --roll attack=2 --reason 'the die showed 2' --dry-run\n"
    done = run("batch", "-", input=line)
    assert done.exit_code == 2 and "a dry run answers on its own" in done.stderr
    assert count(run) == before
