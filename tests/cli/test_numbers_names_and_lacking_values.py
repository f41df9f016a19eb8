"""As a table types them: digits in free text are text while every
number read as one is held to 64 bits (batch lines too), and a sheet that lacks a value is named."""

import json

import pytest
from test_corrections import orc, table
from test_pendragon import events, fails, glorantha

TWO_TO_64 = "18446744073709551616"  # one past the largest unsigned 64-bit number: beyond the signed limit too
LIMIT = "is beyond the 64-bit limit (-9,223,372,036,854,775,808 to 9,223,372,036,854,775,807)"


def potestas(run):
    run.json("campaign", "new", "Greyhawk", "--system", "potestas")
    run.json("character", "add", "Aric", "--stat", "fort=5", "--stat", "dr=2")
    return run


def one_line(result, code):
    assert result.exit_code == code, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_a_note_made_of_digits_is_text(run):
    potestas(run)
    noted = run.json("note", TWO_TO_64)
    assert noted["text"] == TWO_TO_64
    assert run.json("note", "9" * 30, "--for", "Aric")["text"] == "9" * 30
    told = [event["summary"] for event in events(run)[-2:]]
    assert told == [f'A note on the campaign: "{TWO_TO_64}".', f'A note on Aric: "{"9" * 30}".']


def test_a_character_or_session_named_with_digits_is_a_name(run_sqlite):
    run = potestas(run_sqlite)
    assert run.json("character", "add", TWO_TO_64, "--stat", "fort=1")["name"] == TWO_TO_64
    assert run("session", "start", TWO_TO_64).exit_code == 0


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("injure", "Aric", "--damage", TWO_TO_64), "--damage '18446744073709551616'"),
        (("injure", "Aric", "--damage", "5", "--save-roll", "-" + TWO_TO_64), "--save-roll '-18446744073709551616'"),
        (("rest", "Aric", "--hours", "9" * 5000), "--hours '9999999999"),  # counted, never converted
        (("fall", "Aric", "--feet", "9223372036854775808"), "--feet '9223372036854775808'"),
        (("log", "--tail", "1" + "0" * 30), "--tail '1000000000000000000000000000000'"),
        (("character", "add", "Bo", "--stat", f"dr={TWO_TO_64}/silver"), "damage reduction"),
        (("character", "add", "Bo", "--stat", f"dr={TWO_TO_64}"), "damage reduction"),
        (("character", "set", "Aric", f"fort={TWO_TO_64}", "--reason", "x"), "stat fort"),
        (("character", "add", "Bo", "--stat", "fort=-" + "9" * 5000), "stat fort"),  # counted, never converted
        (("campaign", "rule", f"disable_margin={TWO_TO_64}", "--reason", "x"), "ruling disable_margin"),
        (("replay", "--ruling", f"disable_margin={TWO_TO_64}"), "ruling disable_margin"),
    ],
)
def test_a_number_beyond_64_bits_is_one_line_of_bad_input_naming_where_and_writes_nothing(run_sqlite, args, named):
    run = potestas(run_sqlite)
    before = len(events(run))
    line = one_line(run(*args), 2)
    assert named in line and LIMIT in line, line
    assert len(events(run)) == before
    refused = run("--json", *args)
    assert refused.exit_code == 2 and json.loads(refused.stderr)["error"]["code"] == "bad_input"


def test_the_largest_64_bit_number_is_still_taken_where_a_number_is_read(run_sqlite):
    run = potestas(run_sqlite)
    assert len(run.json("log", "--tail", "9223372036854775807")["events"]) == 2
    assert len(run.json("log", "--tail", "0" * 5000 + "1")["events"]) == 1  # leading zeros: neither counted nor read
    assert run("character", "add", "Wall", "--stat", "dr=9223372036854775807/adamantine").exit_code == 0


def test_a_batch_line_holds_its_numbers_to_64_bits_and_its_text_to_nothing(run):
    potestas(run)
    before = len(events(run))
    refused = run("batch", "-", input=f"note {TWO_TO_64}\nlog --tail {'1' + '0' * 30}\n")
    line = one_line(refused, 2)
    assert line.startswith("Error: line 2: --tail '1000000000000000000000000000000'") and LIMIT in line
    assert len(events(run)) == before  # the note of line 1 is not written either
    done = run.json("batch", "-", input=f"note {TWO_TO_64}\nroll 1d6 --roll 4\n")
    assert (done["lines"], done["events"]) == (2, 2)


# a sheet that lacks a value: whose, what, and the nearest it has (PenDragon Pass) -----------------------


def test_check_names_whose_sheet_lacks_the_skill_and_the_nearest_it_has(run_sqlite):
    run = glorantha(run_sqlite)  # Vasana has sword 15, Harrek sword 14 and spear 13
    error = fails(run, 2, "check", "Vasana", "swrd", "--roll", "3")
    assert error == {"code": "not_found", "message": "Vasana's sheet has no skill 'swrd': did you mean 'sword'?"}
    said = fails(run, 2, "check", "Vasana", "sword", "--roll", "3", "--opposed-by", "Harrek:spaer")["message"]
    assert said == "Harrek's sheet has no skill 'spaer': did you mean 'spear'?"
    said = fails(run, 2, "check", "Harrek", "valorus", "--roll", "3")["message"]
    assert said == "Harrek's sheet has no trait 'valorus': did you mean 'valorous'?"
    human = one_line(run("check", "Harrek", "weaving", "--roll", "3"), 2)
    assert human == "Error: Harrek's sheet has no skill 'weaving'"


def test_chirurgery_and_first_aid_name_the_healer_whose_sheet_lacks_the_skill(run_sqlite):
    run = glorantha(run_sqlite)
    run.json("character", "add", "Healer", "--stat", "chirurgery=14", "--stat", "first_aid=13")
    run.json("injure", "Vasana", "--damage", "13", "--attacker", "Harrek")  # a major wound: needs Chirurgery
    said = fails(run, 2, "chirurgery", "Vasana", "--healer", "Harrek", "--roll", "3")["message"]
    assert said == "Harrek's sheet has no skill 'chirurgery'"
    said = fails(run, 2, "first-aid", "Vasana", "1", "--healer", "Harrek", "--roll", "3")["message"]
    assert said == "Harrek's sheet has no skill 'first_aid'"
    assert run.json("chirurgery", "Vasana", "--healer", "Healer", "--roll", "9")["treated"] is True


def test_amend_set_names_whose_sheet_lacks_the_corrected_name(run_sqlite):
    run = glorantha(run_sqlite)
    run.json("check", "Harrek", "spear", "--roll", "5")
    position = events(run)[-1]["position"]
    said = fails(run, 2, "amend", f"#{position}", "--set", "what=sper", "--reason", "misheard")["message"]
    assert said == "Harrek's sheet has no skill 'sper': did you mean 'spear'?"
    said = fails(run, 2, "amend", f"#{position}", "--set", "what=bow", "--reason", "misheard")["message"]
    assert said == "Harrek's sheet has no skill 'bow'"
    corrected = run.json("amend", f"#{position}", "--set", "what=sword", "--reason", "misheard")
    assert corrected["position"] == position


def _params(command):
    yield from command.params
    for sub in getattr(command, "commands", {}).values():
        yield from _params(sub)


def test_every_whole_number_a_command_parses_is_held_to_64_bits():
    """Commands are loaded through cli/complete.wire, which gives each `int` and `IntRange` parameter its
    64-bit type: a command written with Click's own types needs nothing more, and none escapes it."""
    import click

    from chronicle.cli.dispatch import system_command
    from chronicle.cli.main import COMMANDS, _load
    from chronicle.cli.options import Int64, Int64Range
    from chronicle.domain.systems import PACKAGES

    loaded = [_load(target) for target in COMMANDS.values()]
    for package in PACKAGES.values():
        for name in ("injure", "rest", "attack"):
            if (command := system_command(package, name)) is not None:
                loaded.append(command)
    whole = {
        (command.name, param.name): param.type
        for command in loaded
        if command is not None
        for param in _params(command)
        if isinstance(param.type, click.types.IntParamType)
    }
    assert ("log", "tail") in whole and ("injure", "damage") in whole and ("verify", "workers") in whole
    assert [where for where, kind in whole.items() if not isinstance(kind, (Int64, Int64Range))] == []


# corrections that add up: a miss after the hit's own dice were corrected ------------------------------


def test_an_attack_corrected_to_a_miss_after_its_hits_dice_were_corrected_is_taken_not_refused(run):
    # Kara's 15 hits Orc (defence 0: 10); 6 + 6 = 12 damage, DC 17; save 5 + 1 = 6 fails by 11: disabled
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")
    attack = f"#{at['attack']}"
    # the hit's dice, corrected: 1 + 1 = 2 damage, DC 15; save 14 + 1 = 15 succeeds: no wound
    run.json("amend", attack, "--roll", "damage:1:1=1,1", "--save-roll", "14", "--reason", "misread")
    assert orc(run)["wounds"] == 0
    # the attack's die, corrected to 2: a miss. The dice corrected before are not this correction's to refuse
    missed = run.json("amend", attack, "--roll", "attack=2", "--reason", "the die showed 2")
    changes = {(c["position"], c["field"]): (c["recorded"], c["replayed"]) for c in missed["changes"]}
    assert changes[(at["attack"], "hit")] == (True, False) and changes[(at["hit 1"], "counts")] == (True, False)
    assert run.json("verify")["ok"] is True
    # and back to a hit: the hit returns with the dice corrected before (DC 15, save 15: no wound)
    run.json("amend", attack, "--roll", "attack=15", "--reason", "it was 15 after all")
    assert orc(run)["wounds"] == 0 and orc(run)["states"] == []
    assert run.json("verify")["ok"] is True
    # a die this correction gives and nothing draws is still refused, naming it
    said = fails(run, 2, "amend", attack, "--roll", "attack=2", "--roll", "damage:1:1=6,6", "--reason", "x")["message"]
    assert said == f"{attack} rolls no 'damage:1:1' die: the dice it rolls are attack"


# the log tells a correction by log positions too, whichever way it reads it ----------------------------


def test_the_log_tells_a_correction_by_log_positions_never_an_aggregate_version(run, tmp_path):
    at = table(run, "--roll", "15", "--dice", "6,6", "--save-roll", "5")  # Orc: registered, the attack, its hit
    attack, hit = at["attack"], at["hit 1"]
    run.json("amend", f"#{attack}", "--roll", "attack=2", "--reason", "the die showed 2")
    said = f'A correction decides Orc\'s event at #{attack} again with the attack roll 2: "the die showed 2".'
    gone = f"#{hit}: no longer counts."
    people = run("log", "--tail", "1").stdout  # from the sentences the command kept
    assert said in people and gone in " ".join(people.split()) and "event 2" not in people
    told = run.json("log", "--tail", "1")["events"][0]["summary"]  # from the event itself
    assert told.startswith(said) and told.endswith(gone)
    # a correction in a batch, and the ledger exported and imported: the same sentences
    run.json("batch", "-", input=f"amend '#{attack}' --roll attack=19 --reason 'it was 19'\n")
    again = run.json("log", "--tail", "1")["events"][0]["summary"]
    assert again.startswith(f"A correction decides Orc's event at #{attack} again") and f"#{hit}: counts again" in again
    assert run.json("verify")["ok"] is True
    exported = tmp_path / "fight.jsonl"
    assert run("export", "-o", str(exported)).exit_code == 0
    copy = type(run)(str(tmp_path / "copy.db"))
    assert copy("import", str(exported)).exit_code == 0
    imported = [e["summary"] for e in copy.json("log", "--tail", "2")["events"]]
    assert imported[0].startswith(said) and imported[0].endswith(gone)
    assert imported[1].startswith(f"A correction decides Orc's event at #{attack} again with the attack roll 19")
    assert "event 2" not in copy("log", "--tail", "2").stdout and copy.json("verify")["ok"] is True


# PenDragon Pass: a Feat described by blanks; the help says the reflexive 5/+5 as it is applied ---------


def test_a_feat_described_by_blanks_is_bad_input_and_writes_nothing(run_sqlite):
    run = glorantha(run_sqlite)  # Vasana: Sword 15, a Feat at or under 7
    for blank in (" ", "\t  "):
        said = fails(run, 2, "feat", "Vasana", "sword", "--roll", "3", "--describe", blank)["message"]
        assert said == "describe the Feat: the rules always name and describe it, and blanks describe nothing"
    done = run.json("feat", "Vasana", "sword", "--roll", "7", "--describe", "leaps onto the chariot's yoke")
    assert (done["result"], done["knockdown"]) == ("critical", False)  # 7 is at most half of 15, rounded down


def test_the_tactic_help_says_a_spell_with_an_attack_is_minus_5_to_the_caster_and_plus_5_to_the_opponent(run_sqlite):
    run = glorantha(run_sqlite)
    words = " ".join(run("tactic", "--help").stdout.split())
    assert "spell-with-attack (-5 to NAME, +5 to the opponent: ruling spell_attack_modifier)" in words
    assert "-5 to both" not in words


def test_a_winter_plan_naming_a_skill_the_sheet_lacks_names_the_character_once(run_sqlite, tmp_path):
    run = glorantha(run_sqlite)  # Vasana has Stewardship 12; Harrek has no productivity skill
    plan = tmp_path / "winter.json"
    plan.write_text(json.dumps({"land": 4, "characters": {"Vasana": {"productivity": "stewardshp"}}}))
    said = fails(run, 2, "winter", "--rolls", str(plan))["message"]
    assert said == "Vasana's sheet has no skill 'stewardshp': did you mean 'stewardship'?"
    plan.write_text(json.dumps({"land": 4, "characters": {"Harrek": {"productivity": "stewardship"}}}))
    assert fails(run, 2, "winter", "--rolls", str(plan))["message"] == "Harrek's sheet has no skill 'stewardship'"


def test_winter_ask_names_whose_sheet_lacks_a_plans_skill_before_asking_a_die(run_sqlite, tmp_path, monkeypatch):
    from chronicle.cli.systems import pendragon_ask

    run = glorantha(run_sqlite)
    monkeypatch.setattr(pendragon_ask, "on_terminal", lambda: True)
    plan = tmp_path / "winter.json"
    plan.write_text(json.dumps({"land": 4, "characters": {"Vasana": {"productivity": "stewardshp"}}}))
    before = len(events(run))
    result = run("winter", "--ask", "--rolls", str(plan), input="")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: Vasana's sheet has no skill 'stewardshp': did you mean 'stewardship'?"
    )
    assert len(events(run)) == before


# the table's dice typed as PURPOSE=FACES are numbers: held to 64 bits where they are read -------------


def test_the_tables_dice_as_text_are_whole_numbers_within_64_bits():
    from chronicle.domain.errors import BadInput
    from chronicle.ledger.application.commands.fields import whole_numbers

    assert whole_numbers(" 3, +5 ,0017", "the table's dice") == [3, 5, 17]
    assert whole_numbers("9223372036854775807,-9223372036854775808", "the table's dice") == [2**63 - 1, -(2**63)]
    for beyond in ("9223372036854775808", "-9223372036854775809", "0" * 30 + "1" * 20, "9" * 5000):
        with pytest.raises(BadInput, match="^the table's dice: '.*' is beyond the 64-bit limit"):
            whole_numbers(f"3,{beyond}", "the table's dice")
    with pytest.raises(BadInput, match="^the table's dice are comma-separated whole numbers, got '3,x'$"):
        whole_numbers("3,x", "the table's dice")
    assert whole_numbers("0" * 5000 + "4", "the table's dice") == [4]  # leading zeros: not counted, not converted


def test_a_die_beyond_64_bits_is_refused_even_where_the_rules_would_not_use_it(run_sqlite):
    run = glorantha(run_sqlite)
    # a great blow's d6 is rolled only on a win: 3 against Vasana's 15 - 5 = 10 loses to Harrek's 4 against 14
    tactic = ["tactic", "Vasana", "great-blow", "--skill", "sword", "--opponent", "Harrek:sword"]
    said = fails(run, 2, *tactic, "--roll", "3", "--opponent-roll", "4", "--dice", f"great_blow={TWO_TO_64}")
    assert said["message"] == f"the table's great_blow dice: '{TWO_TO_64}' {LIMIT}"
    run.json(*tactic, "--roll", "3", "--opponent-roll", "4", "--dice", "great_blow=6")  # unused: noted, not refused
    position = events(run)[-1]["position"]
    said = fails(run, 2, "amend", f"#{position}", "--roll", f"check=1,{'9' * 5000}", "--reason", "x")["message"]
    assert said.startswith("the table's check dice: '9999") and said.endswith(LIMIT)


@pytest.mark.parametrize(
    ("system", "stat", "named"),
    [
        ("potestas", "bab=" + "9" * 5000, "stat bab"),
        ("adnd2e", "hp=" + "9" * 5000, "stat hp"),
        ("adnd2e", "level=9223372036854775808", "stat level"),
        ("pendragon-pass", "sword=" + "9" * 5000, "sword"),
        ("pendragon-pass", "skill:weaving=-9223372036854775809", "skill:weaving"),
    ],
)
def test_a_sheet_value_beyond_64_bits_is_said_so_in_one_short_line(run_sqlite, system, stat, named):
    run = run_sqlite
    run.json("campaign", "new", "Sheets", "--system", system)
    line = one_line(run("character", "add", "Bo", "--stat", stat), 2)
    assert line == f"Error: {named} {LIMIT}"


def test_amend_set_holds_a_corrected_number_to_64_bits_naming_the_input(run_sqlite):
    run = potestas(run_sqlite)
    run.json("injure", "Aric", "--damage", "14", "--save-roll", "15")
    position = events(run)[-1]["position"]
    for huge in (TWO_TO_64, "9" * 5000):
        said = fails(run, 2, "amend", f"#{position}", "--set", f"damage={huge}", "--reason", "misread")["message"]
        assert said == f"#{position}: damage={huge[:40]!r} {LIMIT}"


# messages name the character: the dead, refused, by name ----------------------------------------------


def test_the_dead_are_refused_by_name_heal_rest_injury_first_aid_and_chirurgery(run_sqlite):
    run = glorantha(run_sqlite)  # Harrek: SIZ 16, CON 10 (26 hit points)
    run.json("injure", "Harrek", "--damage", "40")  # -14 hit points: dead
    for args, what in [
        (("heal", "Harrek", "1", "--points", "5"), "heal them"),
        (("injure", "Harrek", "--damage", "3"), "wound them"),
        (("first-aid", "Harrek", "1", "--heal-roll", "2"), "give First Aid"),
    ]:
        said = fails(run, 1, *args)["message"]
        assert said == f"Harrek is dead (-14 hit points): force it to {what} anyway"
    rested = fails(run, 1, "rest", "Harrek", "--hours", "400")["message"]  # as a rest of the dead in every system
    assert rested == "Harrek is dead (-14 hit points): a rest heals nothing (--force records it anyway)"
    said = fails(run, 1, "chirurgery", "Harrek", "--skill", "14", "--roll", "3")["message"]
    assert said == "Harrek is dead: Chirurgery cannot help"


def test_a_potestas_target_already_dead_is_refused_by_name(run_sqlite):
    run = potestas(run_sqlite)  # Aric: Fortitude +5, DR 2
    run.json("character", "add", "Orc", "--stat", "fort=1")
    for _ in range(3):  # 500 damage, DC 115: each save of 1 + 1 fails by 113, a disabling wound each time
        run.json("injure", "Orc", "--damage", "500", "--save-roll", "1")  # disabled, dying, then dead
    assert run.json("character", "show", "Orc")["condition"]["states"] == ["dead"]
    said = fails(run, 1, "injure", "Orc", "--damage", "5")["message"]
    assert said == "Orc is already dead; force it to injure anyway"
