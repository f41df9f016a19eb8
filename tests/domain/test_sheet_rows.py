"""A sheet as rows people read: values in words, and only the fields this kind of sheet uses."""

from chronicle.domain import systems
from chronicle.domain.sheet_rows import sheet_rows


def rows_of(system: str, **stats: str) -> dict[str, object]:
    rules = systems.get(system)
    found = sheet_rows(system, rules.parse_sheet(stats))
    return {row["label"]: row.get("value", row.get("rows")) for row in found}


def test_a_potestas_creature_has_no_object_rows_and_its_weapons_read_as_words():
    rows = rows_of("potestas", fort="5", weapons="shortbow:damage=1d6,ranged,types=piercing")
    assert "Hardness" not in rows and "Thickness" not in rows
    assert rows["Weapons"] == "shortbow: damage 1d6, critical x2, ranged, piercing"


def test_an_adnd2e_weapon_reads_as_its_players_write_it():
    rows = rows_of("adnd2e", hp="12", level="1", weapons="club:blunt,small,damage=1d6")
    assert rows["Weapons"] == "club (blunt, small, 1d6)"
    assert not any("{" in str(value) or "'" in str(value) for value in rows.values())


def test_a_pendragon_initiate_reads_as_an_initiate_as_the_cli_says():
    rows = rows_of("pendragon-pass", siz="15", con="13", initiate="1")
    assert rows["Initiate"] == "an initiate" and rows["Shaman"] == "not a shaman"
