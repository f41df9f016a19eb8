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
