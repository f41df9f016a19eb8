"""Words people stumble on, said as people say them (both databases): help, session ends, wounds, Status,
rulings, sheets, replays and recaps."""

import json
import re

LIBRARY = re.compile(r"Input should|unable to parse|Value error|pydantic|\bValidationError\b")


def test_help_and_replies_say_it_as_people_do(run):
    """PenDragon: a wound of 16 is wound #1, 16 points; SIZ 15 + CON 13 = 28 hit points, and 1,000 Status
    earns the next increase. The session's end gives the log's fingerprint to note."""
    run("campaign", "new", "Glor", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    helps = " ".join(run(*command, "--help").stdout for command in (("injure",), ("rest",), ("winter",)))
    for stumble in ("contract's common form", "seed is silent", "shape below"):
        assert stumble not in helps
    run("session", "start", "The raid")
    assert "wound #1, 16 points" in run("injure", "Vasana", "--damage", "16").stdout
    assert "Status 0: 1,000 more earns the next increase (one every 1,000)" in run("character", "show", "Vasana").stdout
    ended = run("session", "end").stdout
    assert "Digest" not in ended and "fingerprint" in ended
    recap = " ".join(run("recap").stdout.split())
    assert "At the session's end: hp 12/28" in recap and "Now:" not in recap


def test_rulings_and_sheets_refuse_in_words_with_did_you_mean_and_the_64_bit_limit(run):
    run("campaign", "new", "Pot", "--system", "potestas")
    five = run("--json", "replay", "--ruling", "disable_margin=five")
    message = json.loads(five.stderr)["error"]["message"]
    assert five.exit_code == 2 and "'five' must be a whole number" in message and not LIBRARY.search(message)
    near = run("--json", "campaign", "rule", "disable_margn=5", "--reason", "a typo")
    assert near.exit_code == 2 and "did you mean 'disable_margin'?" in json.loads(near.stderr)["error"]["message"]
    run("campaign", "new", "Grey", "--system", "adnd2e")
    huge = run("--json", "character", "add", "Titan", "--stat", "hd=99999999999999999999")
    said = json.loads(huge.stderr)["error"]["message"]
    assert huge.exit_code == 2 and "64-bit limit" in said and "look like" not in said


def test_a_replay_does_not_kill_the_already_dead_again(run):
    """Fort +2, saves of 5 against DC 21: failing by 14, 15 and 16 (10 or more disables): disabled, dying,
    dead; a fourth forced blow lands on the dead. Replayed under disable_margin=20 none disables; the recorded
    fourth blow is told of the dead, who do not die again."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Mirelle", "--stat", "fort=2")
    for _ in range(3):
        run.json("injure", "Mirelle", "--damage", "30", "--save-roll", "5")
    run.json("injure", "Mirelle", "--damage", "30", "--save-roll", "5", "--force")
    replayed = run.json("replay", "--ruling", "disable_margin=20")["told"]
    assert replayed[-1]["recorded"].endswith("Mirelle is dead already.")
    assert sum(r["recorded"].endswith("Mirelle dies.") for r in replayed) == 1
