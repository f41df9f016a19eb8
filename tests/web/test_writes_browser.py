"""The table writes in a real Chromium (Playwright driving Debian's /usr/bin/chromium), against `chronicle
serve --writes` in another process: a player joins by the invitation's link (a key made in the browser),
records a wound by the form, and the gm's page (another browser context) shows it within a second without
a reload; the player's attempt on another's character is refused with a message; `verify` passes and the
log names the player, with the browser's key. A history edited behind the server's back makes an open page
show the witness's warning. At a phone's width and a desktop's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from reliability.forge import rechain

from .conftest import CHROMIUM, serving
from .waiting import until

HERE = Path(__file__).parent
VECTORS = HERE.parent / "ledger" / "merkle_vectors.json"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


class Table:
    def __init__(self, db: str):
        self.db = db

    def chronicle(self, *args: str, ok: bool = True, home: str | None = None) -> subprocess.CompletedProcess[str]:
        """`chronicle` in another process, as the gm at their terminal (HOME: their folder elsewhere)."""
        done = subprocess.run(
            [sys.executable, "-m", "chronicle.cli", "--db", self.db, "--by", "gm", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=HERE,
            env={**os.environ, "CHRONICLE_HOME": home} if home else None,
        )
        assert (done.returncode == 0) == ok, done.stderr + done.stdout
        return done

    def json(self, *args: str) -> dict:
        return json.loads(self.chronicle("--json", *args).stdout)


@pytest.fixture
def table(run_sqlite) -> Table:
    run_sqlite.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run_sqlite.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    run_sqlite.json("character", "add", "Korol", "--stat", "siz=12", "--stat", "con=11")
    return Table(run_sqlite.db)


@pytest.fixture
def served(table) -> Iterator[str]:
    """`chronicle serve --writes` on a free port of this machine's own address; its address."""
    with serving(table.db, "--writes") as address:
        yield address


def character_url(page, served: str, name: str) -> str:
    page.goto(served + "/")
    return served + page.get_by_role("link", name=name).first.get_attribute("href")


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_a_player_joins_by_the_link_and_records_a_wound_the_gm_sees_live(table, served, chromium, width, height):
    from playwright.sync_api import expect

    invited = table.json("participant", "invite", "Ann", "--plays", "Vasana")
    assert invited["url"].startswith(served + "/join/")  # on the server's own address

    gm = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    vasana = character_url(gm, served, "Vasana")
    gm.goto(vasana)
    expect(gm.locator("#liveness")).to_have_text("live")
    expect(gm.locator("#act-who")).to_contain_text("Read only")  # the gm's browser holds no key
    summary = gm.locator("#summary")
    expect(summary).to_have_text("hp 28/28, Status 0")
    gm.evaluate("window.notReloaded = true")

    player = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    player.goto(invited["url"])
    expect(player.locator("h1")).to_have_text("Join Sartar")
    player.get_by_role("button", name="Join on this device").click()
    player.wait_for_url(vasana)
    expect(player.locator("#act-who")).to_have_text("Signed in as Ann, playing Vasana.")
    actions = player.locator("#act-forms details.action > summary")
    expect(actions.first).to_have_text("Injure")
    assert "Award Status" not in actions.all_inner_texts()  # a gm's, in PenDragon Pass

    player.locator("details[data-command=injure] > summary").click()
    injure = player.locator("details[data-command=injure]")
    injure.get_by_label("Damage", exact=True).fill("4")
    assert injure.get_by_label("Save Roll").get_attribute("placeholder") == "empty: the ledger rolls"
    assert player.evaluate("document.documentElement.scrollWidth") <= width  # the open form fits the screen
    if width < 400:  # and a small phone's
        player.set_viewport_size({"width": 360, "height": height})
        assert player.evaluate("document.documentElement.scrollWidth") <= 360
        submit = player.locator("details[data-command=injure] button[type=submit]").bounding_box()
        assert submit["height"] >= 44 and submit["width"] >= 300  # a thumb's target
        player.set_viewport_size({"width": width, "height": height})
    player.locator("details[data-command=injure] button[type=submit]").click()
    result = player.locator("#act-result")
    expect(result).to_contain_text("Vasana is wounded: wound #1", timeout=10000)
    answered = time.monotonic()
    assert "[event" not in result.inner_text()
    expect(summary).to_have_text("hp 24/28, Status 0", timeout=3000)
    assert time.monotonic() - answered < 1.0, "the gm's page took more than a second"
    assert gm.evaluate("window.notReloaded") is True

    player.goto(character_url(player, served, "Korol"))
    expect(player.locator("#act-who")).to_contain_text("only Korol's player or a gm records for Korol")
    assert player.locator("details[data-command=injure]").count() == 0
    player.evaluate("chronicleAct.send({command: 'injure', name: 'Korol', damage: 3})")
    expect(result).to_have_text(
        "Not yours to record: Ann does not play 'Korol': a player records injure only for the characters they play."
    )
    assert player.evaluate("document.documentElement.scrollWidth") <= width

    campaign = table.json("campaign", "show")["id"]
    key = player.evaluate("id => chronicleKeys.load(id).then(found => found.key)", campaign)
    assert table.chronicle("verify").returncode == 0
    events = table.json("log")["events"]
    wound = next(e for e in reversed(events) if e["character"] == "Vasana")
    assert wound["summary"].startswith("Vasana is wounded: wound #1")
    assert wound["by"] == "Ann" and wound["key"] == key and key.startswith("ed25519:")
    joined = next(e for e in events if e["type"] == "ParticipantSet" and e["by"] == "Ann")
    assert joined["key"] == key and "by the invitation" in joined["summary"]
    assert not [e for e in events if e["character"] == "Korol" and e["by"] == "Ann"]
    gm.context.close()
    player.context.close()


def test_a_history_rewritten_behind_the_servers_back_is_a_loud_warning_on_an_open_page(
    table, served, chromium, tmp_path
):
    from playwright.sync_api import expect

    page = chromium.new_page(viewport={"width": 390, "height": 844})
    page.goto(character_url(page, served, "Vasana"))
    expect(page.locator("body")).to_have_attribute("data-witness-checked", re.compile(r"\d+"))
    campaign = table.json("campaign", "show")["id"]
    ledger = page.evaluate("id => fetch('/checkpoint?campaign=' + id).then(r => r.json())", campaign)["ledger"]
    memory = f"chronicle.witness.{campaign}.{ledger}"
    seen = page.evaluate("key => JSON.parse(localStorage.getItem(key))", memory)
    assert seen["size"] == 3  # the campaign and its two characters
    assert page.locator("#witness").is_hidden()

    table.chronicle("note", "the first night", "--for", "Vasana")  # the history grows: it still extends
    expect(page.locator("#summary")).to_be_visible()
    until(page, "key => JSON.parse(localStorage.getItem(key)).size === 4", memory, timeout=10000)
    assert page.locator("#witness").is_hidden()

    korol = next(e["position"] for e in table.json("log")["events"] if e["character"] == "Korol")
    rechain(table.db, korol, lambda state: state["sheet"].update(siz=18))  # edited, its hash chain recomputed
    table.chronicle("note", "a quiet night", ok=False)  # refused: the gm's chronicle saw the history before
    elsewhere = tmp_path / "laptop"  # the gm's key on a machine that saw nothing: its next event goes in
    elsewhere.mkdir(mode=0o700)
    shutil.copy(Path(os.environ["CHRONICLE_HOME"]) / "identity.key", elsewhere / "identity.key")
    table.chronicle("note", "a quiet night", home=str(elsewhere))  # the next event: every open page checks again
    banner = page.locator("#witness")
    expect(banner).to_be_visible(timeout=10000)
    expect(banner).to_contain_text("Warning: the history of Sartar has changed.")
    expect(banner).to_contain_text(f"#{korol}")
    assert page.evaluate("document.body.dataset.witness") == "rewritten"
    page.reload()  # and it stays so: the browser still remembers what it saw
    expect(page.locator("#witness")).to_be_visible(timeout=10000)
    page.close()


def test_the_browsers_proof_check_is_rfc_6962s(table, served, chromium):
    """witness.js against the transparency-dev vectors the Python verifier passes (tests/ledger)."""
    vectors = json.loads(VECTORS.read_text())
    page = chromium.new_page()
    page.goto(served + "/")
    roots = vectors["roots"]
    proofs = [
        {"old": p["old"], "new": p["new"], "oldRoot": roots[p["old"]], "newRoot": roots[p["new"]], "proof": p["proof"]}
        for p in vectors["consistency_proofs"]
    ]
    verdicts = page.evaluate(
        """proofs => {
          const hex = h => Uint8Array.from(h.match(/../g) || [], b => parseInt(b, 16));
          return Promise.all(proofs.map(p => chronicleWitness.verifyConsistency(
            p.old, p.new, hex(p.oldRoot), hex(p.newRoot), p.proof.map(hex))));
        }""",
        proofs,
    )
    assert verdicts == [True] * len(proofs)
    probes = vectors["consistency_probes"]
    verdicts = page.evaluate(
        """probes => {
          const bytes = b => b === null ? new Uint8Array(0) : Uint8Array.from(atob(b), c => c.charCodeAt(0));
          return Promise.all(probes.map(p => chronicleWitness.verifyConsistency(
            p.size1, p.size2, bytes(p.root1), bytes(p.root2), (p.proof || []).map(bytes))));
        }""",
        probes,
    )
    assert verdicts == [not probe["wantErr"] for probe in probes]
    same = page.evaluate(
        """() => Promise.all(['', 'abc', 'x'.repeat(1000)].map(text => {
          const data = new TextEncoder().encode(text);
          return chronicleWitness.sha256(data).then(subtle =>
            subtle.every((b, i) => b === chronicleWitness.sha256Plain(data)[i]));
        }))"""
    )
    assert same == [True, True, True]
    page.close()
