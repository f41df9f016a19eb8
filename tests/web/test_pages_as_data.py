"""Every page answers `Accept: application/json` with the data it shows (the same query the page renders),
and its failures as the one failure path's `{"error": {"code", "message"}}`."""

from __future__ import annotations

HOSTILE = "<script>alert(1)</script>"  # as tests/web/conftest.py names a character, with an oath
OATH = 'avenge the <b>temple</b> & "Orlanth"'

JSON = {"Accept": "application/json"}


def test_the_campaign_page_as_data_names_its_party_leaders_and_oaths(client):
    answer = client.get("/c/Sartar", headers=JSON)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    campaign = answer.json()["campaign"]
    assert {row["name"] for row in campaign["characters"]} == {"Vasana", HOSTILE}
    assert campaign["leaders"][0]["name"] == "Vasana" and campaign["oaths"][0]["text"] == OATH
    assert client.get("/", headers=JSON).json()["campaign"]["name"] == "Sartar"
    assert "<html" in client.get("/c/Sartar").text.lower()  # (a browser's Accept still gets the page)


def test_a_character_page_as_data_gives_its_view_and_story(client):
    character = client.get("/c/Sartar/vasana", headers=JSON).json()["character"]
    assert character["name"] == "Vasana" and character["view"]["status"]["total"] > 0
    assert [row["text"] for row in character["story"]] and character["campaign"] == "Sartar"


def test_the_log_as_data_gives_its_events_and_filters(client):
    found = client.get("/c/Sartar/log?character=vasana", headers=JSON).json()
    assert found["filters"] == {"character": "Vasana"} and found["campaign"]["name"] == "Sartar"
    assert found["events"] and all(row["position"] for row in found["events"])


def test_a_page_not_there_as_data_is_a_failure_document(client):
    missing = client.get("/c/Sartar/Nobody", headers=JSON)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    bad = client.get("/c/Sartar/log?tail=x", headers=JSON)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_input"
    assert "tail=" in bad.json()["error"]["message"]
