"""Weapons in defense (seed 003): the armed defender's weapon, its +4 and the wrestling bout's small weapons,
on both databases."""

import json


def greyhawk(run, *characters):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    for name, *stats in characters:
        added = run("character", "add", name, *(part for stat in stats for part in ("--stat", stat)))
        assert added.exit_code == 0, added.output


THIEF = ("Thief", "hp=30", "level=9", "class=thief")
GUARD = ("Guard", "hp=12", "level=1", "weapons=club:blunt,small,damage=1d6;spear:piercing,damage=1d6")


def test_an_armed_defender_with_two_weapons_names_one_and_strikes_3_plus_4_is_7(run):
    """Two weapons and none named: refused, naming both (as `mug` does); the club named: 3 + 4 = 7 real damage."""
    greyhawk(run, THIEF, GUARD)
    punch = ("attack", "Thief", "Guard", "--maneuver", "punch", "--roll", "1", "--defender-armed")
    refused = run("--json", *punch, "--defender-roll", "6", "--defender-dice", "3")
    assert refused.exit_code == 2 and refused.stdout == ""
    message = json.loads(refused.stderr)["error"]["message"]
    assert "the club or the spear" in message and "--defender-weapon" in message
    struck = run.json(*punch, "--defender-roll", "6", "--defender-dice", "3", "--defender-weapon", "club")
    assert struck["defender_strike"]["damage"] == 7 and "ignored" not in struck
    assert struck["attacker_injury"]["real"] == 7
    assert run.json("character", "show", "Thief")["condition"]["real_damage"] == 7
    told = run("log", "Guard").stdout
    assert "armed with the club" in told and "a hit for 3 + 4 = 7 damage" in told


def test_after_a_wrestling_bouts_first_round_the_defender_too_is_limited_to_small_weapons(run):
    """Round 2 of a bout: the spear (medium) is refused for the defender as for the attacker; the club
    (small), its only small weapon, strikes unnamed: 16 + 4 = 20 hits, 4 + 4 = 8 damage."""
    greyhawk(run, THIEF, GUARD)
    bout = ("attack", "Thief", "Guard", "--maneuver", "wrestle", "--wrestling-round", "2", "--roll", "1")
    spear = run("--json", *bout, "--defender-armed", "--defender-roll", "16", "--defender-weapon", "spear")
    assert spear.exit_code == 1
    assert "small weapons" in json.loads(spear.stderr)["error"]["message"]
    struck = run.json(*bout, "--defender-armed", "--defender-roll", "16", "--defender-dice", "4")
    assert struck["defender_strike"]["damage"] == 8
    events = [e for e in run.json("log", "Guard")["events"] if e["character"] == "Guard"]  # (its own)
    assert events[-1]["data"]["inputs"]["defender_weapon"] == "club"
    assert run.json("verify")["ok"] is True


def test_correcting_an_attack_undoes_and_redoes_the_defenders_strike_on_the_attacker(run):
    """The club's strike hits for 3 + 4 = 7: corrected to a 5 (5 + 4 = 9 against 10, a miss) the Thief's 7
    real damage is voided; corrected to a 15 it is dealt again; the attack voided, it is gone again."""
    greyhawk(run, THIEF, ("Guard", "hp=12", "level=1", "weapons=club:blunt,small,damage=1d6"))
    punch = run.json(
        "attack", "Thief", "Guard", "--maneuver", "punch", "--roll", "1", "--defender-armed",
        "--defender-roll", "6", "--defender-dice", "3",
    )  # fmt: skip
    at = [e for e in run.json("log", "Guard")["events"] if e["character"] == "Guard"][-1]["position"]
    assert punch["attacker_injury"]["real"] == 7

    def thief():
        return run.json("character", "show", "Thief")["condition"]["real_damage"]

    missed = run.json("amend", f"#{at}", "--roll", "defence=5", "--reason", "the die read 5")
    assert thief() == 0 and any(c["character"] == "Thief" and c["field"] == "counts" for c in missed["changes"])
    run.json("amend", f"#{at}", "--roll", "defence=15", "--reason", "it read 15 after all")
    assert thief() == 7
    run.json("amend", f"#{at}", "--void", "--reason", "no such fight")
    assert thief() == 0
    assert run.json("verify")["ok"] is True


def test_a_monster_of_2_hit_dice_attacks_with_thac0_19_from_the_dmg_table(run):
    """Table 39 of the Dungeon Master's Guide: 2 hit dice, THAC0 19; against AC 10 it needs 19 - 10 = 9, so a 9
    hits (with THAC0 20 it would miss). Under the ruling monster_thac0=twenty, 20 again."""
    greyhawk(run, ("Gnoll", "hp=11", "hd=2", "weapons=axe:edged,damage=1d8"), ("Guard", "hp=12", "level=1"))
    hit = run.json("attack", "Gnoll", "Guard", "--roll", "9", "--dice", "5")
    assert (hit["needed"], hit["hit"], hit["injury"]["real"]) == (9, True, 5)
    assert "THAC0 19 for 2 hit dice - AC 10" in run("log", "Guard").stdout
    run("campaign", "rule", "monster_thac0=twenty", "--reason", "the table's old way")
    assert run.json("attack", "Gnoll", "Guard", "--roll", "9")["needed"] == 10
    assert run.json("verify")["ok"] is True


def test_an_attack_takes_the_sheets_only_weapon_and_names_the_choices_when_there_are_several(run):
    """A club (1d6) alone on the sheet: no --weapon strikes with it, 4 damage from the table's 4; a longsword
    alone, armed non-lethal: -4 to hit, 8 rolled halved to 4, 2 real and 2 temporary. Two weapons: refused,
    naming both."""
    greyhawk(
        run,
        ("Brute", "hp=20", "level=1", "weapons=club:blunt,damage=1d6"),
        ("Knight", "hp=20", "level=1", "weapons=longsword:edged,damage=1d8"),
        THIEF,
        ("Guard", "hp=30", "level=1", "weapons=club:blunt,small,damage=1d6;spear:piercing,damage=1d6"),
    )
    clubbed = run.json("attack", "Brute", "Thief", "--roll", "15", "--dice", "4")
    assert clubbed["injury"]["real"] == 4
    assert run.json("log", "Thief")["events"][-2]["data"]["inputs"]["weapon"] == "club"
    flat = run.json("attack", "Knight", "Thief", "--maneuver", "armed-nonlethal", "--roll", "18", "--dice", "8")
    assert flat["modifiers"]["to_hit"] == -4 and (flat["injury"]["real"], flat["injury"]["temporary"]) == (2, 2)
    several = run("--json", "attack", "Guard", "Thief", "--roll", "15")
    assert several.exit_code == 2 and "club, spear" in json.loads(several.stderr)["error"]["message"]


def test_a_sap_takes_the_tables_knockout_dice_and_replies_the_damage_it_counted(run):
    """A +2 club sap: 4 rolled + 2 = 6, of which a sap counts 4 (no magic bonus): 4 // 4 = 1 real, 3 temporary;
    knockout chance 4 x 5 = 20%, the table's d100 12 knocks out, its 2d8 (3, 4) for 7 rounds. A missed sap's
    knockout dice are not needed, and said so."""
    greyhawk(run, ("Thief", "hp=11", "level=3", "weapons=club:blunt,damage=1d6,magic=2"), ("Guard", "hp=12"))
    sap = ("attack", "Thief", "Guard", "--maneuver", "sap", "--knockout-roll", "12", "--knockout-dice", "3,4")
    hit = run.json(*sap, "--roll", "20", "--dice", "4")
    assert hit["damage"] == 4 and (hit["injury"]["real"], hit["injury"]["temporary"]) == (1, 3)
    assert hit["injury"]["knocked_out"] is True and hit["condition"]["knocked_out_rounds"] == 7
    missed = run.json(*sap, "--roll", "2")
    assert missed["ignored"] == {"knockout": [12], "knockout_rounds": [3, 4]}
    assert "knockout die (12) was not needed" in run(*sap, "--roll", "2").stdout


def test_mug_takes_the_victims_save_vs_petrification_from_its_sheet(run):
    """The seed's example: a t9 thief mugs a 4 HD ogre whose sheet says petrification=12: 12 + 9 - 4 = 17."""
    greyhawk(
        run,
        ("Thief", "hp=30", "level=9", "class=thief", "weapons=club:blunt,damage=1d6"),
        ("Ogre", "hp=26", "hd=4", "petrification=12"),
        ("Guard", "hp=12", "level=1"),
    )
    mugged = run.json("mug", "Thief", "Ogre", "--save-roll", "16", "--knockout-dice", "3,4")
    assert (mugged["save_number"], mugged["saved"], mugged["knockout_rounds"]) == (17, False, 7)
    missing = run("--json", "mug", "Thief", "Guard", "--save-roll", "16")
    assert missing.exit_code == 2 and "petrification" in json.loads(missing.stderr)["error"]["message"]


def test_adnd2e_results_explain_their_arithmetic(run):
    """7 armed non-lethal halved to 3 (1 real, 2 temporary); a sap's -8 is the called shot's -4 and -4 more; a
    rest of 8 hours heals no real damage, as real damage heals 1 a full day."""
    greyhawk(run, ("Thief", "hp=11", "level=3", "weapons=club:blunt,damage=1d6"), ("Brand", "hp=10", "level=2"))
    halved = run("injure", "Brand", "--damage", "7", "--mode", "armed-nonlethal").stdout
    assert "7 armed non-lethal damage, halved to 3: 1 real and 2 temporary." in halved
    sapped = run("attack", "Thief", "Brand", "--maneuver", "sap", "--roll", "3", "--knockout-roll", "90").stdout
    assert "The roll's -8: -4 for the called shot and -4 more for a sap." in sapped
    run("rest", "Brand", "--minutes", "30")
    rested = run("rest", "Brand", "--hours", "8").stdout
    assert (
        "heals nothing: temporary damage heals 1 a full turn (10 minutes) of rest and real damage 1 a full day"
        in rested
    )
    assert "8 hours is not a day" in rested


def test_an_attack_replies_with_the_same_nesting_in_every_system(run):
    """Potestas and AD&D both answer an attack with the attack nested under `attack` and its injuries in a list."""
    shared = {"event", "version", "attacker", "target", "hit", "attack", "injuries", "events", "notes", "condition"}
    greyhawk(run, ("Brute", "hp=20", "level=1", "weapons=club:blunt,damage=1d6"), ("Guard", "hp=12"))
    adnd = run.json("attack", "Brute", "Guard", "--roll", "15", "--dice", "4")
    assert shared <= set(adnd) and adnd["attack"]["roll"] == 15 and adnd["injuries"][0]["real"] == 4
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Kara", "--stat", "bab=3", "--stat", "weapons=sword:damage=1d8")
    run("character", "add", "Brand", "--stat", "fort=4")
    potestas = run.json("attack", "Kara", "Brand", "--roll", "15", "--dice", "5", "--save-roll", "10")
    assert shared <= set(potestas) and potestas["attack"]["roll"] == 15 and len(potestas["injuries"]) == 1
    pendragon = run("campaign", "new", "Glor", "--system", "pendragon-pass")
    assert pendragon.exit_code == 0
    pointed = run("attack", "Kara", "Brand")
    assert pointed.exit_code == 2 and "check NAME SKILL --opposed-by" in pointed.stderr
    assert "injure FOE --damage N --attacker NAME" in pointed.stderr


def test_amend_takes_a_bare_position(run):
    """`amend 5` as `amend '#5'`: in a shell an unquoted #5 is a comment."""
    greyhawk(run, ("Guard", "hp=12"))
    injured = run.json("injure", "Guard", "--damage", "5", "--mode", "lethal")
    at = next(e["position"] for e in run.json("log", "Guard")["events"] if e["id"] == injured["event"])
    assert run.json("amend", str(at), "--void", "--reason", "no blow")["position"] == at
