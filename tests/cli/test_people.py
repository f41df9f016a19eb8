"""What people read: every event of every system told in sentences by `log` (who did what to whom, the
numbers, the result, the reason or oath given, a death), and no Python repr or `key=value` in any human
output of log, report, replay, amend, character show, recap or campaign report, nor any
identifier: a state, kind or event is said in words."""

from __future__ import annotations

import html
import re
import shlex

import pytest
from campaign_scripts import CAMPAIGNS

from chronicle.domain import systems

REPR = re.compile(r"\{'|\['|\bNone\b|=True|=False|=None|\w=\S")
# snake_case words (`needs_chirurgery`), class names (`CampaignChosen`; PenDragon is the system's name), `//`
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?!PenDragon\b)[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+\b|//")


def played(run, tmp_path, system: str) -> dict[str, str]:
    """The campaign of SYSTEM played as a batch; its events' sentences by type (all of each type, joined)."""
    script = tmp_path / f"{system}.batch"
    script.write_text(CAMPAIGNS[system].replace("\\\n", ""))
    done = run("batch", str(script))
    assert done.exit_code == 0, done.stderr
    told: dict[str, str] = {}
    for row in run.json("log")["events"]:
        told[row["type"]] = (told.get(row["type"], "") + " " + row["summary"]).strip()
    return told


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_every_event_type_of_the_system_is_told_in_its_own_words(run_sqlite, tmp_path, system):
    told = played(run_sqlite, tmp_path, system)
    own = {event.__name__ for event in systems.get(system).EVENTS}
    assert own <= set(told), f"the campaign leaves out {own - set(told)}"
    for kind, sentence in told.items():
        assert sentence.endswith((".", '."', ".”")), (kind, sentence)
        assert not REPR.search(sentence), (kind, sentence)
        spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).strip()
        assert f": {spaced}." not in sentence, f"{kind} falls back to its class name: {sentence}"


def test_potestas_sentences_name_both_parties_the_numbers_the_reasons_and_a_death(run_sqlite, tmp_path):
    told = played(run_sqlite, tmp_path, "potestas")
    assert "Ivanior attacks Brand with rapier" in told["Attacked"] and "Rolled 15 + 8 = 23" in told["Attacked"]
    assert "Damage reduction removes 1: 29 left" in told["Injured"] and "Fortitude save, DC 20" in told["Injured"]
    assert "Brand dies." in told["Injured"]
    assert "charged the ogre" in told["Exerted"] and "Brand is now dying" in told["Exerted"]
    assert "dying save" in told["DyingSaveMade"] and "failed by 7" in told["DyingSaveMade"]
    assert "fall of 30 ft" in told["Fell"] and "rests for 8 hours" in told["Rested"]
    assert '"spot the ambush"' in told["DiceRolled"] and '"The ogre fled north"' in told["NoteTaken"]
    assert '"house rule"' in told["RulingChanged"] and '"level 5"' in told["SheetChanged"]
    assert 'Session 1 began: "The ford"' in told["SessionStarted"]


def test_adnd2e_sentences_name_the_attacker_the_target_and_a_death(run_sqlite, tmp_path):
    told = played(run_sqlite, tmp_path, "adnd2e")
    assert "Thief tries to sap Guard with the club" in told["Attacked"]
    assert "Thief deals Guard 7 sap damage: 1 real (a quarter) and 6 temporary" in told["Injured"]
    assert "the d100 rolled 90: Guard is not knocked out" in told["Injured"]
    assert "Brute deals Guard 40 lethal damage" in told["Injured"] and "Guard dies." in told["Injured"]
    assert "Thief mugs Guard" in told["Mugged"] and "the d20 rolled 16" in told["Mugged"]
    assert "Brute grabs Thief" in told["Grabbed"] and "Thief breaks free" in told["HoldContested"]
    assert "Brute falls asleep" in told["StateChanged"] and "heals 6 temporary" in told["Rested"]


def test_pendragon_sentences_quote_oaths_geasa_reasons_and_name_healers_and_a_death(run_sqlite, tmp_path):
    told = played(run_sqlite, tmp_path, "pendragon-pass")
    assert "12 against 15" in told["Checked"] and "Harrek rolled 9" in told["Checked"]
    assert '"held the ford"' in told["StatusAwarded"] and "Rune Lord" in told["StatusAwarded"]
    assert "Valorous rises from 17 to 18" in told["IncreaseSpent"]
    assert '"avenge Orlanth\'s temple"' in told["OathSworn"] and "oath-1" in told["OathFulfilled"]
    assert "Honor falls by 1" in told["OathBroken"]
    assert '"never eat horse"' in told["GeasTaken"] and "geas-1" in told["GeasBroken"]
    assert '"leaps the wall of shields"' in told["FeatAttempted"] and "great blow" in told["TacticResolved"]
    assert "Harrek wounds Vasana" in told["Injured"] and "Vasana wounds Harrek" in told["Injured"]
    assert "Harrek has -14 hit points and dies" in told["Injured"]
    assert "Harrek gives Vasana First Aid" in told["FirstAidGiven"]
    assert "Harrek performs Chirurgery on Vasana" in told["ChirurgeryPerformed"]
    assert "Magic heals 3" in told["MagicallyHealed"] and "2 full weeks of rest" in told["Rested"]
    assert "Sword rolled 17" in told["ExperienceRolled"] and "1621" in told["WinterResolved"]
    assert "Winter began in the year 1621" in told["WinterBegan"]


AMENDS = {
    "potestas": ("#6", "--set", "damage=8"),
    "adnd2e": ("#7", "--set", "damage=5"),
    "pendragon-pass": ("#24", "--set", "damage=10"),
}
REPLAYS = {
    "potestas": "disable_margin=5",
    "adnd2e": "death_at=-10",
    "pendragon-pass": "unconscious_threshold=below_quarter",
}


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_no_human_output_holds_a_python_repr_or_a_field_dump(run_sqlite, tmp_path, system):
    told = played(run_sqlite, tmp_path, system)
    assert told
    amended = run_sqlite("amend", *AMENDS[system], "--reason", "the die was misread")
    assert amended.exit_code == 0, amended.stderr
    assert "the die was misread" in amended.stdout
    names = [c["name"] for c in run_sqlite.json("character", "list")["characters"]]
    outputs = {"amend": amended}
    for args in (
        ("log",),
        ("log", "--session", "last"),
        ("log", "--tail", "3"),
        ("recap",),
        ("recap", "--session", "1"),
        ("replay", "--ruling", REPLAYS[system]),
        ("campaign", "report"),
        *(("report", name) for name in names),
        *(("character", "show", name) for name in names),
        *(("character", "show", name, "--as-of", "#5") for name in names[:1]),
    ):
        outputs[" ".join(args)] = run_sqlite(*args)
    for command, result in outputs.items():
        assert result.exit_code == 0, (command, result.stderr)
        assert result.stdout.strip(), command
        found = REPR.search(result.stdout)
        assert found is None, f"{command}: {found.group(0)!r} in\n{result.stdout}"


def test_a_replay_tells_each_changed_event_as_recorded_and_as_replayed(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "potestas")
    said = run_sqlite("replay", "Ivanior", "--ruling", "disable_margin=5").stdout
    assert said.startswith("Replayed under the ruling disable margin 5 (nothing written).")
    assert "Ivanior, #11:" in said and "rests" not in said  # the rest healed the same under either ruling
    recorded, replayed = said.split("Recorded: ")[1].split("Replayed: ")
    assert "failed by 6. Ivanior takes a wound. Ivanior is standing" in " ".join(recorded.split())
    assert "Ivanior is now disabled." in " ".join(replayed.split())
    assert said.rstrip().endswith("Ivanior ends unhurt.")


def test_character_show_is_the_sheet_a_player_of_the_system_reads(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")
    sheet = run_sqlite("character", "show", "vasana").stdout
    assert sheet.startswith("Vasana (PenDragon Pass, version")
    for line in (
        "Traits: Chaste 10 / Lustful 10",
        "Valorous* 18 / Cowardly 2",
        "Passions: Loyalty (clan) 16",
        "Skills: Sword 16",
        "more earns the next increase",
        "Honours: Rune Lord",
        "Oaths:",
        "Geasa:",
        "never eat horse",
    ):
        assert line in sheet, line
    show = run_sqlite.json("character", "show", "Vasana")
    assert show["sheet"]["skills"]["sword"] == 16 and "status" in show  # the JSON stays the contract's


@pytest.mark.parametrize("system", sorted(CAMPAIGNS))
def test_no_human_output_names_a_state_kind_or_event_by_its_identifier(run_sqlite, tmp_path, system):
    """Every command's reply as the campaign is played line by line (its Condition line too), then every
    reading of it: log, recap, reports (the HTML page's text too), character show and list, amend."""
    outputs = {}
    for line in CAMPAIGNS[system].replace("\\\n", "").strip().splitlines():
        done = run_sqlite(*shlex.split(line))
        assert done.exit_code == 0, (line, done.stderr)
        outputs[line] = done.stdout
    assert "Condition: " in "".join(outputs.values())
    names = [c["name"] for c in run_sqlite.json("character", "list")["characters"]]
    outputs["amend"] = run_sqlite("amend", *AMENDS[system], "--reason", "the die was misread").stdout
    for args in (
        ("log",),
        ("recap",),
        ("campaign", "report"),
        ("character", "list"),
        *(("report", name) for name in names),
        *(("character", "show", name) for name in names),
    ):
        done = run_sqlite(*args)
        assert done.exit_code == 0, (args, done.stderr)
        outputs[" ".join(args)] = done.stdout
    for name in names:
        page = tmp_path / f"{name}.html"
        assert run_sqlite("report", name, "--html", str(page)).exit_code == 0
        outputs[f"report {name} --html"] = html.unescape(
            re.sub(r"<style>.*?</style>|<[^>]+>", " ", page.read_text(), flags=re.S)
        )
    for command, text in outputs.items():
        assert text.strip(), command
        found = IDENTIFIER.search(text)
        assert found is None, f"{command}: {found.group(0)!r} in\n{text}"


def test_a_correction_tells_what_it_changed_in_sentences_not_a_run_of_fields(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")
    amended = run_sqlite("amend", *AMENDS["pendragon-pass"], "--reason", "the die was misread").stdout
    first = amended.splitlines()[0]
    assert first == (
        'Corrected #24 (Harrek) with damage 10: "the die was misread". It changed #24: damage from 40 to 10, '
        "dead from yes to no, hp from -14 to 16, knockdown from yes to no and major from yes to no."
    )
    assert "->" not in first


def test_campaign_report_lists_only_open_oaths_as_open(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")  # oath-1 fulfilled, oath-2 broken, geas-1 broken
    assert run_sqlite("oath", "swear", "Vasana", "guard the gate").exit_code == 0
    assert run_sqlite("geas", "take", "Vasana", "never lie").exit_code == 0
    report = run_sqlite.json("campaign", "report")
    assert [o["text"] for o in report["open_oaths"]] == ["guard the gate"]
    assert [g["text"] for g in report["open_geasa"]] == ["never lie"]
    closed = {(c["kind"], c["text"], c["state"]) for c in report["closed_oaths"]}
    assert closed == {
        ("oath", "avenge Orlanth's temple", "fulfilled"),
        ("oath", "never yield the ford", "broken"),
        ("geas", "never eat horse", "broken"),
    }
    told = run_sqlite("campaign", "report").stdout
    opened = told.split("Open oaths and geasa")[1]
    assert "guard the gate" in opened and "never lie" in opened
    assert "never yield the ford" not in told and "avenge" not in told and "never eat horse" not in told


def test_campaign_show_and_report_name_the_system_by_its_title_and_status_with_separators(run_sqlite, tmp_path):
    played(run_sqlite, tmp_path, "pendragon-pass")
    report = run_sqlite("campaign", "report").stdout
    assert report.startswith("Sartar (PenDragon Pass)") and "1,144" in report and "pendragon-pass" not in report
    assert "Sartar (PenDragon Pass)" in run_sqlite("campaign", "show").stdout
