"""The table view over HTTP (Starlette's test client), on SQLite and PostgreSQL: every page, the
stream, read-only methods, escaping, pages as of an earlier event, and a ledger that cannot be read."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from chronicle.cli.web.app import build
from chronicle.cli.web.reading import Reading

HERE = Path(__file__).parent  # processes start here: the repository root's `chronicle/` is not the package
HOSTILE = "<script>alert(1)</script>"  # as tests/web/conftest.py names a character


def test_the_campaign_page_shows_the_party_the_status_race_and_open_oaths(table, client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page.text
    assert "Sartar" in page.text and "pendragon-pass" in page.text
    assert table.character_url(client, "Vasana") == "/c/Sartar/Vasana"
    assert "hp 28/28, Status 650" in page.text  # Vasana's condition at a glance
    leaders = page.text.split("Status leaders")[1]
    assert leaders.index("Vasana") < leaders.index("&lt;script&gt;")  # 650 before 0
    assert "swore" in page.text and "avenge the &lt;b&gt;temple&lt;/b&gt; &amp; &#34;Orlanth&#34;" in page.text


def test_a_character_page_has_condition_sheet_story_and_status_chart(table, client):
    page = client.get(table.character_url(client, "Vasana"))
    assert page.status_code == 200
    text = page.text
    assert "<h1>Vasana</h1>" in text
    assert "hp 28/28, Status 650" in text
    assert "<h2>Sheet</h2>" in text and "valorous 17" in text.lower()
    story = text.split("<h2>Story</h2>")[1]
    assert story.count("<li") == 3  # registered and two awards, newest first
    assert story.index("#5") < story.index("#4") < story.index("#2")
    chart = text.split("<svg")[1].split("</svg>")[0]
    assert "Status 600" in chart and "Status 650" in chart and "1,000" in chart


def test_an_unknown_character_is_a_page_saying_so(client):
    assert client.get("/character/00000000-0000-0000-0000-000000000000").status_code == 404
    assert client.get("/character/not-an-id").status_code == 404


def test_the_log_filters_by_character_and_kind(table, client):
    everything = client.get("/log").text
    assert everything.count("<tr class=") == 6  # the campaign, two characters, two awards, one oath
    only_vasana = client.get("/log", params={"character": "Vasana"}).text
    assert only_vasana.count("<tr class=") == 3
    awards = client.get("/log", params={"kind": "StatusAwarded"}).text
    assert awards.count('<tr class="StatusAwarded">') == 2 and "OathSworn" not in awards.split("<tbody>")[1]
    assert "No events match" in client.get("/log", params={"kind": "OathSworn", "character": "Vasana"}).text


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("path", ["/", "/log", "/events", "/character/x", "/static/table.css", "/nowhere"])
def test_every_write_is_refused(client, method, path):
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"


def test_names_reasons_and_oaths_are_text_never_markup(table, client):
    for path in ("/", table.character_url(client, HOSTILE), "/log"):
        page = client.get(path).text
        assert HOSTILE not in page and "<b>temple</b>" not in page and "<i>ford</i>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_any_page_can_be_seen_as_of_an_earlier_event(table, client):
    vasana = table.character_url(client, "Vasana")
    then = client.get(vasana, params={"as_of": "#4"}).text
    assert "hp 28/28, Status 600" in then and "Status 650" not in then.split("<h2>Story</h2>")[0]
    assert 'data-live="off"' in then and "right after event #4" in then
    assert client.get(vasana, params={"as_of": "4"}).text.count("Status 600") >= 1
    before_the_oath = client.get("/", params={"as_of": "#5"}).text
    assert "Status 650" in before_the_oath and "swore" not in before_the_oath
    assert "&lt;script&gt;" in before_the_oath  # registered by then
    party = client.get("/", params={"as_of": "#2"}).text.split('class="party"')[1].split("</ul>")[0]
    assert party.count("<li>") == 1 and "Vasana" in party  # the other was not registered yet
    assert client.get("/log", params={"as_of": "#3"}).text.count("<tr class=") == 3
    assert client.get(vasana, params={"as_of": "#nope"}).status_code == 400


def test_a_fragment_is_the_main_part_only(table, client):
    fragment = client.get(table.character_url(client, "Vasana"), params={"fragment": "1"}).text
    assert fragment.lstrip().startswith('<main id="live">') and "<head>" not in fragment


def test_the_stream_sends_each_event_appended_by_another_process_as_log_json_renders_it(table, client):
    appended: list[str] = []

    def game_master() -> None:
        time.sleep(0.5)  # after the client has connected
        appended.append(
            table.chronicle(
                "--json", "status", "award", "Vasana", "--amount", "7", "--reason", "a <i>fine</i> song"
            ).stdout
        )

    with client.stream("GET", "/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        elsewhere = threading.Thread(target=game_master)
        elsewhere.start()
        data = _first_data_line(stream, within=20)
    elsewhere.join()
    event = json.loads(data)
    logged = table.run.json("log", "Vasana")["events"][-1]
    assert event["id"] == json.loads(appended[0])["event"] == logged["id"]
    assert {k: event[k] for k in logged} == logged  # the shape and values of `log --json`, plus the campaign
    assert event["campaign"] == "Sartar" and event["character"] == "Vasana"


def test_a_ledger_that_cannot_be_read_is_an_error_page_and_one_line(tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database" * 100)
    said: list[str] = []
    with TestClient(build(Reading(str(broken)), said.append)) as client:
        pages = [client.get(path) for path in ("/", "/log", "/")]
    assert {page.status_code for page in pages} == {503}
    assert "cannot" in pages[0].text and "Traceback" not in pages[0].text
    assert len([line for line in said if "broken.db" in line]) == 1  # once, not once a request


def test_serve_says_where_and_stops_cleanly_on_ctrl_c(table):
    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", table.db, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
    )
    try:
        assert server.stdout is not None  # piped
        first = server.stdout.readline()
        assert "read-only at http://127.0.0.1:" in first
        address = first.split(" at ")[1].split()[0]
        assert "Vasana" in httpx.get(address, timeout=10).text
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=20)
    assert server.returncode == 0 and "Stopped." in out
    assert "Traceback" not in err and "every device" not in first + out


def test_serve_warns_once_when_the_whole_network_can_read(table):
    server = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", table.db, "serve", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
    )
    assert server.stdout is not None  # piped
    lines = [server.stdout.readline(), server.stdout.readline()]
    server.send_signal(signal.SIGINT)
    out, err = server.communicate(timeout=20)
    assert "every device on that network can read the campaign" in lines[1]
    assert (lines[0] + lines[1] + out).count("every device") == 1 and "Traceback" not in err


def test_serving_a_missing_file_is_bad_input_and_creates_nothing(tmp_path):
    missing = tmp_path / "nothing.db"
    done = subprocess.run(
        [sys.executable, "-m", "chronicle.cli", "--db", str(missing), "serve"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=HERE,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not Path(missing).exists()


def _first_data_line(stream, within: float) -> str:
    """The first `data:` line of an event stream (comments skipped), waiting at most `within` seconds."""
    deadline = time.monotonic() + within
    for line in stream.iter_lines():
        if line.startswith("data: "):
            return line[len("data: ") :]
        assert time.monotonic() < deadline, "no event arrived"
    raise AssertionError("the stream ended")


def test_the_session_being_played_is_on_the_campaign_page_and_filters_the_log(table, client):
    table.run.json("session", "start", "The <Sun> Dome")
    table.run.json("status", "award", "Vasana", "--amount", "5", "--reason", "a song")
    assert "Now playing session 1: The &lt;Sun&gt; Dome." in client.get("/").text
    table.run.json("session", "end")
    table.run.json("status", "award", "Vasana", "--amount", "6", "--reason", "after the session")
    first = client.get("/log", params={"session": "1"}).text.split("<tbody>")[1]
    assert first.count("<tr class=") == 3  # its start, the award, its end
    assert "a song" in first and "after the session" not in first
    assert "Now playing" not in client.get("/").text


# Pages people want ------------------------------------------------------------------------------


def _second_campaign(table) -> None:
    """A Potestas campaign beside Sartar, with Sartar chosen again as the current one."""
    table.run.json("campaign", "new", "Dragon Pass", "--system", "potestas")
    table.run.json("character", "add", "Ro")
    table.run.json("campaign", "use", "Sartar")


def test_each_campaign_has_a_readable_address_and_the_current_one_is_the_front_page(table, client):
    _second_campaign(table)
    front = client.get("/").text
    assert '<h1><a class="title" href="/c/Sartar">Sartar</a>' in front
    others = front.split('class="others"')[1]
    assert 'href="/c/Dragon%20Pass"' in others and "Vasana" not in others
    assert '<a href="/c/Sartar/log">Log</a>' in front  # the header's log is the current campaign's
    table.run.json("campaign", "use", "Dragon Pass")
    assert 'href="/c/Dragon%20Pass/Ro"' in client.get("/").text
    other = client.get("/c/dragon%20pass")  # matched without regard to case, as on the command line
    assert other.status_code == 200 and ">Ro</a>" in other.text and "Vasana" not in other.text.split("<main")[1]
    assert '<a href="/c/Dragon%20Pass/log">Log</a>' in other.text


def test_a_character_and_a_log_have_readable_addresses(table, client):
    page = client.get("/c/sartar/VASANA")
    assert page.status_code == 200 and "<h1>Vasana</h1>" in page.text
    assert '<a href="/c/Sartar/log">Log</a>' in page.text
    hostile = table.character_url(client, HOSTILE)  # a name holding a slash stays one segment
    assert hostile == "/c/Sartar/%3Cscript%3Ealert%281%29%3C%2Fscript%3E"
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in client.get(hostile).text
    log = client.get("/c/Sartar/log")
    assert log.status_code == 200 and log.text.count("<tr class=") == 6
    assert client.get("/log").text.count("<tr class=") == 6  # the old addresses still answer


def test_the_old_character_address_is_sent_on_to_the_readable_one(table, client):
    found = re.search(r'data-character="([0-9a-f-]+)"', client.get("/c/Sartar/Vasana").text)
    assert found is not None, "the page names its character's id"
    ident = found.group(1)
    old = client.get(f"/character/{ident}", params={"as_of": "#4"}, follow_redirects=False)
    assert old.status_code == 308 and old.headers["location"] == "/c/Sartar/Vasana?as_of=%234"
    assert "<h1>Vasana</h1>" in client.get(f"/character/{ident}").text


@pytest.mark.parametrize(
    "path, words",
    [
        ("/c/Nowhere", "no campaign named &#39;Nowhere&#39;"),
        ("/c/Sartar/Nobody", "no character named &#39;Nobody&#39;"),
        ("/c/Sartar/Vasana/more", "no page at that address"),
    ],
)
def test_an_unknown_name_is_a_404_page_in_words(client, path, words):
    page = client.get(path)
    assert page.status_code == 404 and words in page.text and "Traceback" not in page.text


def test_hit_points_and_wounds_are_bars_with_their_words_beside(table, client):
    _second_campaign(table)
    table.run.json("injure", "Vasana", "--damage", "6")
    front = client.get("/").text
    assert '<meter class="health health-hurt" min="0" max="28"' in front and 'value="22"' in front
    assert "hurt: 22 of 28 hit points left" in front
    page = client.get("/c/Sartar/Vasana").text
    assert "22 of 28 hit points" in page.split("<h2>Condition</h2>")[1].split("</section>")[0]
    potestas = client.get("/c/Dragon%20Pass").text
    assert '<meter class="health health-fit" min="0" max="4"' in potestas  # the wound ladder's rungs left
    assert "fit: 4 of 4 steps before death left" in potestas


def test_engine_words_are_shown_only_when_asked(table, client):
    page = client.get("/c/Sartar/Vasana").text.split("<main")[1]
    assert "version" not in page and not re.search(r"id [0-9a-f]{8}-", page)
    details = client.get("/c/Sartar/Vasana", params={"details": "1"}).text
    assert "version 3" in details and re.search(r"id [0-9a-f]{8}-", details)


def test_the_sheet_is_a_table_of_labels_and_values(client):
    sheet = client.get("/c/Sartar/Vasana").text.split("<h2>Sheet</h2>")[1].split("</table>")[0]
    assert '<table class="sheet">' in sheet
    assert '<tr><th scope="row">SIZ</th><td>15</td></tr>' in sheet
    assert '<tr><th scope="row">Valorous</th><td>17</td></tr>' in sheet
    assert sheet.count("<tr") > 26  # a row a trait, not one paragraph


def test_a_favicon_is_linked_and_served(client):
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").text
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.lstrip().startswith("<svg")


def _positions(page: str) -> list[int]:
    return [int(p) for p in re.findall(r'<tr class="[A-Za-z]+"><td><a [^>]*>(\d+)</a>', page)]


def test_the_log_is_newest_first_with_the_command_lines_filters(table, client):
    every = _positions(client.get("/c/Sartar/log").text)
    assert every == sorted(every, reverse=True) and len(every) == 6
    assert _positions(client.get("/c/Sartar/log", params={"character": "vasana"}).text) == [5, 4, 2]
    assert _positions(client.get("/c/Sartar/log", params={"tail": "2"}).text) == every[:2]
    assert _positions(client.get("/c/Sartar/log", params={"since": "#3", "until": "#5"}).text) == [5, 4, 3]
    table.run.json("session", "start", "The Dome")
    table.run.json("status", "award", "Vasana", "--amount", "5", "--reason", "a song")
    last = _positions(client.get("/c/Sartar/log", params={"session": "last"}).text)
    assert last == [8, 7]


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("tail", "many", "tail= takes"),
        ("tail", "0", "tail= takes"),
        ("session", "last", "no session yet"),
        ("session", "first", "session= takes"),
        ("character", "Nobody", "character= takes a character of Sartar"),
        ("since", "not a time", ""),
        ("until", "not a time", ""),
    ],
)
def test_a_bad_log_filter_is_a_400_page(table, client, name, value, words):
    page = client.get("/c/Sartar/log", params={name: value})
    assert page.status_code == 400, page.text[-300:]
    assert words in page.text and "Traceback" not in page.text
