""" "Previously on ...": `recap` tells per character what a session changed (wounds taken and healed,
Status, oaths and geasa, increases, who fell), then the notes; never a copy of the log."""

from __future__ import annotations

from test_people import played


def paragraph(recap: str, name: str) -> str:
    """The character's paragraph of a recap, on one line."""
    found = next(p for p in recap.split("\n\n") if p.startswith(f"{name} "))
    return " ".join(found.split())


def test_a_pendragon_session_told_per_character_not_event_by_event(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")
    recap = run_sqlite("recap").stdout
    assert recap.startswith('Previously on Sartar: session 1, "The temple"')
    assert paragraph(recap, "Vasana") == (
        "Vasana took a wound of 14 (a major wound), healed 9 hit points, gained 1,110 Status (now 1,110), "
        'swore and fulfilled the oath "avenge Orlanth\'s temple", swore and broke the oath "never yield the ford", '
        'took and broke the geas "never eat horse", rose in Valorous +1 (by Status) and Sword +1 (by '
        "experience) and acted on Harrek (1 event). At the session's end: hp 23/28, Status 1,110, a major wound"
        " (19 events)."
    )
    assert paragraph(recap, "Harrek").startswith(
        "Harrek took a wound of 40 (a major wound), died, was knocked down and acted on Vasana (5 events)."
    )
    assert "Harrek wounds Vasana" not in recap and "#18" not in recap  # the log tells the events
    assert recap.rstrip().endswith("`chronicle log --session 1` tells every event.")


def test_the_recap_document_holds_what_changed_as_data(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")
    data = run_sqlite.json("recap", "--session", "1")
    vasana, harrek = (next(c for c in data["characters"] if c["name"] == n) for n in ("Vasana", "Harrek"))
    changes = vasana["changes"]
    assert changes["taken"] == {"wounds": [14]} and changes["major"] == 1 and changes["healed"] == {"hp": 9}
    assert changes["status"] == {"from": 0, "to": 1110}
    assert [(v["kind"], v["state"], v["sworn"]) for v in changes["vows"]] == [
        ("oath", "fulfilled", True),
        ("oath", "broken", True),
        ("geas", "broken", True),
    ]
    assert [(i["what"], i["cause"]) for i in changes["increases"]] == [("valorous", "status"), ("sword", "experience")]
    assert vasana["before"] == "hp 28/28, Status 0" and len(vasana["events"]) == 18
    assert harrek["changes"]["fell"] == ["dead", "knocked_down", "needs_chirurgery", "major_wound"]  # identifiers


def test_a_potestas_session_tells_falls_and_healing_then_the_notes(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "potestas")
    recap = run_sqlite("recap").stdout
    brand = paragraph(recap, "Brand")
    assert brand.startswith(
        "Brand took 3 wounds, was disabled, fell dying and died. At the session's end: 3 wounds; dead"
    )
    assert paragraph(recap, "Ivanior").startswith(
        "Ivanior took 1 wound, healed 1 wound and acted on Brand (1 event). At the session's end: unhurt"
    )
    notes = recap.split("Notes:")[1]
    assert '#14 "The ogre fled north" (on Ivanior)' in notes
    assert "The ruling disable margin is now 5" in recap.split("For the whole campaign:")[1]


def test_an_adnd2e_session_counts_real_and_temporary_damage(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "adnd2e")
    recap = run_sqlite("recap").stdout
    assert paragraph(recap, "Guard").startswith(
        "Guard took 59 damage (53 real and 6 temporary), healed 6 hit points and died. At the session's end: -23/30 hp"
    )
    brute = "Brute fell asleep and acted on Guard (2 events). At the session's end: 40/40 hp"
    assert paragraph(recap, "Brute").startswith(brute)
    assert paragraph(recap, "Thief").startswith("Thief was held and acted on Guard (3 events).")
    refused = run_sqlite("recap", "--session", "2")
    assert refused.exit_code == 2 and "from 1 to 1" in refused.stderr


def test_a_character_that_joined_during_the_session_and_one_of_nothing(run_sqlite):
    for line in (
        ("campaign", "new", "Keep", "--system", "potestas"),
        ("character", "add", "Brand", "--stat", "fort=2"),
        ("session", "start", "Quiet"),
        ("session", "end"),
        ("session", "start", "Arrivals"),
        ("character", "add", "Kara", "--stat", "fort=3"),
        ("injure", "Kara", "--damage", "10", "--save-roll", "2"),
        ("roll", "1d20", "--for", "Brand"),
    ):
        assert run_sqlite(*line).exit_code == 0, line
    recap = run_sqlite("recap").stdout
    assert "(still running)" in recap.splitlines()[0]
    assert (
        paragraph(recap, "Kara")
        == "Kara joined the party, took 1 wound and was disabled. At the session's end: 1 wound; disabled (2 events)."
    )
    assert "Nothing that lasts changed for Brand. At the session's end: unhurt (1 event)." in " ".join(recap.split())
    kara = next(c for c in run_sqlite.json("recap")["characters"] if c["name"] == "Kara")
    assert kara["before"] is None and kara["changes"]["joined"]
    quiet = run_sqlite("recap", "--session", "1").stdout
    assert "Nothing happened to anyone." in quiet and "tells every event" not in quiet
