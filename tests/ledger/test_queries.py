"""Every reading command is a query the application layer answers (`Ledger.ask`), with the reply a command
gives: the same JSON document as the command's `--json`, and the text people read, on both databases. A
query read from a document (an assistant's arguments) is validated as a command's is."""

from __future__ import annotations

from typing import Any

import pytest

from chronicle.domain.errors import BadInput, NotFound
from chronicle.ledger.application import queries
from chronicle.ledger.application.ledger import Ledger
from chronicle.ledger.application.queries import (
    CampaignList,
    CampaignReport,
    CampaignShow,
    CharacterList,
    CharacterShow,
    CurrentCampaign,
    Log,
    ParticipantList,
    Recap,
    Report,
    SessionList,
    Verify,
    WhatIf,
)
from chronicle.ledger.application.reply import Reply


@pytest.fixture
def table(run):
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("session", "start", "The moathouse")
    run.json("character", "add", "Brand", "--stat", "fort=3")
    run.json("character", "add", "Aric", "--stat", "fort=5")
    run.json("injure", "Brand", "--damage", "12", "--save-roll", "9")
    run.json("note", "the moathouse is empty", "--for", "Brand")
    run.json("session", "end")
    return run


ASKED = [
    (CharacterShow(name="Brand"), ("character", "show", "Brand")),
    (CharacterShow(name="brand", as_of="#3"), ("character", "show", "brand", "--as-of", "#3")),
    (CharacterList(), ("character", "list")),
    (Log(), ("log",)),
    (Log(name="Brand", tail=1), ("log", "Brand", "--tail", "1")),
    (Log(session="last"), ("log", "--session", "last")),
    (CampaignShow(), ("campaign", "show")),
    (CampaignList(archived=True), ("campaign", "list", "--all")),
    (CampaignReport(), ("campaign", "report")),
    (SessionList(), ("session", "list")),
    (ParticipantList(), ("participant", "list")),
    (Recap(session=1), ("recap", "--session", "1")),
    (Report(name="Brand"), ("report", "Brand")),
    (WhatIf(ruling=("disable_margin=8",)), ("replay", "--ruling", "disable_margin=8")),
]


@pytest.mark.parametrize(("query", "command"), ASKED, ids=[" ".join(c) for _, c in ASKED])
def test_a_query_answers_what_its_command_prints(table, query, command):
    ledger = Ledger(table.db, by="gm")
    try:
        reply = ledger.ask(query)
        assert isinstance(reply, Reply)
        assert reply.document == table.json(*command)
        assert reply.text and "{" not in reply.text.split("\n")[0]  # sentences, not a document
        assert reply.text == ledger.ask(query).text  # asked again: the same
    finally:
        ledger.close()


def test_verify_is_a_query_whose_report_is_the_commands(table):
    ledger = Ledger(table.db, by="gm")
    try:
        report = ledger.ask(Verify(require_signatures=True)).document
    finally:
        ledger.close()
    assert report["ok"] and report == table.json("verify", "--require-signatures")


def test_the_current_campaign_is_named_with_its_system(table):
    table.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    ledger = Ledger(table.db, by="gm")
    try:
        assert ledger.ask(CurrentCampaign()).document["system"] == "pendragon-pass"
        ledger.campaign = "greyhawk"  # as typed: matched without regard to case
        assert ledger.ask(CurrentCampaign()).document["name"] == "Greyhawk"
    finally:
        ledger.close()


def test_an_unknown_name_is_the_same_refusal_as_on_the_command_line(table):
    ledger = Ledger(table.db, by="gm")
    try:
        with pytest.raises(NotFound, match="did you mean 'Brand'"):
            ledger.ask(CharacterShow(name="Brnad"))
    finally:
        ledger.close()
    failed = table("--json", "character", "show", "Brnad")
    assert failed.exit_code == 2 and "did you mean 'Brand'" in failed.stderr


def test_a_query_document_is_read_strictly_and_names_what_does_not_fit():
    assert queries.parse({"query": "log", "name": "Brand", "tail": 3}) == Log(name="Brand", tail=3)
    assert queries.parse({"session": 2}, "recap") == Recap(session=2)
    refused: list[tuple[dict[str, Any], str]] = [
        ({"query": "log", "tail": "3"}, "'tail'"),  # a number is a number
        ({"query": "log", "tail": -1}, "'tail'"),
        ({"query": "log", "colour": "red"}, "unknown key 'colour'"),
        ({"query": "log", "data": False}, "unknown key 'data'"),  # the caller's own choice, never a document's
        ({"query": "character show"}, "'name' is required"),
        ({"query": "charcter show"}, "did you mean 'character show'"),
        ({"name": "Brand"}, "names its query"),
    ]
    for document, said in refused:
        with pytest.raises(BadInput, match=said):
            queries.parse(document)


def test_every_query_has_a_schema_without_the_callers_own_fields():
    for model in queries.models():
        name = model.query
        schema = queries.schema_of(model)
        assert schema["type"] == "object" and schema["description"], name
        assert not queries.callers(model) & set(schema["properties"]), name
        described = queries.described(model)
        assert all(described[key] for key in schema["properties"]), name  # every field says what it means
    assert "data" not in queries.schema_of(Log)["properties"]
    assert set(queries.schema_of(Verify)["properties"]) == {"require_signatures"}


def test_the_catalogue_names_each_query_by_its_models_name_and_loads_none_of_them():
    import subprocess
    import sys

    assert all(queries.model_for(name).query == name for name in queries.CATALOGUE)
    assert queries.COMMAND_LINES <= set(queries.CATALOGUE)
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, chronicle.ledger.application.queries; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "chronicle.ledger.application.queries.log" not in loaded and "eventsourcing" not in loaded


def test_a_query_is_data_a_document_round_trips():
    asked = WhatIf(name="Brand", ruling=("disable_margin=8",))
    assert asked.document() == {"query": "replay", "name": "Brand", "ruling": ["disable_margin=8"]}
    assert queries.parse(asked.document()) == asked
