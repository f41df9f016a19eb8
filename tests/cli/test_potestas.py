"""Potestas through the command line (docs/scripting.md; docs/rulings.md): every command's JSON, the seed example,
the condition as a fold of the log, and bad input or refusals that write nothing."""

import json

import pytest

IVANIOR_WEAPONS = (
    "--weapon",
    "rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing",
    "--weapon",
    "dagger:attack=13,damage=2,enhancement=1,threat=19,light,types=piercing",
)
INJURE_KEYS = {"event", "version", "damage", "after_dr", "dc", "save", "outcome", "condition"}
CONDITION_KEYS = {"wounds", "nonlethal_wounds", "states"}


def table(run):
    run("campaign", "new", "Pot", "--system", "potestas")
    run("character", "add", "Brand", "--stat", "fort=4", "--stat", "dr=2")
    run(
        "character",
        "add",
        "Ivanior",
        "--stat",
        "str=14",
        "--stat",
        "bab=15",
        "--stat",
        "dex=12",
        "--stat",
        "weapons=sword:damage=1",
    )
    run("character", "add", "Guard", "--stat", "fort=2", "--stat", "defence=8")


def events(run) -> int:
    return len(run.json("log")["events"])


def folded(run, name):
    """The character straight from the event store: a fresh fold of its log, no read model involved."""
    from conftest import campaign_of

    from chronicle.domain.character import Character, character_id
    from chronicle.domain.potestas import Condition, Sheet, view
    from chronicle.ledger.store.chronicle import open_ledger

    app = open_ledger(run.db)  # held: the application closes its pool when collected
    try:
        character: Character = app.repository.get(character_id(campaign_of(app, "Pot"), name))
    finally:
        app.close()
    sheet, condition = character.sheet, character.condition
    assert isinstance(sheet, Sheet) and isinstance(condition, Condition)
    return character.version, view(sheet, condition)["condition"]


# --- storage-relevant: SQLite and PostgreSQL --------------------------------------------------


def test_injure_json_has_the_contract_keys_and_explains_the_save(run):
    table(run)
    hurt = run.json("injure", "Brand", "--damage", "12", "--save-roll", "3")
    assert INJURE_KEYS <= set(hurt) and {"roll", "total", "margin"} <= set(hurt["save"])
    assert (hurt["damage"], hurt["after_dr"], hurt["dc"]) == (12, 10, 17)
    assert (hurt["save"]["roll"], hurt["save"]["total"], hurt["save"]["margin"]) == (3, 7, -10)
    assert hurt["outcome"] == "wound" and hurt["condition"]["states"] == ["disabled"]
    assert CONDITION_KEYS <= set(hurt["condition"]) and hurt["version"] == 2
    text = run("injure", "Brand", "--damage", "9", "--save-roll", "15").output
    for said in (
        "Damage reduction removes 2: 7 left",
        "DC 16 = 15 + 7/5, rounded down",
        "rolled 15 + 4 (Fortitude) - 1 (wounds) = 18",
        "made by 2",
        "no wound",
        "Condition: 1 wound; disabled.",
    ):
        assert said in text


def test_the_condition_after_a_sequence_of_commands_is_a_fold_of_the_log(run):
    table(run)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "3")  # disabled
    run.json("injure", "Brand", "--damage", "4", "--nonlethal", "--save-roll", "8")  # bruised
    assert run.json("injure", "Brand", "--damage", "8", "--save-roll", "2")["condition"]["states"] == ["dying"]
    assert run.json("dying-save", "Brand", "--roll", "12")["result"] == "stable"
    run.json("rest", "Brand", "--hours", "16")
    run.json(
        "attack",
        "Ivanior",
        "Guard",
        *IVANIOR_WEAPONS,
        "--multi-weapon",
        "--hurried",
        "--roll",
        "18",
        "--confirm-roll",
        "2",
    )
    run.json("fall", "Guard", "--feet", "40", "--save-roll", "11")
    for name in ("Brand", "Guard"):
        shown = run.json("character", "show", name)
        assert (shown["version"], shown["condition"]) == folded(run, name)
    brand = run.json("character", "show", "Brand")["condition"]
    assert (brand["wounds"], brand["nonlethal_wounds"], brand["states"]) == (0, 0, [])  # 16 hours heal two wounds
    assert run.json("verify")["ok"]
    before = {name: run.json("character", "show", name) for name in ("Brand", "Guard")}
    run.json("rebuild")
    assert {name: run.json("character", "show", name) for name in ("Brand", "Guard")} == before


def test_the_ivanior_seed_example_through_the_cli(run):
    table(run)
    out = run.json(
        "attack",
        "Ivanior",
        "Guard",
        *IVANIOR_WEAPONS,
        "--multi-weapon",
        "--multi-weapon-fighting",
        "--iterative",
        "--roll",
        "10",
        "--save-roll",
        "9",
    )
    assert (out["attack"]["attack_bonus"], out["attack"]["modifiers"]) == (11, {"multi_weapon": -2})
    assert (out["attack"]["total"], out["attack"]["target_number"], out["hit"]) == (21, 18, True)
    [hit] = out["injuries"]
    assert (hit["damage"], hit["after_dr"], hit["dc"]) == (12, 12, 17)  # 3 + 2 + 3 (Str) + 3 + 1, DC 15 + 12 // 5
    assert hit["breakdown"] == "5 (rapier + dagger) + 3 Str + 4 enhancement = 12"
    assert hit["save"]["roll"] == 9 and hit["outcome"] == "wound"
    assert set(out) >= {"event", "version", "attacker", "target", "attack", "injuries", "condition"}
    assert out["version"] == 3 and out["condition"] == hit["condition"]
    log = run.json("log", "Guard")["events"]
    assert [e["type"] for e in log] == ["CharacterRegistered", "Attacked", "Injured"]
    assert [e["id"] for e in log[1:]] == out["events"]
    assert run.json("verify")["ok"]


def test_refusals_and_bad_input_write_nothing(run):
    table(run)
    run.json("character", "add", "Door", "--object", "--stat", "hardness=5")
    run.json("injure", "Door", "--damage", "20", "--save-roll", "1")  # natural 1: disabled, so destroyed
    before = events(run)
    for args, status in (
        (("injure", "Door", "--damage", "9"), 1),
        (("dying-save", "Brand"), 1),
        (("injure", "Brand", "--damage", "-1"), 2),
        (("injure", "Brand", "--damage", "5", "--type", "plasma"), 2),
    ):
        result = run("--json", *args)
        assert result.exit_code == status, result.output
        assert json.loads(result.stderr)["error"]["code"] in ("refused", "bad_input")
    assert events(run) == before


# --- the rest on SQLite --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("injure", "Brand", "--damage", "-1"),
        ("injure", "Brand", "--damage", "5", "--save-roll", "0"),
        ("injure", "Brand", "--damage", "5", "--save-roll", "21"),
        ("injure", "Brand", "--damage", "1", "--save-roll", "21"),  # out of range even where DR leaves no save
        ("injure", "Brand", "--damage", "5", "--type", "plasma"),
        ("injure", "Nobody", "--damage", "5"),
        ("rest", "Brand"),
        ("rest", "Brand", "--hours", "8", "--minutes", "20"),
        ("rest", "Brand", "--hours", "-8"),
        ("dying-save", "Brand", "--roll", "21"),
        ("fall", "Brand", "--feet", "-3"),
        ("attack", "Guard", "Brand"),  # no weapon on the sheet, none named
        ("attack", "Ivanior", "Brand", "--weapon", "sword:sharpness=3"),
        ("attack", "Ivanior", "Brand", "--weapon", "sword", "--dice", "3"),
        ("attack", "Ivanior", "Brand", "--weapon", "sword", "--roll", "0"),
        ("attack", "Ivanior", "Brand", "--weapon", "sword", "--multi-weapon"),
        ("attack", "Ivanior", "Brand", "--weapon", "sword:damage=1d6", "--roll", "15", "--dice", "3,4"),
        ("attack", "Ivanior", "Nobody", "--weapon", "sword"),
        ("attack", "Ivanior", "Brand", "--weapon", "sword", "--hurried", "--coup-de-grace"),
        ("rules", "fortitude-dc", "-1"),
        ("rules", "falling", "-5"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(run_sqlite, args):
    table(run_sqlite)
    before = events(run_sqlite)
    result = run_sqlite("--json", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    assert "message" in json.loads(result.stderr)["error"]
    assert events(run_sqlite) == before


def test_injuring_the_dead_is_refused_unless_forced(run_sqlite):
    run = run_sqlite
    table(run)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "1")  # disabled
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "1")  # dying
    assert run.json("injure", "Brand", "--damage", "12", "--save-roll", "1")["condition"]["states"] == ["dead"]
    before = events(run)
    assert run("injure", "Brand", "--damage", "5").exit_code == 1
    assert run("attack", "Ivanior", "Brand", "--weapon", "sword", "--roll", "15").exit_code == 1
    assert events(run) == before
    assert run.json("injure", "Brand", "--damage", "5", "--save-roll", "10", "--force")["outcome"] == "wound"
    assert run.json("attack", "Ivanior", "Brand", "--weapon", "sword", "--roll", "15", "--force")["hit"]
    assert events(run) == before + 3


def test_a_save_roll_for_damage_dr_removes_is_accepted_ignored_and_noted(run_sqlite):
    table(run_sqlite)
    before = events(run_sqlite)
    out = run_sqlite.json("injure", "Brand", "--damage", "2", "--save-roll", "12")
    assert (out["outcome"], out["after_dr"], out["dc"], out["save"], out["dice"]) == ("no_damage", 0, None, None, [])
    assert out["riders_negated"] and "ignored" in out["notes"][0]
    assert events(run_sqlite) == before + 1
    assert (
        "Damage reduction removes all of it"
        in run_sqlite("injure", "Brand", "--damage", "1", "--save-roll", "5").output
    )


def test_energy_ignores_dr_and_a_natural_20_saves(run_sqlite):
    table(run_sqlite)
    out = run_sqlite.json("injure", "Brand", "--damage", "30", "--type", "fire", "--save-roll", "20")
    assert (out["after_dr"], out["dc"], out["outcome"]) == (30, 21, "no_effect")
    assert (
        "A natural 20 succeeds"
        in run_sqlite("injure", "Brand", "--damage", "30", "--type", "fire", "--save-roll", "20").output
    )


def test_nonlethal_injury_staggers_and_rest_in_minutes_recovers(run_sqlite):
    run = run_sqlite
    table(run)
    out = run.json("injure", "Brand", "--damage", "12", "--nonlethal", "--save-roll", "3")
    assert out["outcome"] == "nonlethal_wound" and out["condition"]["states"] == ["staggered"]
    healed = run.json("rest", "Brand", "--minutes", "20")
    assert {"event", "version", "minutes", "wounds_healed", "nonlethal_healed", "condition"} <= set(healed)
    assert (healed["nonlethal_healed"], healed["condition"]["nonlethal_wounds"]) == (1, 0)


def test_a_rest_that_heals_nothing_is_still_recorded(run_sqlite):
    table(run_sqlite)
    before = events(run_sqlite)
    out = run_sqlite.json("rest", "Brand", "--hours", "8", "--interrupted")
    assert (out["wounds_healed"], out["nonlethal_healed"], out["minutes"]) == (0, 0, 480)
    assert run_sqlite.json("rest", "Brand", "--minutes", "5")["version"] == 3
    assert events(run_sqlite) == before + 2


def test_dying_save_and_exert_json(run_sqlite):
    run = run_sqlite
    table(run)
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "3")  # disabled
    exerted = run.json("exert", "Brand", "--action", "charged")
    assert {"event", "version", "worsened", "condition"} <= set(exerted)
    assert exerted["worsened"] == ["dying"] and exerted["condition"]["states"] == ["dying"]
    save = run.json("dying-save", "Brand", "--roll", "5")  # 5 + 4 - 1 = 8 vs DC 10
    assert {"event", "version", "dc", "roll", "total", "margin", "result", "condition"} <= set(save)
    assert (save["dc"], save["total"], save["result"]) == (10, 8, "dying")
    assert run.json("dying-save", "Brand", "--roll", "7")["dc"] == 11  # 10 + the saves already made
    assert run("exert", "Brand").exit_code == 1  # unconscious


def test_fall_json_and_the_rules_queries(run_sqlite):
    table(run_sqlite)
    out = run_sqlite.json("fall", "Brand", "--feet", "100", "--save-roll", "10")
    assert INJURE_KEYS | {"feet", "velocity", "hits"} <= set(out)
    assert (out["hits"], out["damage"], out["after_dr"], out["dc"]) == (16, 64, 62, 27)
    assert run_sqlite.json("rules", "falling", "630") == {"feet": 630, "velocity": 210.0, "hits": 42, "damage": 168}
    assert set(run_sqlite.json("rules", "falling", "10")) >= {"velocity", "hits", "damage"}
    assert run_sqlite.json("rules", "fortitude-dc", "12") == {"dc": 17}
    assert "DC 17 = 15 + 12/5, rounded down" in run_sqlite("rules", "fortitude-dc", "12").output


def test_rules_queries_never_open_the_database(tmp_path):
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    result = CliRunner().invoke(
        chronicle, ["--db", str(tmp_path / "missing" / "nowhere.db"), "--json", "rules", "fortitude-dc", "3"]
    )
    assert result.exit_code == 0 and json.loads(result.stdout) == {"dc": 15}
    assert not (tmp_path / "missing").exists()


def test_an_object_saves_with_its_hardness_and_is_destroyed_when_disabled(run_sqlite):
    run = run_sqlite
    table(run)
    run.json("character", "add", "Door", "--object", "--stat", "hardness=5", "--stat", "thickness=2")
    held = run.json("injure", "Door", "--damage", "4", "--type", "fire", "--save-roll", "10")
    assert (held["after_dr"], held["outcome"]) == (0, "no_damage")  # hardness stops energy too
    out = run.json("injure", "Door", "--damage", "20", "--save-roll", "2")  # 15 left, DC 18, 2 + 5 + 1 = 8
    assert (out["after_dr"], out["dc"], out["save"]["total"]) == (15, 18, 8)
    assert "destroyed" in out["condition"]["states"]
    assert run("injure", "Door", "--damage", "20").exit_code == 1
    assert run("exert", "Door").exit_code == 1
    assert run.json("character", "show", "Door")["condition"] == folded(run, "Door")[1]


def test_a_hurried_attack_records_each_hit_as_its_own_injury(run_sqlite):
    run = run_sqlite
    table(run)
    out = run.json(
        "attack",
        "Ivanior",
        "Guard",
        "--weapon",
        "sword:damage=4",
        "--hurried",
        "--roll",
        "12",
        "--save-roll",
        "19",
        "--save-roll",
        "3",
        "--save-roll",
        "5",
    )
    assert out["attack"]["modifiers"] == {"hurried": -4}
    assert [i["hit"] for i in out["injuries"]] == [1, 2]
    assert [i["outcome"] for i in out["injuries"]] == ["no_effect", "wound"]
    assert [i["dice"][0]["purpose"] for i in out["injuries"]] == ["save:1", "save:2"]
    assert any("#3" in note for note in out["notes"])
    assert [e["type"] for e in run.json("log", "Guard")["events"]][1:] == ["Attacked", "Injured", "Injured"]
    assert out["version"] == 4


def test_a_miss_records_only_the_attack(run_sqlite):
    table(run_sqlite)
    out = run_sqlite.json("attack", "Ivanior", "Guard", "--weapon", "sword", "--roll", "1", "--confirm-roll", "20")
    assert (out["hit"], out["injuries"], out["version"]) == (False, [], 2)
    assert "ignored" in out["notes"][0]


def test_table_damage_dice_go_to_their_hit_and_weapon(run_sqlite):
    table(run_sqlite)
    out = run_sqlite.json(
        "attack", "Ivanior", "Guard", "--weapon", "club:damage=1d6", "--hurried", "--roll", "15", "--dice", "4,6"
    )
    dice = {d["purpose"]: d for d in out["attack"]["dice"]}
    assert dice["damage:1:1"]["faces"] == [4] and dice["damage:2:1"]["faces"] == [6]
    assert dice["damage:1:1"]["source"] == "table"
    assert [i["damage"] for i in out["injuries"]] == [4 + 2, 6 + 2]  # + Str 14


def test_a_confirmed_critical_multiplies_weapon_str_and_enhancement(run_sqlite):
    table(run_sqlite)
    out = run_sqlite.json(
        "attack",
        "Ivanior",
        "Guard",
        "--weapon",
        "axe:damage=4,enhancement=1,multiplier=3",
        "--roll",
        "20",
        "--confirm-roll",
        "15",
    )
    assert out["critical"] and out["injuries"][0]["damage"] == (4 + 2 + 1) * 3
    assert out["injuries"][0]["breakdown"] == "(4 (axe) + 2 Str + 1 enhancement) x 3 = 21"


def test_a_coup_de_grace_needs_a_helpless_target(run_sqlite):
    run = run_sqlite
    table(run)
    assert run("attack", "Ivanior", "Guard", "--weapon", "sword", "--coup-de-grace").exit_code == 1
    out = run.json(
        "attack",
        "Ivanior",
        "Guard",
        "--weapon",
        "sword:damage=3",
        "--coup-de-grace",
        "--target-helpless",
        "--roll",
        "7",
        "--save-roll",
        "20",
    )
    assert out["attack"]["roll"] is None and out["critical"] and out["attack"]["provokes"]
    assert out["injuries"][0]["outcome"] == "wound"  # even a natural 20 counts as a failure
    assert any("--roll 7 ignored" in note for note in out["notes"])


def test_potestas_commands_in_another_system_are_bad_input(run_sqlite):
    run_sqlite("campaign", "new", "Grey", "--system", "adnd2e")
    run_sqlite("character", "add", "Bruno", "--stat", "hp=30")
    for args in (("dying-save", "Bruno"), ("exert", "Bruno"), ("fall", "Bruno", "--feet", "10")):
        assert run_sqlite(*args).exit_code == 2


def test_human_output_of_an_attack_explains_the_roll_and_each_hit(run_sqlite):
    table(run_sqlite)
    text = run_sqlite(
        "attack",
        "Ivanior",
        "Guard",
        *IVANIOR_WEAPONS,
        "--multi-weapon",
        "--multi-weapon-fighting",
        "--roll",
        "10",
        "--save-roll",
        "9",
    ).output
    for said in (
        "Ivanior attacks Guard",
        "attack bonus +11",
        "Rolled 10 + 11 = 21 against 18 (10 + defence 8): hits by 3",
        "Hit 1",
        "Guard takes 12 lethal damage",
        "Fortitude save, DC 17 = 15 + 12/5, rounded down",
    ):
        assert said in text, text


def test_attack_uses_the_weapons_on_the_attackers_sheet(run_sqlite):
    run = run_sqlite
    run("campaign", "new", "Keep", "--system", "potestas")
    run(
        "character",
        "add",
        "Ivanior",
        "--stat",
        "bab=12",
        "--stat",
        "str=14",
        "--stat",
        "weapons=rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing;"
        "dagger:attack=13,damage=2,enhancement=1,threat=19,light,types=piercing",
    )
    run("character", "add", "Guard", "--stat", "fort=4", "--stat", "defence=5")
    result = run.json(
        "attack", "Ivanior", "Guard", "--multi-weapon", "--multi-weapon-fighting", "--roll", "12", "--save-roll", "9"
    )
    assert result["attack"]["attack_bonus"] == 11
    assert result["injuries"][0]["damage"] == 12 and result["injuries"][0]["dc"] == 17


def test_a_bad_weapon_on_the_sheet_is_bad_input(run_sqlite):
    run_sqlite("campaign", "new", "Keep", "--system", "potestas")
    assert run_sqlite("character", "add", "X", "--stat", "weapons=rapier:sharpness=9").exit_code == 2
