"""The AD&D 2E sheet and rulings: what a table may type, and what it becomes."""

import pytest

from chronicle.domain.adnd2e import Rulings, Sheet, Strength, one_handed, parse_sheet
from chronicle.domain.errors import BadInput


def test_sheet_parses_contract_fields_with_defaults():
    sheet = parse_sheet({"hp": "30", "level": "9", "str": "18/76", "dex": "16", "ac": "4"})
    assert sheet.hp == 30 and sheet.level == 9 and sheet.rank == 9
    assert sheet.strength == Strength(score=18, percentile=76)
    assert (sheet.size, sheet.backstab, sheet.race, sheet.height) == ("medium", True, "human", None)


def test_exceptional_strength_18_00_is_percentile_100_and_prints_back():
    sheet = parse_sheet({"str": "18/00"})
    assert sheet.strength == Strength(score=18, percentile=100)
    assert sheet.model_dump(mode="json")["str"] == "18/00"


def test_sheet_round_trips_through_its_json_dump():
    sheet = parse_sheet({"hp": "12", "str": "18/05", "size": "L", "race": "Elf", "helmet": "false"})
    assert Sheet.model_validate(sheet.model_dump(mode="json")) == sheet
    assert (sheet.size, sheet.race, sheet.helmet, str(sheet.strength)) == ("large", "elf", False, "18/05")


def test_monster_kind_uses_hit_dice_and_no_player_race():
    sheet = parse_sheet({"hp": "20", "hd": "4"}, kind="monster")
    assert sheet.rank == 4 and not sheet.player_race


def test_hit_dice_without_level_mark_a_monster_unless_a_race_is_given():
    assert parse_sheet({"hd": "4"}).race == "monster"
    assert parse_sheet({"hd": "1", "race": "elf"}).player_race


def test_strength_above_18_is_fine():
    assert parse_sheet({"str": "20"}).strength == Strength(score=20)


@pytest.mark.parametrize(
    "stats",
    [
        {"hp": "x"},
        {"hp": "3.5"},
        {"charisma": "12"},
        {"strength": "12"},
        {"str": "17/50"},
        {"str": "18/5"},
        {"str": "18/101"},
        {"hp": "0"},
        {"size": "colossal"},
        {"backstab": "maybe"},
    ],
)
def test_bad_stats_are_bad_input_on_one_line(stats):
    with pytest.raises(BadInput) as error:
        parse_sheet(stats)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("strength", "expected"),
    [
        ("18/00", "18/51"),
        ("18/99", "18/01"),
        ("18/91", "18/01"),
        ("18/90", "18"),
        ("18/76", "18"),
        ("18/75", "17"),
        ("18/51", "17"),
        ("18/50", "16"),
        ("18/01", "16"),
        ("18", "15"),
        ("15", "12"),
        ("3", "0"),
    ],
)
def test_one_handed_grab_strength_table(strength, expected):
    assert str(one_handed(Strength.parse(strength))) == expected


def test_rulings_defaults_and_values_from_strings():
    assert Rulings().model_dump() == {
        "fair_dice": "optional",
        "temporary_unconscious": True,
        "temporary_recovery": 1,
        "sap_knockout_rounds": "2d8",
        "real_recovery": 1,
        "death_at": 0,
        "helmets_tracked": False,
        "uncontrolled_nonlethal": False,
        "save_above_20": "natural_20",
        "partial_hit_dice": "floor",
        "monster_thac0": "hit_dice",
    }
    rulings = Rulings.model_validate(
        {"temporary_unconscious": "false", "temporary_recovery": "3", "sap_knockout_rounds": "1d6+1"}
    )
    assert (rulings.temporary_unconscious, rulings.temporary_recovery, rulings.sap_knockout_rounds) == (
        False,
        3,
        "1d6+1",
    )


def test_rulings_refuse_bad_dice_notation():
    with pytest.raises(ValueError):
        Rulings.model_validate({"sap_knockout_rounds": "two d eight"})


def test_every_ruling_is_documented():
    assert all(field.description for field in Rulings.model_fields.values())
