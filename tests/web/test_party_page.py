"""The campaign page lists the party, then the others (foes, the gm's people); Status leaders are the party's."""

from __future__ import annotations


def test_the_campaign_page_lists_the_party_then_the_others_and_leaders_are_the_partys(table, client):
    table.run.json("character", "add", "Broo", "--npc", "--stat", "siz=12", "--stat", "con=12")
    table.run.json("status", "award", "Broo", "--amount", "5000", "--reason", "a raid")
    page = client.get("/").text
    party, others = page.split("<h2>The party</h2>")[1].split("<h2>The others</h2>")
    assert "Vasana" in party and "Broo" not in party
    assert ">Broo<" in others.split("<h2>")[0]
    assert "Broo" not in page.split("Status leaders")[1].split("</ol>")[0]


def test_the_sheet_reads_in_words_with_only_the_rows_the_system_uses(table, client):
    table.run.json("campaign", "new", "Dragon Pass", "--system", "potestas")
    table.run.json("character", "add", "Brand", "--stat", "fort=5", "--stat", "weapons=shortbow:damage=1d6,ranged")
    sheet = client.get("/c/Dragon%20Pass/Brand").text.split("<h2>Sheet</h2>")[1].split("</table>")[0]
    assert "<td>shortbow: damage 1d6, critical x2, ranged</td>" in sheet
    assert "Hardness" not in sheet and "Thickness" not in sheet and "{" not in sheet


def test_a_pendragon_initiate_is_an_initiate_on_the_page_as_in_the_cli(table, client):
    table.run.json("character", "add", "Orlmarth", "--stat", "siz=14", "--stat", "con=12", "--stat", "initiate=1")
    page = client.get("/c/Sartar/Orlmarth").text
    assert "<td>an initiate</td>" in page.split("<h2>Sheet</h2>")[1]
    assert "an initiate" in table.run("character", "show", "Orlmarth").stdout


def test_a_badge_never_says_fit_beside_a_wound(table, client):
    table.run.json("campaign", "new", "Dragon Pass", "--system", "potestas")
    table.run.json("character", "add", "Brand", "--stat", "fort=5")
    table.run.json("injure", "Brand", "--damage", "12", "--save-roll", "5")
    page = client.get("/c/Dragon%20Pass/Brand").text.split("<h2>Condition</h2>")[1].split("</section>")[0]
    assert "1 wound" in page and "state-fit" not in page


def test_a_characters_story_on_its_page_holds_the_blows_it_dealt(table, client):
    table.run.json("character", "add", "Harrek", "--stat", "siz=14", "--stat", "con=12")
    table.run.json("injure", "Vasana", "--damage", "5", "--attacker", "Harrek")
    page = client.get(table.character_url(client, "Harrek")).text
    assert "Harrek wounds Vasana" in " ".join(page.split())


def test_the_log_page_filtered_by_a_character_holds_the_blows_it_dealt(table, client):
    table.run.json("character", "add", "Harrek", "--stat", "siz=14", "--stat", "con=12")
    table.run.json("injure", "Vasana", "--damage", "5", "--attacker", "Harrek")
    page = client.get("/c/Sartar/log", params={"character": "Harrek"}).text
    assert "Harrek wounds Vasana" in " ".join(page.split())
    assert "ford" not in page.split("</form>")[-1]  # Vasana's award, which does not name Harrek
