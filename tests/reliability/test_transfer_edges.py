"""An import takes one campaign's events, resolves topics only among
chronicle's own classes, and requires the export's closing line; a failed `export -o` leaves the
older file as it was."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Run

from .edges import exported, refused, stored, story


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_a_whole_export_imports(run, tmp_path):
    lines = exported(tmp_path)
    assert json.loads(lines[-1])["closing"]["events"] == 3
    assert run.json("import", write(tmp_path / "whole.jsonl", lines))["events"] == 3
    assert run.json("verify")["ok"] is True


def test_a_file_cut_at_a_line_boundary_is_refused(run, tmp_path):
    lines = exported(tmp_path)
    refused(run("import", write(tmp_path / "cut.jsonl", lines[:-2])), 2, "no closing line")
    refused(run("import", write(tmp_path / "cut2.jsonl", lines[:-2] + lines[-1:])), 2, "not whole")
    assert stored(run.db) == 0


def test_events_of_another_campaign_are_refused(run, tmp_path):
    from chronicle.ledger.bulk.transfer import closing_line

    lines = exported(tmp_path)[:-1]
    other = Run(str(tmp_path / "other.db"))
    other("campaign", "new", "Lankhmar", "--system", "adnd2e")
    other("character", "add", "Fafhrd", "--stat", "hp=40")
    stranger = other("export").stdout.splitlines()[1]  # a character registered in another campaign
    mixed = [*lines, stranger]
    heads = {}
    for line in mixed:
        record = json.loads(line)
        from uuid import UUID

        heads[UUID(record["originator_id"])] = (record["originator_version"], record["state"]["hash"])
    refused(
        run("import", write(tmp_path / "mixed.jsonl", [*mixed, closing_line(heads).decode()])), 1, "another campaign"
    )
    refused(
        run(
            "import",
            write(
                tmp_path / "none.jsonl",
                [
                    stranger,
                    closing_line(
                        {
                            UUID(json.loads(stranger)["originator_id"]): heads[
                                UUID(json.loads(stranger)["originator_id"])
                            ]
                        }
                    ).decode(),
                ],
            ),
        ),
        1,
        "0 campaigns",
    )
    assert stored(run.db) == 0


def test_a_topic_naming_any_other_module_is_never_imported(run, tmp_path, capfd):
    lines = exported(tmp_path)
    record = json.loads(lines[2])
    record["topic"] = "this:s"  # importing `this` prints the Zen of Python
    lines[2] = json.dumps(record)
    result = run("import", write(tmp_path / "zen.jsonl", lines))
    refused(result, 2, "unknown topic")
    assert "Beautiful is better" not in result.output + capfd.readouterr().out
    assert stored(run.db) == 0


def test_a_failed_export_leaves_the_older_file_as_it_was(run, tmp_path):
    story(run)
    target = tmp_path / "table.jsonl"
    target.write_text("the older export\n")
    refused(run("--campaign", "Nowhere", "export", "-o", str(target)))
    assert target.read_text() == "the older export\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".table")] == []  # no temporary left


def test_unwritable_targets_are_one_line_of_bad_input(run, tmp_path):
    story(run)
    refused(run("export", "-o", "/dev/full"), 2, "No space left")
    refused(run("export", "-o", str(tmp_path / "no" / "such.jsonl")), 2, "does not exist")
    refused(run("report", "Bruno", "--html", "/dev/full"), 2, "No space left")
    refused(run("report", "Bruno", "--html", str(tmp_path / "no" / "such.html")), 2, "does not exist")
