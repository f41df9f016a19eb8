"""The AD&D 2E commands as a table would script them: injure, rest, attack, mug, grab and the rules
queries, through Click's CliRunner (storage-relevant stories on SQLite and PostgreSQL)."""

import json
from pathlib import Path

import pytest
from conftest import campaign_of

from chronicle.domain import adnd2e
from chronicle.domain.character import Character, character_id
from chronicle.domain.dice import Dice
from chronicle.ledger.store.chronicle import open_ledger


def greyhawk(run, *characters):
    run("campaign", "new", "Greyhawk", "--system", "adnd2e")
    for name, *stats in characters:
        added = run("character", "add", name, *(part for stat in stats for part in ("--stat", stat)))
        assert added.exit_code == 0, added.output


ARMS = (
    "weapons=club:blunt,damage=1d6;sling:blunt,missile,small,damage=1d4;longsword:edged,damage=1d8;"
    "spear:piercing,damage=1d6"
)
THIEF = ("Thief", "hp=30", "level=9", "height=60", "str=18/76", "class=thief", ARMS)
OGRE = ("Ogre", "hp=26", "hd=4", "size=large", "height=108", "str=18/00")
BRAND = ("Brand", "hp=10", "level=2", "str=15")
GUARD = ("Guard", "hp=12", "level=1", "str=16")


def log_length(run):
    return len(run.json("log")["events"])


def refused(run, *args):
    """Run a command that the rules refuse: exit 1, the reason on stderr, nothing written."""
    before = log_length(run)
    result = run("--json", *args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    error = json.loads(result.stderr)["error"]
    assert error["code"] == "refused"
    assert log_length(run) == before
    return error["message"]


def bad_input(run, *args):
    before = log_length(run)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert log_length(run) == before
    return result.stderr


# --- on both databases -------------------------------------------------------------------------


def test_projected_hp_after_a_sequence_equals_a_fold_of_the_log(run):
    greyhawk(run, BRAND)
    # A flat-bladed sword: 13 rolled becomes 6, 3 real and 3 temporary.
    first = run.json("injure", "Brand", "--damage", "13", "--mode", "armed-nonlethal")
    assert {k: first[k] for k in ("real", "temporary", "knocked_out", "version")} == {
        "real": 3,
        "temporary": 3,
        "knocked_out": False,
        "version": 2,
    }
    assert set(first) >= {"event", "version", "real", "temporary", "knocked_out", "condition"}
    # Subdual: 9 rolled becomes 4, 2 real and 2 temporary; 10 in all knocks him out.
    second = run.json("injure", "Brand", "--damage", "9", "--mode", "subdual")
    assert second["condition"] == {
        "hp": 0,
        "max_hp": 10,
        "real_damage": 5,
        "temporary_damage": 5,
        "states": ["unconscious"],
        "knocked_out_rounds": 0,
        "held_by": None,
    }
    # Two turns of rest bring back 2 temporary hp and consciousness.
    rested = run.json("rest", "Brand", "--minutes", "20")
    assert (rested["temporary_healed"], rested["real_healed"], rested["version"]) == (2, 0, 4)

    shown = run.json("character", "show", "Brand")
    assert shown["condition"]["hp"] == 2 and shown["condition"]["states"] == []
    app = open_ledger(run.db)  # a fresh application: the aggregate folded from the stored events alone
    folded: Character = app.repository.get(character_id(campaign_of(app, "Greyhawk"), "Brand"))
    app.close()
    assert folded.version == shown["version"] == 4
    sheet, condition = folded.sheet, folded.condition
    assert isinstance(sheet, adnd2e.Sheet) and isinstance(condition, adnd2e.Condition)
    assert adnd2e.view(sheet, condition)["condition"] == shown["condition"]


def test_log_json_shows_the_real_and_temporary_parts(run):
    greyhawk(run, BRAND)
    run("injure", "Brand", "--damage", "13", "--mode", "armed-nonlethal")
    run("injure", "Brand", "--damage", "4", "--mode", "lethal")
    injuries = [e for e in run.json("log", "Brand")["events"] if e["type"] == "Injured"]
    assert [(e["data"]["outcome"]["real"], e["data"]["outcome"]["temporary"]) for e in injuries] == [(3, 3), (4, 0)]
    assert [e["data"]["inputs"]["mode"] for e in injuries] == ["armed-nonlethal", "lethal"]
    assert [e["version"] for e in injuries] == [2, 3]


def test_mug_seed_example_thief_9_against_a_4_hd_ogre_needs_17(run):
    greyhawk(run, THIEF, OGRE)
    mugged = run.json("mug", "Thief", "Ogre", "--save-number", "12", "--save-roll", "16", "--knockout-dice", "3,8")
    assert (mugged["save_number"], mugged["save_roll"], mugged["saved"], mugged["knockout_rounds"]) == (
        17,
        16,
        False,
        11,
    )
    assert mugged["condition"]["states"] == ["unconscious", "knocked_out"]
    event = run.json("log", "Ogre")["events"][-1]
    assert event["type"] == "Mugged" and event["data"]["inputs"]["mugger_level"] == 9
    assert {d["source"] for d in event["data"]["dice"]["rolls"]} == {"table"}


def test_refused_mug_exits_1_with_the_reason_and_writes_nothing(run):
    greyhawk(
        run,
        ("Halfling", "hp=6", "level=9", "height=40", "class=thief", "weapons=sap:blunt,small"),
        OGRE,
        ("Slime", "hp=20", "hd=3", "backstab=false"),
    )
    assert "twice the mugger's height" in refused(run, "mug", "Halfling", "Ogre", "--save-number", "12")
    assert "backstab" in refused(run, "mug", "Halfling", "Slime", "--save-number", "12")


# --- SQLite only -------------------------------------------------------------------------------


def test_sap_knockout_with_the_tables_dice_and_the_human_report(run_sqlite):
    run = run_sqlite
    greyhawk(run, GUARD)
    result = run("injure", "Guard", "--damage", "7", "--mode", "sap", "--knockout-roll", "20", "--knockout-dice", "2,3")
    assert result.exit_code == 0, result.output
    assert "Guard takes 7 sap damage: 1 real (a quarter) and 6 temporary." in result.stdout
    assert (
        "The knockout chance is 35% (5% a point of damage, at most 40%); the d100 rolled 20: Guard is knocked"
        in result.stdout
    )
    assert (
        "Condition: 12/12 hp (0 real, 0 temporary) -> 5/12 hp (1 real, 6 temporary), unconscious, knocked out for "
        "5 rounds." in result.stdout
    )
    # Five minutes later the knockout has worn off.
    assert run.json("rest", "Guard", "--minutes", "5")["condition"]["knocked_out_rounds"] == 0


def test_sap_ignores_the_magic_bonus_and_the_ledger_rolls_when_the_table_does_not(run_sqlite):
    run = run_sqlite
    greyhawk(run, GUARD)
    sapped = run.json("injure", "Guard", "--damage", "6", "--mode", "sap", "--magic-bonus", "2")
    assert (sapped["damage"], sapped["real"], sapped["temporary"], sapped["knockout_chance"]) == (4, 1, 3, 20)
    assert sapped["dice"][0]["purpose"] == "knockout" and sapped["dice"][0]["source"] == "ledger"


def test_a_sleeping_victim_is_sapped_automatically_at_10_percent_a_point(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, GUARD)
    asleep = run.json("grab", "state", "Guard", "--asleep")
    assert asleep["condition"]["states"] == ["asleep"]
    hit = run.json("attack", "Thief", "Guard", "--maneuver", "sap", "--weapon", "club")
    assert (hit["hit"], hit["roll"], hit["modifiers"]["automatic_hit"]) == (True, None, True)
    sapped = run.json("injure", "Guard", "--damage", "5", "--mode", "sap", "--knockout-roll", "85")
    assert (sapped["knockout_chance"], sapped["knocked_out"], sapped["woken"]) == (50, False, True)
    assert "asleep" not in sapped["condition"]["states"]
    # An automatic hit rolls nothing: a table roll for it is recorded as not needed, and said so.
    run("grab", "state", "Guard", "--asleep")
    again = run("attack", "Thief", "Guard", "--maneuver", "sap", "--weapon", "club", "--roll", "12")
    assert "the blow hits without a roll" in again.stdout
    assert "Note: The table's attack die (12) was not needed: the blow hits without a roll." in again.stdout


def test_a_rest_that_heals_nothing_is_still_one_event(run_sqlite):
    run = run_sqlite
    greyhawk(run, BRAND)
    run("injure", "Brand", "--damage", "9", "--mode", "subdual")
    interrupted = run.json("rest", "Brand", "--hours", "1", "--interrupted")
    assert (interrupted["temporary_healed"], interrupted["version"]) == (0, 3)
    unhurt = run.json("rest", "Brand", "--minutes", "5")
    assert (unhurt["temporary_healed"], unhurt["version"]) == (0, 4)
    assert run("rest", "Brand", "--hours", "1").stdout.startswith("Brand rests for 1 hour and heals 2 temporary")


@pytest.mark.parametrize(
    "args",
    [
        ("rest", "Brand"),
        ("rest", "Brand", "--hours", "1", "--minutes", "5"),
        ("rest", "Brand", "--hours", "-1"),
        ("rest", "Nobody", "--hours", "1"),
        ("injure", "Brand", "--damage", "3"),
        ("injure", "Brand", "--damage", "3", "--mode", "gentle"),
        ("injure", "Brand", "--damage", "-3", "--mode", "lethal"),
        ("injure", "Brand", "--damage", "3", "--mode", "sap", "--knockout-roll", "101"),
        ("injure", "Brand", "--damage", "3", "--mode", "sap", "--knockout-roll", "1", "--knockout-dice", "x,y"),
        ("injure", "Nobody", "--damage", "3", "--mode", "lethal"),
        ("attack", "Brand", "Brand", "--maneuver", "kick"),
        ("attack", "Nobody", "Brand"),
        ("attack", "Brand", "Brand", "--roll", "21"),
        ("mug", "Brand", "Brand", "--save-number", "0"),
        ("mug", "Brand", "Nobody", "--save-number", "12"),
        ("grab", "state", "Brand"),
        ("grab", "state", "Brand", "--asleep", "--released"),
        ("grab", "object", "Brand", "Brand", "--strength", "19/50"),
        ("grab", "person", "Brand", "Nobody"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(run_sqlite, args):
    greyhawk(run_sqlite, BRAND)
    bad_input(run_sqlite, *args)


def test_bad_input_with_json_puts_the_error_document_on_stderr(run_sqlite):
    greyhawk(run_sqlite, BRAND)
    result = run_sqlite("--json", "rest", "Brand")
    assert result.exit_code == 2 and result.stdout == ""
    assert "exactly one of --hours" in json.loads(result.stderr)["error"]["message"]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--maneuver", "armed-nonlethal", "--weapon", "club"), "blunt weapon (club) cannot be controlled"),
        (("--maneuver", "armed-nonlethal", "--weapon", "spear"), "piercing weapon (spear) cannot be controlled"),
        (("--maneuver", "subdual", "--weapon", "sling"), "cannot be controlled"),
        (("--maneuver", "sap", "--weapon", "club", "--missile"), "never a missile"),
        (("--maneuver", "grab-object", "--no-free-hand"), "free hand"),
        (("--maneuver", "punch", "--weapon", "longsword", "--wrestling-round", "2"), "small weapons"),
    ],
)
def test_refused_attacks_exit_1_and_write_nothing(run_sqlite, args, reason):
    greyhawk(run_sqlite, THIEF, GUARD)
    assert reason in refused(run_sqlite, "attack", "Thief", "Guard", *args, "--roll", "10")


def test_a_sap_on_a_large_victim_is_refused_both_as_attack_and_as_injury(run_sqlite):
    greyhawk(run_sqlite, THIEF, OGRE)
    assert "small or medium" in refused(
        run_sqlite, "attack", "Thief", "Ogre", "--maneuver", "sap", "--weapon", "club", "--roll", "15"
    )
    assert "small or medium" in refused(run_sqlite, "injure", "Ogre", "--damage", "5", "--mode", "sap")


def test_attack_modifiers_copied_from_the_attacker(run_sqlite):
    run = run_sqlite
    greyhawk(
        run,
        ("Thief", "hp=30", "level=9", "thac0=16", "height=60", "class=thief", ARMS),
        ("Knight", "hp=40", "ac=2", "dex=16", "shield=1"),
    )
    sap = run.json("attack", "Thief", "Knight", "--maneuver", "sap", "--weapon", "club", "--roll", "19")
    assert (sap["modifiers"]["to_hit"], sap["modifiers"]["initiative"], sap["needed"], sap["hit"]) == (-8, 1, 14, False)
    assert sap["attacker"] == "Thief" and sap["character"] == "Knight" and sap["type"] == "Attacked"
    # Mugging: +4 and the victim loses shield and Dex bonuses (AC 2 -> 5).
    mug = run.json("attack", "Thief", "Knight", "--maneuver", "mug", "--weapon", "club", "--roll", "7")
    assert (mug["modifiers"]["to_hit"], mug["modifiers"]["target_ac"], mug["needed"], mug["hit"]) == (4, 5, 11, True)
    # A punch against an armed defender: the defender strikes first at +4/+4.
    punch = run.json(
        "attack", "Thief", "Knight", "--maneuver", "punch", "--defender-armed", "--roll", "20", "--defender-roll", "7"
    )
    assert (punch["roll"], punch["needed"], punch["hit"]) == (20, 14, True)
    # The Knight (THAC0 20 by default) strikes first: 7 + 4 = 11 against 20 - the Thief's AC 10: it hits, +4 damage.
    # The Knight's sheet lists no weapon: its strike's damage is not known, and left to the table.
    strike = {"roll": 7, "to_hit": 4, "needed": 10, "hit": True, "damage_bonus": 4, "damage": None}
    assert punch["defender_strike"] == strike and punch["attacker_injury"] is None
    assert [d["purpose"] for d in punch["dice"]] == ["defence", "attack", "damage"]
    # The attacks are recorded on the target; the punch's hit (bare hands, 1d2) follows as its injury.
    assert punch["injury"]["character"] == "Knight" and punch["events"][1] == punch["injury"]["event"]
    assert run.json("character", "show", "Knight")["version"] == 5


def test_the_weapon_named_is_the_one_on_the_attackers_sheet(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, GUARD)
    logged = run.json("attack", "Thief", "Guard", "--weapon", "LONGSWORD", "--roll", "12")
    attacked = [e for e in run.json("log", "Guard")["events"] if e["type"] == "Attacked"]
    inputs = attacked[-1]["data"]["inputs"]
    assert (logged["needed"], logged["hit"]) == (10, True)  # THAC0 20 - AC 10
    assert (inputs["weapon"], inputs["weapon_kind"], inputs["weapon_size"], inputs["missile"]) == (
        "longsword",
        "edged",
        "medium",
        False,
    )
    assert "has no weapon 'dagger' on its sheet" in bad_input(run, "attack", "Thief", "Guard", "--weapon", "dagger")


def test_mug_human_output_and_a_saved_victim(run_sqlite):
    greyhawk(run_sqlite, THIEF, OGRE)
    result = run_sqlite("mug", "Thief", "Ogre", "--save-number", "12", "--save-roll", "17")
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "Thief mugs Ogre with the club. Ogre saves vs petrification needing 17 (base 12, "
        "changed by the level difference); the d20 rolled 17: Ogre stays conscious."
    )
    # The knockout dice are only for a failed save: given for a saved one, they are recorded as not needed.
    saved = run_sqlite.json(
        "mug", "Thief", "Ogre", "--save-number", "12", "--save-roll", "18", "--knockout-dice", "1,1"
    )
    assert (saved["saved"], saved["ignored"]) == (True, {"knockout_rounds": [1, 1]})
    # A first strike's die given where the defender is unarmed is not needed either.
    unarmed = run_sqlite.json("attack", "Thief", "Ogre", "--weapon", "club", "--defender-roll", "5", "--roll", "12")
    assert (unarmed["defender_strike"], unarmed["ignored"]) == (None, {"defence": [5]})


def test_mug_belongs_to_adnd2e_campaigns(run_sqlite):
    run_sqlite("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    result = run_sqlite("--json", "mug", "A", "B", "--save-number", "12")
    assert result.exit_code == 2 and "a command of adnd2e campaigns" in json.loads(result.stderr)["error"]["message"]


def test_grab_a_person_hold_then_break_free(run_sqlite):
    run = run_sqlite
    greyhawk(run, ("Brute", "hp=20", "level=3", "str=18/76"), GUARD)
    held = run.json("grab", "person", "Brute", "Guard", "--dice", "1,1")
    assert (held["first_strength"], held["second_strength"], held["won"]) == ("18", "16", True)
    assert held["condition"]["held_by"] == "Brute" and "held" in held["condition"]["states"]
    # The held guard attacks at -4, except with wrestling attacks.
    assert run.json("attack", "Guard", "Brute", "--roll", "10")["modifiers"]["to_hit"] == -4
    assert run.json("attack", "Guard", "Brute", "--maneuver", "wrestle", "--roll", "10")["modifiers"]["to_hit"] == 0
    # Breaking the hold: 16 against the Brute's one-handed 18; 3 vs 9 gives margins 13 and 9.
    freed = run("grab", "break-hold", "Guard", "--dice", "3,9")
    assert (
        "Guard tries to break Brute's hold: Strength 16 against 18, the d20s rolled 3 against 9: Guard breaks free."
        in freed.stdout
    )
    assert run.json("character", "show", "Guard")["condition"]["held_by"] is None
    assert "not held" in refused(run, "grab", "break-hold", "Guard", "--dice", "3,9")


def test_grab_an_object_ties_are_rerolled_as_one_event(run_sqlite):
    run = run_sqlite
    greyhawk(run, ("Thief", "hp=30", "level=9", "str=16"), GUARD)
    grabbed = run.json("grab", "object", "Thief", "Guard", "--dice", "6,6,9,3")
    assert (grabbed["rolls"], grabbed["won"], grabbed["version"]) == ([[6, 6], [9, 3]], False, 2)
    assert grabbed["condition"]["held_by"] is None  # an object grab holds nobody


def test_grab_a_monster_by_its_rough_strength(run_sqlite):
    run = run_sqlite
    greyhawk(run, ("Brute", "hp=20", "level=3", "str=17"), ("Nightmare", "hp=40", "hd=6", "size=large"))
    grabbed = run.json(
        "grab", "monster", "Brute", "Nightmare", "--attacks", "2-8/4-10/4-10", "--carrier", "--dice", "10,1"
    )
    assert (grabbed["first_strength"], grabbed["second_strength"], grabbed["won"]) == ("11", "20", False)
    assert grabbed["grabber"] == "Brute"
    assert run.json("log", "Nightmare")["events"][-1]["data"]["inputs"]["target_strength"] == {
        "score": 20,
        "percentile": None,
    }
    bad_input(run, "grab", "monster", "Brute", "Nightmare", "--dice", "10,1")  # no Strength known for it


def test_grab_state_records_each_change(run_sqlite):
    run = run_sqlite
    greyhawk(run, GUARD, ("Jailer", "hp=10"))  # a holder is a character of the campaign
    run("grab", "state", "Guard", "--magically-held")
    run("grab", "state", "Guard", "--held-by", "Jailer")
    assert run.json("character", "show", "Guard")["condition"]["states"] == ["magically_held", "held"]
    run("grab", "state", "Guard", "--magic-released")
    released = run.json("grab", "state", "Guard", "--released")
    assert (released["condition"]["states"], released["version"]) == ([], 5)
    # The break-hold of a holder whose Strength is unknown needs it.
    run("grab", "state", "Guard", "--held-by", "Jailer")
    bad_input(run, "grab", "break-hold", "Guard")
    assert run.json("grab", "break-hold", "Guard", "--holder-strength", "12", "--dice", "1,20")["won"] is True


def test_rules_queries_are_pure_and_open_no_database(tmp_path):
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    target = tmp_path / "nowhere" / "ledger.db"
    runner = CliRunner()

    def query(*args):
        result = runner.invoke(chronicle, ["--db", str(target), *args], catch_exceptions=False)
        return result

    assert json.loads(query("rules", "monster-strength", "2-8/4-10/4-10", "--carrier", "--json").stdout) == {
        "strength": 20
    }
    assert query("rules", "monster-strength", "1d8/1d8/2d6").stdout == (
        "Strength 14 = 12 (the largest maximum damage of 1d8/1d8/2d6) + 2 (one for each attack after the first).\n"
    )
    assert json.loads(
        query("--json", "rules", "mug-save", "--base", "12", "--mugger-level", "9", "--victim-level", "4").stdout
    ) == {"save_number": 17}
    assert (
        query("rules", "mug-save", "--base", "12", "--mugger-level", "2", "--victim-level", "6").stdout
        == "The victim saves vs petrification needing 8 = 12 (base) + 2 (the mugger's level) - 6 (the victim's "
        "level or hit dice).\n"
    )
    assert query("rules", "monster-strength", "bite").exit_code == 2
    assert query("rules", "mug-save", "--base", "0", "--mugger-level", "9", "--victim-level", "4").exit_code == 2
    assert query("rules", "mug-save", "--base", "12").exit_code == 2
    assert not Path(target).parent.exists()


def test_only_a_thief_mugs_with_a_blunt_weapon_and_never_itself(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, GUARD, ("Fighter", "hp=20", "level=5", "class=fighter", "weapons=club:blunt"))
    assert "only a thief" in refused(run, "mug", "Fighter", "Guard", "--save-number", "12")
    assert "the longsword is edged" in refused(
        run, "mug", "Thief", "Guard", "--save-number", "12", "--weapon", "longsword"
    )
    assert "never a missile" in refused(run, "mug", "Thief", "Guard", "--save-number", "12", "--weapon", "sling")
    assert "cannot mug itself" in refused(run, "mug", "Thief", "Thief", "--save-number", "12")
    assert "only a thief" in refused(
        run, "attack", "Fighter", "Guard", "--maneuver", "mug", "--weapon", "club", "--roll", "9"
    )
    # With its only blunt melee weapon by default: t9 against a level 1 guard, base 12: 12 + 9 - 1 = 20.
    mugged = run.json("mug", "Thief", "Guard", "--save-number", "12", "--save-roll", "20")
    assert (mugged["save_number"], mugged["saved"]) == (20, True)
    assert run.json("log", "Guard")["events"][-1]["data"]["inputs"]["weapon"] == "club"


def test_monster_strength_is_uncapped_and_a_held_monster_breaks_free_by_its_own(run_sqlite):
    run = run_sqlite
    greyhawk(
        run,
        ("Brute", "hp=20", "level=3", "str=18"),
        ("Titan", "hp=90", "hd=12", "size=large", "str=32"),
        ("Horse", "hp=20", "hd=3", "size=large"),
    )
    # Brute: 18 - 6 (larger) = 12, rolls 1 (margin 11); the titan's 32 rolls 20 (margin 12): it keeps free.
    free = run.json("grab", "monster", "Brute", "Titan", "--dice", "1,20")
    assert (free["first_strength"], free["second_strength"], free["won"]) == ("12", "32", False)
    rough = run.json("grab", "monster", "Brute", "Titan", "--attacks", "3-30/2-20/2-20", "--dice", "1,20")
    assert rough["second_strength"] == "32"
    # The horse (1-3/1-3, a carrier: 3 + 1 + 8 = 12): Brute's 12 rolls 2 (10) against 12 rolling 5 (7): held.
    assert run.json("grab", "monster", "Brute", "Horse", "--attacks", "1-3/1-3", "--carrier", "--dice", "2,5")["won"]
    # It breaks free with its own 12 (rolls 3: 9) against Brute's 12 as it counted in the grab (rolls 9: 3).
    bad_input(run, "grab", "break-hold", "Horse", "--dice", "3,9")  # nothing says how strong the horse is
    freed = run.json("grab", "break-hold", "Horse", "--attacks", "1-3/1-3", "--carrier", "--dice", "3,9")
    assert (freed["first_strength"], freed["second_strength"], freed["won"]) == ("12", "12", True)


def test_a_tie_the_table_rolled_is_re_rolled_by_the_table(run_sqlite):
    run = run_sqlite
    greyhawk(run, ("Thief", "hp=30", "level=9", "str=16"), GUARD)
    assert "--dice 6,6,A,B" in bad_input(run, "grab", "object", "Thief", "Guard", "--dice", "6,6")


@pytest.mark.parametrize(("attacks", "strength"), [("1d8+1", 9), ("2-8+2", 10), ("3-30/2-20/2-20", 32)])
def test_rules_monster_strength_reads_a_bonus_and_has_no_cap(run_sqlite, attacks, strength):
    assert run_sqlite.json("rules", "monster-strength", attacks) == {"strength": strength}


@pytest.mark.parametrize("attacks", ["8-2", "0", "2d0"])
def test_rules_monster_strength_refuses_what_is_no_damage(run_sqlite, attacks):
    result = run_sqlite("rules", "monster-strength", attacks)
    assert result.exit_code == 2 and "bad attack damage" in result.stderr


@pytest.mark.parametrize("command", ["injure", "rest", "attack", "mug", "grab object", "grab state"])
def test_every_command_has_help_ending_in_an_example(run_sqlite, command):
    greyhawk(run_sqlite)
    result = run_sqlite(*command.split(), "--help")
    assert result.exit_code == 0 and "Example:" in result.stdout


def test_every_reply_is_sentences_without_reprs_or_flags(run_sqlite):
    import re

    run = run_sqlite
    greyhawk(run, THIEF, GUARD, ("Brute", "hp=20", "level=3", "str=18/76"))
    replies = [
        run(
            "injure",
            "Guard",
            "--damage",
            "7",
            "--mode",
            "sap",
            "--knockout-roll",
            "20",
            "--knockout-dice",
            "2,3",
            "--attacker",
            "Thief",
        ),
        run("rest", "Guard", "--minutes", "10"),
        run(
            "attack", "Thief", "Guard", "--maneuver", "punch", "--defender-armed", "--defender-roll", "3", "--roll", "9"
        ),
        run("mug", "Thief", "Guard", "--save-number", "12", "--save-roll", "20"),
        run("grab", "person", "Brute", "Guard", "--dice", "1,1"),
        run("grab", "break-hold", "Guard", "--dice", "3,9"),
        run("grab", "state", "Guard", "--asleep"),
    ]
    for reply in replies:
        assert reply.exit_code == 0, reply.output
        assert not re.search(r"=True|=False|=None|\{'|\['|\b[a-z_]+=", reply.stdout), reply.stdout
    assert "Thief deals Guard 7 sap damage" in replies[0].stdout
    assert replies[2].stdout.startswith(
        "Guard, armed, strikes first at the bare-handed Thief: the d20 rolled 3 + 4 = 7"
    )


@pytest.mark.parametrize(
    ("maneuver", "weapon", "faces", "real", "temporary"),
    [
        ("normal", ["--weapon", "longsword"], "7", 7, 0),  # lethal: all real
        ("armed-nonlethal", ["--weapon", "longsword"], "7", 1, 2),  # half (3), half of it temporary
        ("subdual", ["--weapon", "longsword"], "6", 1, 2),
        ("punch", [], "2", 0, 1),  # bare hands, 1d2: as subdual
    ],
)
def test_a_hit_applies_its_damage_in_the_maneuvers_mode(db, run, maneuver, weapon, faces, real, temporary):
    greyhawk(run, THIEF, GUARD)
    hit = run.json("attack", "Thief", "Guard", "--maneuver", maneuver, *weapon, "--roll", "20", "--dice", faces)
    assert hit["hit"] is True and hit["damage"] == int(faces) and hit["attacker"] == "Thief"
    injury = hit["injury"]
    assert (injury["real"], injury["temporary"], injury["knocked_out"]) == (real, temporary, False)
    assert hit["condition"] == injury["condition"] and hit["events"] == [hit["event"], injury["event"]]
    events = run.json("log", "Guard")["events"]
    assert [e["type"] for e in events[-2:]] == ["Attacked", "Injured"]
    assert events[-1]["data"]["attack"] == events[-2]["version"]  # the injury names its attack
    shown = run.json("character", "show", "Guard")["condition"]
    assert (shown["real_damage"], shown["temporary_damage"]) == (real, temporary)
    told = run("attack", "Thief", "Guard", "--maneuver", maneuver, *weapon, "--roll", "20", "--dice", faces).stdout
    assert "Thief" in told and "damage" in told and "_" not in told.split("[")[0]
    assert run.json("verify")["ok"] is True


def test_a_sap_hit_rolls_its_knockout_and_drops_the_magic_bonus(run_sqlite):
    run = run_sqlite
    greyhawk(run, ("Thief", "hp=30", "class=thief", "weapons=cosh:blunt,small,damage=1d6,magic=2"), GUARD)
    hit = run.json("attack", "Thief", "Guard", "--maneuver", "sap", "--weapon", "cosh", "--roll", "20", "--dice", "4")
    assert hit["damage"] == 4  # 4 + the magic bonus 2 rolled, which the sap does not count: 4, 1 real
    assert (hit["injury"]["real"], hit["injury"]["temporary"]) == (1, 3)
    assert run.json("verify")["ok"] is True


def test_a_miss_applies_no_damage(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, GUARD)
    before = log_length(run)
    missed = run.json("attack", "Thief", "Guard", "--weapon", "longsword", "--roll", "1", "--dice", "8")
    assert missed["hit"] is False and missed["damage"] is None and missed["injury"] is None
    assert log_length(run) == before + 1
    assert run.json("character", "show", "Guard")["condition"]["real_damage"] == 0
    assert (
        "damage die (8) was not needed"
        in run("attack", "Thief", "Guard", "--weapon", "club", "--roll", "1", "--dice", "8").stdout
    )
    assert run.json("verify")["ok"] is True


def test_mugging_and_grabs_deal_no_damage_here(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, GUARD)
    mug = run.json("attack", "Thief", "Guard", "--maneuver", "mug", "--weapon", "club", "--roll", "20")
    grab = run.json("attack", "Thief", "Guard", "--maneuver", "grab-person", "--roll", "20")
    assert mug["injury"] is None and grab["injury"] is None and mug["damage"] is None


def test_the_armed_defenders_strike_deals_its_damage_plus_4_to_the_attacker(run_sqlite):
    run = run_sqlite
    greyhawk(run, THIEF, ("Guard", "hp=12", "level=1", "weapons=club:blunt,damage=1d6"))
    punch = run.json(
        "attack", "Thief", "Guard", "--maneuver", "punch", "--defender-armed", "--defender-roll", "20",
        "--defender-dice", "3", "--roll", "1",
    )  # fmt: skip
    assert punch["defender_strike"]["damage"] == 7 and punch["injury"] is None  # 3 + 4; the punch missed
    assert (punch["attacker_injury"]["character"], punch["attacker_injury"]["real"]) == ("Thief", 7)
    assert run.json("character", "show", "Thief")["condition"]["real_damage"] == 7
    assert run.json("log", "Thief")["events"][-1]["data"]["inputs"]["attacker"] == "Guard"
    assert run.json("verify")["ok"] is True


def test_attacks_recorded_before_hits_dealt_damage_re_derive_as_recorded():
    """An attack's inputs recorded before hits dealt damage hold no damage dice: a hit re-derived from them
    draws only its d20 and deals nothing, so the old events verify as they were."""
    old = adnd2e.AttackInputs.model_validate({"attacker": "Thief", "weapon": "longsword", "weapon_kind": "edged"})
    dice = Dice(1, table={"attack": [20]})
    outcome = adnd2e.Attacked.derive(adnd2e.Sheet(hp=12), adnd2e.Condition(), old, {}, dice)
    assert outcome.hit is True and outcome.damage is None and dice.record().draws == 0
    assert [roll.purpose for roll in dice.record().rolls] == ["attack"]
