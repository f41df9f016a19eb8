"""An evening per system, command by command, then every reading command: no identifier in any human output
(no snake_case, no event class name, no repr), only sentences and the table's own words."""

from __future__ import annotations

import re
import shlex

import pytest
from campaign_scripts import CAMPAIGNS

from chronicle.domain import systems
from chronicle.domain.amendments import Amended
from chronicle.domain.campaign import SessionEnded, SessionStarted, WinterBegan
from chronicle.domain.growth import CharacterCast, NoteTaken, SheetChanged

SNAKE = re.compile(r"(?<![\w/.:-])[a-z]+(?:_[a-z0-9]+)+(?![\w/.-])")
REPR = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|<class |object at 0x")
# what people type stays as they typed it: a ruling's key in its own command, a skill named in a command line
TYPED = {"disable_margin", "experience_timing", "month_after_adventure", "loyalty_clan", "first_aid"}


def event_names(system: str) -> set[str]:
    common: list[type] = [Amended, SessionStarted, SessionEnded, WinterBegan, NoteTaken, SheetChanged, CharacterCast]
    return {event.__name__ for event in [*systems.get(system).EVENTS, *common]}


def identifiers(text: str, names: set[str]) -> list[str]:
    unquoted = re.sub(r'"[^"\n]*"', '""', text)  # the table's own words, quoted, are theirs
    found = [m.group(0) for m in SNAKE.finditer(unquoted) if m.group(0) not in TYPED]
    found += [m.group(0) for m in REPR.finditer(unquoted)]
    found += [name for name in names if re.search(rf"\b{name}\b", unquoted)]
    return found


def characters(script: str) -> list[str]:
    return [shlex.split(line)[2] for line in script.splitlines() if line.startswith("character add ")]


def corrections(run) -> list[tuple[str, str]]:
    """Each die of the evening's first three events that rolled any, corrected to another face (a correction
    that changes nothing is refused, in words too), then the last of them voided."""
    rolled = [e for e in run.json("log")["events"] if e.get("correctable")][:3]
    said = []
    for event in rolled:
        for die in event["correctable"]:
            faces = ",".join("2" if face == 1 else "1" for face in die["faces"])
            args = ["amend", str(event["position"]), "--roll", f"{die['roll']}={faces}", "--reason", "misread"]
            done = run(*args)
            assert done.exit_code in (0, 1), (args, done.stderr)
            said.append((" ".join(args), done.stdout + done.stderr))
    if rolled:
        args = ["amend", str(rolled[-1]["position"]), "--void", "--reason", "never happened"]
        done = run(*args)
        said.append((" ".join(args), done.stdout + done.stderr))
    return said


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_every_commands_human_output_across_an_evening_is_free_of_identifiers(run, system):
    script = CAMPAIGNS[system].replace("\\\n", "")
    names = event_names(system)
    said: list[tuple[str, str]] = []
    for line in script.strip().splitlines():
        done = run(*shlex.split(line))
        assert done.exit_code == 0, (line, done.stderr)
        said.append((line, done.stdout + done.stderr))
    said += corrections(run)
    reads = [["log"], ["recap"], ["campaign", "report"], ["character", "list"], ["session", "list"], ["verify"]]
    for name in characters(script):
        reads += [["log", name], ["report", name], ["character", "show", name]]
    for args in reads:
        done = run(*args)
        assert done.exit_code == 0, (args, done.stderr)
        said.append((" ".join(args), done.stdout + done.stderr))
    found = {line: identifiers(text, names) for line, text in said}
    assert {line: ids for line, ids in found.items() if ids} == {}
