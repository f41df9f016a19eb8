"""The Status series and the wounds that `report` and the character page show are the changes read model's
rows: after every kind of event that moves Status or the condition (awards, an increase, an oath fulfilled,
a geas broken, wounds, First Aid, a sheet change, a voided award) they equal a fold of the character's own
events, on SQLite and PostgreSQL, and a second process reading them later folds only what is new."""

from __future__ import annotations

from typing import Any

from chronicle.domain import systems
from chronicle.ledger.application.session import Session
from chronicle.ledger.application.views.history import decoded, notifications_at
from chronicle.ledger.store.chronicle import open_ledger
from chronicle.projections.changes import Changes
from chronicle.projections.queries import condition_changes, status_series


def play(run) -> None:
    run.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "valorous=17")
    run.json("character", "add", "Harrek", "--stat", "siz=18", "--stat", "con=16")
    run.json("status", "award", "Vasana", "--honour", "rune-lord")
    run.json("status", "award", "Vasana", "--amount", "400", "--reason", "held the ford")
    run.json("roll", "1d20", "--for", "Vasana")
    run.json("increase", "Vasana", "valorous")
    run.json("oath", "swear", "Vasana", "avenge the temple")
    run.json("oath", "fulfil", "Vasana", "avenge the temple", "--status", "150")
    run.json("geas", "take", "Vasana", "never eat goose")
    run.json("injure", "Vasana", "--damage", "9", "--attacker", "Trollkin")
    run.json("status", "award", "Harrek", "--amount", "70", "--reason", "a song")
    run.json("first-aid", "Vasana", "1")
    run.json("geas", "break", "Vasana", "never eat goose")
    run.json("character", "set", "Vasana", "con=18", "--reason", "a blessing")
    run.json("status", "award", "Vasana", "--amount", "20", "--reason", "a boast")
    last = run.json("log", "Vasana")["events"][-1]["position"]
    run.json("amend", f"#{last}", "--void", "--reason", "nobody heard it")


def folded(db: str, name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One fold of the character's events, as the report made them before the changes model (its `before`
    then was the summary after the last change of condition; now it is the one right before the event)."""
    app = open_ledger(db)
    try:
        session = Session(app, None, "test")
        ident = session.character_id(name)
        rules = systems.get(session.campaign.system)
        positions = app.index.log(session.campaign.id, ident)
        events = [(n.id, decoded(app, n)) for n in notifications_at(app, positions)]
    finally:
        app.close()
    character = events[0][1].mutate(None)
    series, health = [], []
    last, spent, shown = 0, 0, rules.view(character.sheet, character.condition)
    before = rules.summary(character.sheet, character.condition)
    for at, event in events[1:]:
        event.mutate(character)
        now, after = (
            rules.view(character.sheet, character.condition),
            rules.summary(character.sheet, character.condition),
        )
        if now["condition"] != shown["condition"]:
            health.append({"position": at, "type": type(event).__name__, "before": before, "after": after})
        shown, before, status = now, after, now["status"]
        if status["total"] != last or status["increases_spent"] != spent:
            more = status["increases_spent"] > spent
            series.append({"position": at, "type": type(event).__name__, "total": status["total"], "spent": more})
            last, spent = status["total"], status["increases_spent"]
    return series, health


def rows(db: str, name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    app = open_ledger(db)
    try:
        ident = Session(app, None, "test").character_id(name)
        Changes(app.views, app.feed).catch_up()
        keep = ("position", "type", "total", "spent")
        series = [{k: p[k] for k in keep} for p in status_series(app.views, ident)]
        health = [
            {k: c[k] for k in ("position", "type", "before", "after")} for c in condition_changes(app.views, ident)
        ]
    finally:
        app.close()
    return series, health


def test_the_rows_are_what_a_fold_of_the_events_finds(run):
    play(run)
    for name in ("Vasana", "Harrek"):
        assert rows(run.db, name) == folded(run.db, name)
    series, health = rows(run.db, "Vasana")
    assert [p["total"] for p in series] == [600, 1000, 1000, 1150, 1160, 1180, 1160]
    assert [p["type"] for p in series][-1] == "Amended" and sum(p["spent"] for p in series) == 1
    assert [c["type"] for c in health] == ["Injured", "FirstAidGiven", "SheetChanged"]


def test_a_reader_catches_up_from_where_another_left_the_rows(run):
    play(run)
    assert rows(run.db, "Vasana")[0][-1]["total"] == 1160  # folded up to here by one process
    run.json("status", "award", "Vasana", "--amount", "40", "--reason", "a feast")
    run.json("injure", "Vasana", "--damage", "3")
    assert rows(run.db, "Vasana") == folded(run.db, "Vasana")  # and on by another, from its stored states


def test_the_report_reads_the_rows(run):
    play(run)
    report = run.json("report", "Vasana")
    series, health = folded(run.db, "Vasana")
    assert [(p["position"], p["total"], p["spent"]) for p in report["status"]] == [
        (p["position"], p["total"], p["spent"]) for p in series
    ]
    assert [(c["position"], c["after"]) for c in report["health"]] == [(c["position"], c["after"]) for c in health]
    assert report["status"][0]["summary"].startswith("Vasana") and report["status"][0]["local_time"]
