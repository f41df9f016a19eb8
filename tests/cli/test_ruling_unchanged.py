"""`campaign rule` to the value already in force changes nothing: refused (exit 1), nothing written."""

from __future__ import annotations


def test_a_ruling_set_to_the_value_in_force_is_refused_and_not_written(run):
    run("campaign", "new", "Rules", "--system", "potestas")
    before = run.json("log")["events"]
    refused = run("campaign", "rule", "enhancement_to_hit=true", "--reason", "the default, said again")
    assert refused.exit_code == 1, refused.output
    assert refused.stderr.strip() == "Error: the ruling enhancement to hit is yes already: nothing to change"
    assert run.json("log")["events"] == before
    assert run("campaign", "rule", "enhancement_to_hit=false", "--reason", "house rule").exit_code == 0
    again = run("--json", "campaign", "rule", "enhancement_to_hit=no", "--reason", "said twice")
    assert again.exit_code == 1 and "is no already" in again.stderr
    assert len(run.json("log")["events"]) == len(before) + 1
