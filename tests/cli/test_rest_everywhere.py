"""Rest in every system (seeds 000, 003, 004): the dying who are not stable and the dead are refused alike
unless forced, and a rest may last days or weeks. Both databases."""

import json


def refused(run, *args):
    before = len(run.json("log")["events"])
    result = run("--json", *args)
    assert result.exit_code == 1, result.output
    assert len(run.json("log")["events"]) == before
    return json.loads(result.stderr)["error"]["message"]


def test_a_dying_potestas_character_saves_each_round_until_stable_before_a_rest_heals(run):
    """Fort +2, two failed saves against 30 damage (DC 15 + 30/5 = 21) by 10 or more: disabled, then dying. The
    text has the dying save each round until stable, so 8 hours' rest is refused; a dying save of 20 makes her
    stable, and 8 hours then heal 1 wound (8 // 8): stable -> disabled."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Mirelle", "--stat", "fort=2")
    for _ in range(2):
        run.json("injure", "Mirelle", "--damage", "30", "--save-roll", "1")
    assert "dying" in run.json("character", "show", "Mirelle")["condition"]["states"]
    assert "saves each round until stable" in refused(run, "rest", "Mirelle", "--hours", "8")
    run.json("dying-save", "Mirelle", "--roll", "20")
    rested = run.json("rest", "Mirelle", "--hours", "8")
    assert rested["wounds_healed"] == 1 and "disabled" in rested["condition"]["states"]
    assert run.json("verify")["ok"] is True
