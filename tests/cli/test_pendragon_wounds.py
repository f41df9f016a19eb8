"""PenDragon Pass wounds as the text tracks them, one by one (seed, Injury and Health), on both databases:
their numbers survive a correction of an earlier wound, and a knockdown ends when the knight is back on her
feet."""

VINGA = ("--stat", "siz=12", "--stat", "con=13", "--stat", "str=12", "--stat", "dex=12")


def glorantha(run):
    run("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    assert run("character", "add", "Vinga", *VINGA).exit_code == 0


def test_voiding_an_earlier_wound_leaves_a_later_wounds_number_and_its_first_aid_alone(run):
    """Wound 1 (5) and wound 2 (14) of 25 hit points; First Aid heals 2 of wound 2, magic 3 more. Voiding wound
    1 leaves wound 2 its number: 25 - 14 + 2 + 3 = 16 hit points."""
    glorantha(run)
    first = run.json("injure", "Vinga", "--damage", "5")
    assert run.json("injure", "Vinga", "--damage", "14")["wound"] == 2
    run.json("first-aid", "Vinga", "2", "--heal-roll", "2")
    run.json("heal", "Vinga", "2", "--points", "3")
    at = next(e["position"] for e in run.json("log", "Vinga")["events"] if e["id"] == first["event"])
    run.json("amend", f"#{at}", "--void", "--reason", "the first blow was parried")
    shown = run.json("character", "show", "Vinga")["condition"]
    assert shown["hp"] == 16 and [w["id"] for w in shown["wounds"]] == [2]
    assert shown["wounds"][0]["first_aid_done"] and shown["wounds"][0]["magic_healed"]
    # a new wound after the void takes the next number after those standing
    assert run.json("injure", "Vinga", "--damage", "1")["wound"] == 3
    assert run.json("verify")["ok"] is True


def test_a_knockdown_ends_when_the_knight_is_back_on_her_feet(run):
    """SIZ 8, CON 18: 26 hit points. 9 damage knocks Yara down (9 > 8) and leaves 17, conscious,
    so First Aid after the fight finds her standing; 9 more (18 - 9 = 9 hit points, over a quarter) knocks
    her down again, and a week's rest (168 hours) has her up."""
    glorantha(run)
    squire = ("--stat", "siz=8", "--stat", "con=18", "--stat", "str=12", "--stat", "dex=12")
    assert run("character", "add", "Yara", *squire).exit_code == 0
    assert "knocked_down" in run.json("injure", "Yara", "--damage", "9")["condition"]["states"]
    aided = run.json("first-aid", "Yara", "1", "--heal-roll", "1")
    assert "knocked_down" not in aided["condition"]["states"]
    again = run.json("injure", "Yara", "--damage", "9")["condition"]
    assert again["hp"] == 9 and "knocked_down" in again["states"]
    rested = run.json("rest", "Yara", "--hours", "168")
    assert "knocked_down" not in rested["condition"]["states"]
    assert run.json("verify")["ok"] is True
