"""The forms a page offers (`GET /api/me`), generated from the command models in the campaign's system and
narrowed to what the sheet and the rules know: a player's acting through the characters they play (an attack
on anyone included), a gm's every one, the table-wide ones on the campaign's page; and the authorisation of
`POST /api/commands` agreeing with them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from conftest import Run
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading
from chronicle.cli.web.writes import Writer
from chronicle.ledger.trust.identity import Identity, load_or_create
from chronicle.ledger.trust.signing import sign

WEAPONS = "longsword:damage=1d8,types=slashing;dagger:damage=1d4,types=piercing,light"


@dataclass
class Served:
    client: TestClient
    campaign: str
    phone: Identity  # Ann's, who plays Aric
    desk: Identity  # Gwen's, a gm
    run: Run

    def me(self, who: Identity, character: str | None = None) -> dict:
        params = {"campaign": self.campaign, "key": who.public_key_text}
        answer = self.client.get("/api/me", params={**params, **({"character": character} if character else {})})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def forms(self, who: Identity, character: str | None = None) -> dict[str, dict]:
        return {action["command"]: action for action in self.me(who, character)["actions"]}

    def post(self, who: Identity, document: dict, nonce: str):
        signed = sign(who, self.campaign, document, nonce)
        return self.client.post("/api/commands", json={"campaign": self.campaign, **signed.model_dump()})


def joined(served: Served, name: str, role: str, who: Identity, *plays: str) -> None:
    asked = ["--campaign", "Keep", "participant", "invite", name, "--role", role]
    url = served.run.json(*asked, *(("--plays", ",".join(plays)) if plays else ()))["url"]
    answer = served.post(who, {"command": "participant join", "invitation": url.rsplit("/", 1)[1]}, f"join-{name}")
    assert answer.status_code == 200, answer.text


@pytest.fixture
def keep(run_sqlite, tmp_path) -> Iterator[Served]:
    run = run_sqlite
    run.json("campaign", "new", "Keep", "--system", "potestas")
    run.json("character", "add", "Aric", "--stat", "bab=3", "--stat", "defence=14", "--stat", f"weapons={WEAPONS}")
    run.json("character", "add", "Brannoc", "--stat", "bab=2", "--stat", "weapons=mace:damage=1d8,types=bludgeoning")
    run.json("character", "add", "Orc", "--stat", "bab=1")
    campaign = run.json("campaign", "show")["id"]
    data, writer = Reading(run.db), Writer(run.db, print)
    with TestClient(build(data, print, writes=writer)) as client:
        served = Served(client, campaign, load_or_create(tmp_path / "phone"), load_or_create(tmp_path / "desk"), run)
        joined(served, "Ann", "player", served.phone, "Aric")
        joined(served, "Gwen", "gm", served.desk)
        yield served
    writer.close()
    data.close()


def test_a_players_forms_act_through_their_character_with_the_sheets_choices(keep):
    forms = keep.forms(keep.phone, "Aric")
    assert {"attack", "injure", "rest", "fall", "roll", "note"} <= set(forms)
    assert "dying-save" not in forms and "exert" not in forms  # Aric is unhurt: neither can apply
    attack = forms["attack"]
    assert attack["character"] == "attacker" and not attack["campaign"]
    properties = attack["schema"]["properties"]
    assert properties["weapon"]["items"]["enum"] == ["longsword", "dagger"]
    assert properties["weapon"]["x-labels"]["longsword"] == "longsword: 1d8, slashing"
    assert properties["target"]["enum"] == ["Brannoc", "Orc"]  # anyone but the attacker
    assert "force" not in properties and "force" not in forms["injure"]["schema"]["properties"]  # a gm's
    assert "slashing" in _enum(forms["injure"]["schema"]["properties"]["type"])
    assert keep.forms(keep.phone, "Brannoc") == {}  # not theirs
    assert keep.forms(keep.phone) == {}  # the table-wide forms are a gm's


def test_a_gm_has_every_form_and_the_table_wide_ones_on_the_campaign_page(keep):
    forms = keep.forms(keep.desk, "Orc")
    assert "force" in forms["injure"]["schema"]["properties"] and "attack" in forms
    table = keep.forms(keep.desk)
    assert {"session start", "session end", "campaign rule", "amend"} <= set(table)
    assert all(action["campaign"] for action in table.values())


def test_a_dying_save_is_offered_once_the_character_is_dying(keep):
    keep.run.json("--campaign", "Keep", "injure", "Aric", "--damage", "60", "--save-roll", "1")
    keep.run.json("--campaign", "Keep", "injure", "Aric", "--damage", "60", "--save-roll", "1")
    states = keep.run.json("--campaign", "Keep", "character", "show", "Aric")["condition"]["states"]
    assert ("dying-save" in keep.forms(keep.phone, "Aric")) == ("dying" in states)


def test_a_players_command_through_their_character_is_theirs_through_anothers_refused(keep):
    blow = {"command": "attack", "attacker": "Aric", "target": "Orc", "weapon": ["dagger"], "roll": 2}
    mine = keep.post(keep.phone, blow, "a-1")
    assert mine.status_code == 200, mine.text
    theirs = keep.post(keep.phone, {"command": "attack", "attacker": "Brannoc", "target": "Orc"}, "a-2")
    assert theirs.status_code == 403 and "does not play 'Brannoc'" in theirs.json()["error"]["message"]
    lacking = keep.post(keep.phone, {"command": "attack", "attacker": "Nobody", "target": "Orc"}, "a-3")
    assert lacking.status_code == 400, lacking.text


def test_the_forms_of_a_character_the_campaign_lacks_are_not_found(keep):
    params = {"campaign": keep.campaign, "key": keep.phone.public_key_text, "character": "Nobody"}
    assert keep.client.get("/api/me", params=params).status_code == 404


def _enum(property: dict) -> list:
    return next(option["enum"] for option in property.get("anyOf", [property]) if "enum" in option)


def test_an_events_dice_are_named_for_its_correction_in_the_tables_words(keep):
    keep.run.json("--campaign", "Keep", "injure", "Orc", "--damage", "12", "--save-roll", "7")
    position = keep.run.json("--campaign", "Keep", "log")["events"][-1]["position"]
    found = keep.client.get("/api/dice", params={"campaign": keep.campaign, "position": position}).json()
    assert found["character"] == "Orc" and found["correctable"] == [{"roll": "save", "says": "the save", "faces": [7]}]
    fixed = keep.post(
        keep.desk, {"command": "amend", "ref": str(position), "reason": "misread", "roll": ["save=17"]}, "c-1"
    )
    assert fixed.status_code == 200, fixed.text
    missing = keep.client.get("/api/dice", params={"campaign": keep.campaign, "position": 999})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    bad = keep.client.get("/api/dice", params={"campaign": keep.campaign, "position": "x"})
    assert bad.status_code == 400 and "position=" in bad.json()["error"]["message"]
