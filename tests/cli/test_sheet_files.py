"""A character's sheet from a JSON or TOML file, and each system's sheet keys (`rules sheet`), on both
databases."""

import json

VASANA = """
siz = 15
con = 13
virtues = ["chaste", "energetic", "generous", "modest", "temperate"]
[traits]
valorous = 17
[passions]
loyalty_clan = 18
[skills]
sword = 15
"""


def test_character_add_reads_a_toml_or_json_sheet_with_the_keys_of_stat(run, tmp_path):
    """Vasana's TOML: SIZ 15 + CON 13 = 28 hit points, Valorous 17 (Cowardly 20 - 17 = 3), --stat sword=16 wins
    over the file's 15. A JSON AD&D sheet: hp 12 and a club (1d6)."""
    (tmp_path / "vasana.toml").write_text(VASANA)
    run("campaign", "new", "Glor", "--system", "pendragon-pass")
    added = run.json("character", "add", "Vasana", "--sheet", str(tmp_path / "vasana.toml"), "--stat", "sword=16")
    sheet = added["sheet"]
    assert (sheet["siz"], sheet["traits"]["valorous"], sheet["traits"]["cowardly"]) == (15, 17, 3)
    assert (sheet["passions"]["loyalty_clan"], sheet["skills"]["sword"], len(sheet["virtues"])) == (18, 16, 5)
    assert run.json("character", "show", "Vasana")["condition"]["hp"] == 28
    (tmp_path / "guard.json").write_text(json.dumps({"hp": 12, "level": 1, "weapons": ["club:blunt,damage=1d6"]}))
    run("campaign", "new", "Grey", "--system", "adnd2e")
    guard = run.json("character", "add", "Guard", "--sheet", str(tmp_path / "guard.json"))["sheet"]
    assert guard["hp"] == 12 and guard["weapons"][0]["name"] == "club"
    (tmp_path / "bad.json").write_text(json.dumps({"hp": 1.5}))
    bad = run("character", "add", "Bad", "--sheet", str(tmp_path / "bad.json"))
    assert bad.exit_code == 2 and "'hp' must be a whole number" in bad.stderr and "Traceback" not in bad.output
    unknown = run("character", "add", "Bad", "--sheet", str(tmp_path / "guard.json"), "--stat", "hpp=3")
    assert unknown.exit_code == 2 and "did you mean 'hp'" in unknown.stderr


def test_rules_sheet_lists_each_systems_keys_and_character_add_help_says_them(run):
    for system, some in (
        ("potestas", {"fort", "dr", "weapons", "hardness"}),
        ("adnd2e", {"hp", "hd", "str", "thac0", "petrification", "weapons"}),
        ("pendragon-pass", {"siz", "valorous", "cowardly", "loyalty_NAME", "sword", "virtues"}),
    ):
        listed = run.json("rules", "sheet", system)
        assert listed["system"] == system and some <= {k["key"] for k in listed["keys"]}
        assert all(k["meaning"] for k in listed["keys"])
    helped = run("character", "add", "--help").stdout
    assert "rules sheet SYSTEM" in helped and "petrification" in helped and "holder_fort" in helped


def test_rules_sheet_reads_the_rules_alone_and_makes_no_database(tmp_path):
    """The sheet keys are the rules', not a ledger's: `rules sheet` answers where no ledger is, making none."""
    from click.testing import CliRunner

    from chronicle.cli.main import chronicle

    missing = tmp_path / "missing.db"
    done = CliRunner().invoke(chronicle, ["--db", str(missing), "--json", "rules", "sheet", "potestas"])
    assert done.exit_code == 0, done.output
    assert "fort" in {k["key"] for k in json.loads(done.stdout)["keys"]}
    assert not missing.exists()
