"""A ledger signed from its first event by an earlier version stays valid.

`tests/fixtures/ledger-v3-signed.db` was written by `tests/fixtures/make_signed_fixture.py` with the version
that first signed every event: three campaigns, one per rule system, played with the table's dice, the
ledger's own and the sheet's defaults. Each signed command there, run again from its document by the current
code, must derive what was recorded then, and each character must read as it did."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ledger-v3-signed.expected.json").read_text())


@pytest.fixture(scope="module")
def signed_ledger(tmp_path_factory) -> Run:
    copy = tmp_path_factory.mktemp("signed") / "ledger-v3-signed.db"  # never touch the committed file
    shutil.copyfile(FIXTURES / "ledger-v3-signed.db", copy)
    return Run(str(copy))


@pytest.mark.parametrize("campaign", sorted(EXPECTED))
def test_each_campaign_of_the_signed_fixture_verifies_with_every_signature_required(signed_ledger, campaign):
    report = signed_ledger.json("--campaign", campaign, "verify", "--require-signatures")
    events = EXPECTED[campaign]["events"]
    assert (report["ok"], report["problems"]) == (True, [])
    assert (report["events"], report["signed"], report["unsigned"]) == (events, events, 0)


@pytest.mark.parametrize("campaign", sorted(EXPECTED))
def test_each_character_of_the_signed_fixture_reads_as_it_did(signed_ledger, campaign):
    for name, then in EXPECTED[campaign]["characters"].items():
        now = signed_ledger.json("--campaign", campaign, "character", "show", name)
        assert (now["name"], now["system"], now["version"]) == (then["name"], then["system"], then["version"])
        assert {key: now["condition"].get(key) for key in then["condition"]} == then["condition"], name
        assert {key: now["sheet"].get(key) for key in then["sheet"]} == then["sheet"], name
