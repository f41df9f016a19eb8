"""A correction tells only what changed, in the table's words (golden sentences, one per system), on both
databases."""


def first_line(result):
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[0]


def position_of(run, event):
    return next(e["position"] for e in run.json("log")["events"] if e["id"] == event)


def test_a_pendragon_correction_says_the_rolls_and_results_that_changed(run):
    """Sword 15: 7 is a partial success against the opponent's 9 under 12; corrected to 15 it is a critical
    (equal to the value), which beats the opponent's success."""
    run("campaign", "new", "Glor", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "sword=15")
    checked = run.json("check", "Vasana", "sword", "--roll", "7", "--opposed-value", "12", "--opposed-roll", "9")
    at = position_of(run, checked["event"])
    said = first_line(run("amend", str(at), "--roll", "check=15", "--reason", "the die read 15"))
    assert said == (
        f'Corrected #{at} (Vasana) with the check roll 15: "the die read 15". It changed #{at}: roll from 7 to 15, '
        "roll total from 7 to 15, roll result from partial success to critical and winner from the opponent to the "
        "roller."
    )


def test_a_potestas_correction_says_the_save_and_its_result_that_changed(run):
    """Fort +4 against 12 damage: DC 15 + 12/5 = 17; 7 + 4 = 11 fails by 6 (a wound); a natural 20 saves by 7."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=4")
    injured = run.json("injure", "Brand", "--damage", "12", "--save-roll", "7")
    at = position_of(run, injured["event"])
    said = first_line(run("amend", str(at), "--save-roll", "20", "--reason", "a natural 20"))
    assert said == (
        f'Corrected #{at} (Brand) with the save 20: "a natural 20". It changed #{at}: degree from a wound to no '
        "effect, outcome from wound to no effect, save roll from 7 to 20, save total from 11 to 24, save margin from "
        "-6 to 7 and save success from no to yes."
    )


def test_an_adnd2e_correction_says_the_hit_and_the_damage_that_changed(run):
    """THAC0 20 against AC 10 needs 10: 12 hits for the club's 4; corrected to 3 it misses and its injury goes."""
    run("campaign", "new", "Grey", "--system", "adnd2e")
    run("character", "add", "Brute", "--stat", "hp=20", "--stat", "weapons=club:blunt,damage=1d6")
    run("character", "add", "Guard", "--stat", "hp=12")
    struck = run.json("attack", "Brute", "Guard", "--roll", "12", "--dice", "4")
    at = position_of(run, struck["event"])
    said = first_line(run("amend", str(at), "--roll", "attack=3", "--reason", "it was a 3"))
    assert said == (
        f'Corrected #{at} (Guard) with the attack roll 3: "it was a 3". It changed #{at}: damage from 4 to nothing, '
        f"hit from yes to no and roll from 12 to 3; #{at + 1}: no longer counts."
    )


def test_log_json_lists_each_events_correctable_dice_by_the_names_amend_takes(run):
    """A Potestas attack rolled 15 to hit and 5 damage; its hit saved on a 10: `attack`, `damage:1:1` and the
    hit's `save:1`, each correctable by that name (10 becomes 2, failing DC 16 by 10: disabled)."""
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "bab=3", "--stat", "weapons=sword:damage=1d8")
    run("character", "add", "Brand", "--stat", "fort=4")
    run.json("attack", "Kara", "Brand", "--roll", "15", "--dice", "5", "--save-roll", "10")
    events = run.json("log", "Brand")["events"]
    named = {e["type"]: [(d["roll"], d["says"], d["faces"]) for d in e["correctable"]] for e in events}
    assert named["Attacked"] == [
        ("attack", "the attack roll", [15]),
        ("damage:1:1", "hit 1's damage dice (weapon 1)", [5]),
    ]
    assert named["Injured"] == [("save:1", "hit 1's save", [10])]
    hit = events[-1]["position"]
    corrected = run.json("amend", str(hit), "--roll", "save:1=2", "--reason", "a 2")
    assert "disabled" in corrected["condition"]["states"]
    assert "correctable" in run("amend", "--help").stdout


def test_every_event_a_correction_changed_is_told_struck_with_its_corrected_sentence(run, tmp_path):
    """Brand (Fort +4) saves on 10 against hit 1's DC 16: 14 fails by 2, a wound. The attack corrected to a 2
    misses: the hit no longer counts. Where the log, the report and the web story tell the attack and its hit,
    the recorded sentences are struck and the corrected ones stand beside them."""
    from starlette.testclient import TestClient

    from chronicle.cli.web.app import build
    from chronicle.cli.web.reading import Reading

    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "bab=3", "--stat", "weapons=sword:damage=1d8")
    run("character", "add", "Brand", "--stat", "fort=4")
    run("session", "start", "The ambush")
    struck = run.json("attack", "Kara", "Brand", "--roll", "15", "--dice", "5", "--save-roll", "10")
    at = position_of(run, struck["event"])
    run.json("amend", str(at), "--roll", "attack=2", "--reason", "it was a 2")
    run("session", "end")
    log = " ".join(run("log", "Brand").stdout.split())
    assert "~~Kara attacks Brand with sword (+3): attack bonus +3. Rolled 15 + 3 = 18" in log
    assert "Rolled 2 + 3 = 5 against 10 (10 + defence 0): misses by 5. (corrected at" in log
    assert "Brand is standing, neither disabled nor staggered.~~ It no longer counts (corrected at" in log
    report = run.json("report", "Brand")
    told = " ".join(e["summary"] for e in report["timeline"])
    assert "~~Kara attacks Brand" in told and "It no longer counts" in told
    page = tmp_path / "brand.html"
    assert run("report", "Brand", "--html", str(page)).exit_code == 0
    assert "<del>Kara attacks Brand" in page.read_text()
    data = Reading(run.db)
    try:
        with TestClient(build(data, lambda line: None)) as client:
            story = client.get("/c/Pot/Brand").text
    finally:
        data.close()
    assert "<del>Kara attacks Brand" in story and "misses by 5" in story
