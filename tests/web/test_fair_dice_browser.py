"""The ledger's fair dice in a real Chromium (Playwright driving Debian's /usr/bin/chromium), against `chronicle
serve --writes` in another process: a player's roll by the form carries the browser's own device seed, shows
its fair mark in the character's story and in the log, and the browser's re-derivation (Web Crypto HMAC)
agrees with the recorded faces; a seed altered in the database makes the page warn. The page's derivation
gives the published vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reliability.forge import rechain

from .conftest import CHROMIUM, serving
from .test_writes_browser import Table, character_url

VECTORS = json.loads((Path(__file__).parents[1] / "domain" / "fair_dice_vectors.json").read_text())

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


@pytest.fixture
def table(run_sqlite) -> Table:
    run_sqlite.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run_sqlite.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    return Table(run_sqlite.db)


def test_a_players_roll_by_the_form_is_fair_and_checked_in_the_browser(table, chromium):
    from playwright.sync_api import expect

    with serving(table.db, "--writes") as served:
        invited = table.json("participant", "invite", "Ann", "--plays", "Vasana")
        player = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
        vasana = character_url(player, served, "Vasana")
        player.goto(invited["url"])
        player.get_by_role("button", name="Join on this device").click()
        player.wait_for_url(vasana)  # joined: the page goes on to the character Ann plays
        expect(player.locator("#act-who")).to_have_text("Signed in as Ann, playing Vasana.")

        player.locator("details[data-command=roll] > summary").click()
        player.get_by_label("Notation", exact=True).fill("4d6")
        player.locator("details[data-command=roll] button[type=submit]").click()
        expect(player.locator("#act-result")).to_contain_text("Vasana rolled 4d6", timeout=10000)

        roll = next(e for e in reversed(table.json("log")["events"]) if e["type"] == "DiceRolled")
        fair, faces = roll["data"]["dice"]["fair"], roll["data"]["faces"]
        assert fair["index"] == 1 and len(fair["device_seed"]) == 64  # the browser's own seed, signed with the roll
        assert roll["by"] == "Ann"

        mark = player.locator(f"#event-{roll['position']} details.fair")
        expect(mark).to_have_class("fair fair-ok", timeout=10000)  # the live page marks it, checked
        mark.locator("summary").click()
        expect(mark).to_contain_text(fair["seed"])
        expect(mark).to_contain_text(fair["device_seed"])
        expect(mark).to_contain_text("Faces derived here: " + ", ".join(map(str, faces)))
        expect(mark).to_contain_text("hashes back to the head in 1 steps")

        log = player.context.new_page()
        log.goto(served + "/c/Sartar/log")
        expect(log.locator(f"#event-{roll['position']} details.fair")).to_have_class("fair fair-ok", timeout=10000)
        assert log.locator("details.fair").count() == 1  # the commitment and the other events are no rolls

        rechain(table.db, roll["position"], lambda state: state["dice"]["fair"].update(seed="0" * 64))
        player.reload()
        altered = player.locator(f"#event-{roll['position']} details.fair")
        expect(altered).to_have_class("fair fair-warn", timeout=10000)
        altered.locator("summary").click()
        expect(altered.locator(".fair-warning")).to_contain_text(
            "the faces recorded are not those this seed and device seed give"
        )
        expect(altered.locator(".fair-warning")).to_contain_text("does not hash back to its commitment's head")
        player.context.close()


def test_the_pages_derivation_gives_the_published_vectors(table, chromium):
    with serving(table.db) as served:
        page = chromium.new_page()
        page.goto(served + "/")
        for name in ("published", "ours"):
            vectors = VECTORS[name]
            for roll in vectors["rolls"]:
                seed = roll.get("seed") or vectors["seeds"][str(roll["index"])]
                rolls = [{"sides": str(sides), "faces": [0]} for sides in roll["sides"]]
                derived = page.evaluate(
                    "([seed, device, rolls]) => chronicleFair.derive(seed, device, rolls)",
                    [seed, roll["device_seed"], rolls],
                )
                assert derived == [[str(face)] for face in roll["faces"]], name
            last = str(vectors["length"])
            assert page.evaluate(
                "([seed, steps, head]) => chronicleFair.chained(seed, steps, head)",
                [vectors["seeds"][last], vectors["length"], vectors["head"]],
            )
        page.close()
