"""A page's query parameters are input like any other, on SQLite and PostgreSQL: a number
that is not one (a superscript digit, 10^30, a NUL, a wildcard) is a 400 page saying what the parameter
takes, never a 500 or a 503, and the terminal stays quiet."""

from __future__ import annotations

import pytest

BAD = {
    "before": ["²", "٣", "1" + "0" * 30, "-5", "0", "1.5", "x", "\x00"],
    "session": ["²", "1" + "0" * 30, "0", "one", "\x00"],
    "kind": ["%", "Status%", "\x00", "NoSuchEvent"],
    "as_of": ["²", "#²", "#" + "9" * 5000, "9" * 30, "\x00", "not a time"],
}


@pytest.mark.parametrize("name, value", [(name, value) for name, values in BAD.items() for value in values])
def test_a_bad_log_parameter_is_a_400_saying_what_it_takes(table, client, name, value):
    page = client.get("/log", params={name: value})
    assert page.status_code == 400, page.text[-400:]
    assert "Traceback" not in page.text and "Something went wrong" not in page.text
    if name in ("before", "session", "kind"):
        assert f"{name}= takes" in page.text
    assert not [line for line in table.said if line.startswith(("error on", "cannot read"))], table.said


@pytest.mark.parametrize("value", BAD["as_of"])
def test_a_bad_as_of_is_a_400_on_every_page(table, client, value):
    for path in ("/", table.character_url(client, "Vasana")):
        assert client.get(path, params={"as_of": value}).status_code == 400
    assert not [line for line in table.said if line.startswith(("error on", "cannot read"))], table.said


def test_good_parameters_still_filter(table, client):
    assert client.get("/log", params={"before": "3"}).text.count("<tr class=") == 2
    assert client.get("/log", params={"before": "", "session": "", "kind": ""}).status_code == 200
    assert client.get("/log", params={"kind": "StatusAwarded"}).text.count('<tr class="StatusAwarded">') == 2
    assert client.get("/log", params={"before": str(2**63 - 1)}).status_code == 200
