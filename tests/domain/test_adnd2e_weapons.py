"""A sheet's class and weapons: what `--stat class=` and `--stat weapons=` become, and how
`--weapon NAME` finds the weapon the rules read."""

import pytest

from chronicle.domain.adnd2e import Sheet, parse_sheet
from chronicle.domain.adnd2e.weapons import Weapon, parse_weapon
from chronicle.domain.errors import BadInput

ARMS = "Club:blunt,damage=1d6;long sword:edged,damage=1d8,magic=1;Short Bow:piercing,missile,small,damage=1d6"


def test_a_fighter_thief_carries_three_weapons_with_the_properties_the_rules_read():
    sheet = parse_sheet({"hp": "14", "level": "4", "class": "Fighter/Thief", "weapons": ARMS})
    assert sheet.classes == ("fighter", "thief")
    club, sword, bow = sheet.weapons
    assert (club.kind, club.missile, club.size, club.damage) == ("blunt", False, "medium", "1d6")
    assert (sword.kind, sword.magic) == ("edged", 1)
    assert (bow.kind, bow.missile, bow.size) == ("piercing", True, "small")


def test_weapon_names_match_in_any_case_and_a_missing_one_is_bad_input_naming_what_the_sheet_has():
    sheet = parse_sheet({"hp": "14", "weapons": ARMS})
    assert sheet.wielded("short bow", "Rook") == sheet.weapons[2]
    assert sheet.wielded(None, "Rook") is None  # bare hands
    with pytest.raises(BadInput, match="Rook has no weapon 'mace' on its sheet .it has: Club, long sword, Short Bow"):
        sheet.wielded("mace", "Rook")


def test_the_class_and_weapons_survive_the_sheets_json_as_stored_in_the_registration():
    sheet = parse_sheet({"hp": "14", "class": "thief", "weapons": ARMS})
    dumped = sheet.model_dump(mode="json")
    assert dumped["class"] == "thief" and dumped["weapons"][0] == {
        "name": "Club",
        "kind": "blunt",
        "missile": False,
        "size": "medium",
        "damage": "1d6",
        "magic": 0,
    }
    assert Sheet.model_validate(dumped) == sheet


def test_a_sheet_stored_before_classes_and_weapons_loads_with_none_of_either():
    old = Sheet.model_validate(
        {
            "hp": 30,
            "level": 9,
            "str": "18/76",
            "backstab": True,
            "helmet": True,
            "race": "human",
            "shield": 0,
            "size": "medium",
        }
    )
    assert (old.character_class, old.classes, old.weapons) == (None, (), ())


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ({"class": "wizard"}, "unknown class 'wizard'"),
        ({"weapons": "club"}, "blunt, edged or piercing"),
        ({"weapons": "club:blunt,edged"}, "not two"),
        ({"weapons": "club:blunt,heavy"}, "unknown part 'heavy'"),
        ({"weapons": "club:blunt,damage=2d0"}, "damage"),
        ({"weapons": "club:blunt,magic=-1"}, "magic"),
        ({"weapons": "club:blunt;CLUB:edged"}, "two weapons are named 'club'"),
    ],
)
def test_a_bad_class_or_weapon_is_bad_input(stats, message):
    with pytest.raises(BadInput, match=message):
        parse_sheet({"hp": "10", **stats})


def test_a_weapon_spec_reads_size_as_a_word_or_a_key():
    assert parse_weapon("dagger:piercing,size=small").size == "small"
    assert parse_weapon("dart:piercing,missile,small") == Weapon(
        name="dart", kind="piercing", missile=True, size="small"
    )
