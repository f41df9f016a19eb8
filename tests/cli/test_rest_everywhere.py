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


def test_resting_the_dead_is_refused_alike_in_every_system_unless_forced(run):
    """Potestas dead by a third disabling wound; AD&D dead at 0 hp (10 real of 10); PenDragon dead at 0 hit
    points (25 damage of SIZ 12 + CON 13): each rest refused, exit 1, nothing written; forced, recorded."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Mirelle", "--stat", "fort=2")
    for _ in range(3):
        run.json("injure", "Mirelle", "--damage", "30", "--save-roll", "1")
    run("campaign", "new", "Grey", "--system", "adnd2e")
    run("character", "add", "Brand", "--stat", "hp=10", "--stat", "level=2")
    run.json("injure", "Brand", "--damage", "10", "--mode", "lethal")
    run("campaign", "new", "Glor", "--system", "pendragon-pass")
    run("character", "add", "Vinga", "--stat", "siz=12", "--stat", "con=13", "--stat", "str=12")
    run.json("injure", "Vinga", "--damage", "25")
    for campaign, name in (("Pot", "Mirelle"), ("Grey", "Brand"), ("Glor", "Vinga")):
        said = refused(run, "--campaign", campaign, "rest", name, "--days", "1")
        assert said.startswith(f"{name} is dead") and "a rest heals nothing (--force records it anyway)" in said
        forced = run.json("--campaign", campaign, "rest", name, "--days", "1", "--force")
        assert forced["version"] > 0
    assert run.json("--campaign", "Glor", "verify")["ok"] is True


def test_a_rest_lasts_days_or_weeks_in_every_system(run):
    """PenDragon heals its Healing Rate, (STR 12 + CON 13) // 10 = 2, a full week: --weeks 2 heals 4. Potestas
    heals 3 wounds a full day: --days 1 heals 3 of 3. AD&D heals 1 real hit point a full day: --days 2 heals 2."""
    run("campaign", "new", "Glor", "--system", "pendragon-pass")
    run("character", "add", "Vinga", "--stat", "siz=12", "--stat", "con=13", "--stat", "str=12")
    run.json("injure", "Vinga", "--damage", "5")
    assert run.json("rest", "Vinga", "--weeks", "2")["condition"]["hp"] == 25 - 5 + 4
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=0")
    for _ in range(3):
        run.json("injure", "Brand", "--damage", "1", "--save-roll", "10")
    assert run.json("rest", "Brand", "--days", "1")["wounds_healed"] == 3
    run("campaign", "new", "Grey", "--system", "adnd2e")
    run("character", "add", "Guard", "--stat", "hp=10", "--stat", "level=1")
    run.json("injure", "Guard", "--damage", "5", "--mode", "lethal")
    assert run.json("rest", "Guard", "--days", "2")["real_healed"] == 2
    two = run("rest", "Guard", "--days", "1", "--hours", "3")
    assert two.exit_code == 2 and "exactly one of" in two.stderr
