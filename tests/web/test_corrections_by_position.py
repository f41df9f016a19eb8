"""The table view tells a correction as `log` does (Corrections): by log positions (`#4`), never
by a version of the character's events ("event 2"), whether it reads the sentences a command kept or
explains the event again (a correction recorded in a batch keeps none)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading


def test_the_log_page_names_a_corrections_events_by_their_log_positions(run):
    # Kara's 15 hits Orc (defence 0); 6 + 6 = 12 damage, DC 17; the save 5 + 1 = 6 fails: a wound
    run.json("campaign", "new", "Fight", "--system", "potestas")
    run.json("character", "add", "Kara", "--stat", "weapons=longsword:damage=2d6,types=slashing")
    run.json("character", "add", "Orc", "--stat", "fort=1")
    run.json("attack", "Kara", "Orc", "--roll", "15", "--dice", "6,6", "--save-roll", "5")  # #4 and its hit #5
    run.json("amend", "#4", "--roll", "attack=2", "--reason", "the die showed 2")  # kept as it was told
    run.json("batch", "-", input="amend '#4' --roll attack=19 --reason 'it was 19'\n")  # told again when read
    data = Reading(run.db)
    try:
        with TestClient(build(data, lambda _: None)) as client:
            log = client.get("/log").text
            orc = re.search(r'href="(/c/[^"?]+)">Orc<', client.get("/").text)
            assert orc is not None
            story = client.get(orc.group(1)).text
    finally:
        data.close()
    for page in (log, story):
        assert page.count("A correction decides Orc&#39;s event at #4 again") == 2, page
        assert "#5: no longer counts" in page and "#5: counts again" in page
        assert "event 2 (" not in page and "event 3:" not in page
