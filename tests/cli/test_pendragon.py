"""PenDragon Pass commands through Click's CliRunner: Status, honours, increases, oaths, geasa,
checks, feats, tactics, injuries and the Winter Phase. Storage-relevant flows run on SQLite and
PostgreSQL (`run`), the rest on SQLite (`run_sqlite`)."""

import json

import pytest

VIRTUES = "chaste,energetic,generous,modest,temperate"
VASANA = [
    "--stat",
    "siz=15",
    "--stat",
    "con=13",
    "--stat",
    "str=14",
    "--stat",
    "dex=12",
    "--stat",
    "pow=10",
    "--stat",
    "valorous=17",
    "--stat",
    "honor=16",
    "--stat",
    "loyalty_clan=18",
    "--stat",
    "hate_trolls=12",
    "--stat",
    "sword=15",
    "--stat",
    "stewardship=12",
    "--stat",
    "religion=10",
    "--stat",
    "first_aid=12",
    "--stat",
    "initiate=1",
    *[arg for v in VIRTUES.split(",") for arg in ("--stat", f"{v}=16")],
    "--virtues",
    VIRTUES,
]
HARREK = ["--stat", "siz=16", "--stat", "str=17", "--stat", "sword=14", "--stat", "spear=13"]


def glorantha(run):
    run.json("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    run.json("character", "add", "Vasana", *VASANA)
    run.json("character", "add", "Harrek", *HARREK)
    return run


def events(run, name=None):
    return run.json("log", *([name] if name else []))["events"]


def fails(run, code, *args):
    """Runs a command that must fail with `code`, write nothing, and explain itself as JSON on stderr."""
    before = len(events(run))
    result = run("--json", *args)
    assert result.exit_code == code, result.stdout + result.stderr
    assert result.stdout == "" and "message" in json.loads(result.stderr)["error"]
    assert len(events(run)) == before
    return json.loads(result.stderr)["error"]


def show(run, name="Vasana"):
    return run.json("character", "show", name)


# storage-relevant flows: SQLite and PostgreSQL ---------------------------------------------------


def test_character_add_with_traits_passions_and_virtues_shows_status_and_increases(run):
    glorantha(run)
    shown = show(run)
    assert shown["system"] == "pendragon-pass" and shown["version"] == 1
    assert shown["condition"] == {"hp": 28, "max_hp": 28, "wounds": [], "states": []}
    assert shown["status"] == {"total": 0, "increases_earned": 0, "increases_spent": 0, "increases_pending": 0}
    assert shown["increases"] == []
    sheet = shown["sheet"]
    assert sheet["traits"]["valorous"] == 17 and sheet["traits"]["cowardly"] == 3
    assert sheet["traits"]["chaste"] == 16 and sheet["traits"]["lustful"] == 4
    assert sheet["passions"] == {"loyalty_clan": 18, "hate_trolls": 12} and sheet["honor"] == 16
    assert sheet["virtues"] == VIRTUES.split(",") and sheet["skills"]["sword"] == 15


def test_the_increase_threshold_spend_and_refusal_rebuilt_from_a_fresh_ledger(run):
    glorantha(run)
    awarded = run.json("status", "award", "Vasana", "--amount", "999", "--reason", "the Battle of Grizzly Peak")
    assert awarded["status"] == {"total": 999, "increases_earned": 0, "increases_spent": 0, "increases_pending": 0}
    fails(run, 1, "increase", "Vasana", "valorous")  # 999 Status earns nothing yet
    awarded = run.json("status", "award", "Vasana", "--amount", "1", "--reason", "one more")
    assert awarded["status"] == {"total": 1000, "increases_earned": 1, "increases_spent": 0, "increases_pending": 1}
    spent = run.json("increase", "Vasana", "valorous")
    assert {"event", "version", "from_value", "to_value", "status"} <= set(spent)
    assert (spent["from_value"], spent["to_value"], spent["opposite"]) == (17, 18, "cowardly")
    assert spent["status"] == {"total": 1000, "increases_earned": 1, "increases_spent": 1, "increases_pending": 0}
    fails(run, 1, "increase", "Vasana", "valorous")  # a second one: none pending
    shown = show(run)
    assert shown["status"]["increases_spent"] == 1 and shown["status"]["increases_pending"] == 0
    assert shown["increases"] == [{"what": "valorous", "by": 1, "cause": "status", "event": spent["event"]}]
    assert shown["sheet"]["traits"]["valorous"] == 18 and shown["sheet"]["traits"]["cowardly"] == 2

    from chronicle.ledger.application.session import Session
    from chronicle.ledger.application.views.characters import view
    from chronicle.ledger.store.chronicle import open_ledger

    session = Session(open_ledger(run.db), None, "someone else")
    rebuilt = view(session, session.character("Vasana"))
    assert (rebuilt["status"], rebuilt["increases"], rebuilt["sheet"]) == (
        shown["status"],
        shown["increases"],
        shown["sheet"],
    )


def test_a_second_award_of_the_same_honour_exits_1_and_writes_nothing(run):
    glorantha(run)
    first = run.json("status", "award", "Vasana", "--honour", "rune-lord")
    assert set(first) >= {"event", "version", "amount", "status"}
    assert first["amount"] == 600 and first["status"]["total"] == 600
    error = fails(run, 1, "status", "award", "Vasana", "--honour", "rune-lord")
    assert error["code"] == "refused"
    assert run.json("status", "award", "Harrek", "--honour", "rune-lord")["amount"] == 600  # per character
    assert show(run)["status"]["total"] == 600


def test_a_winter_whose_status_gains_are_checked_by_hand_and_a_second_is_refused(run, tmp_path):
    glorantha(run)
    run.json("geas", "take", "Vasana", "never eat goose")
    assert run.json("check", "Vasana", "sword", "--roll", "7", "--award-check")["checked"] is True
    plan = tmp_path / "winter.json"
    plan.write_text(
        json.dumps(
            {
                "characters": {
                    "Vasana": {
                        "productivity": "stewardship",
                        "worship": "religion",
                        "leadership_people": 250,
                        "rolls": {
                            "productivity": 14,
                            "worship": [6],
                            "experience": {"pow": 11, "stewardship": 20, "sword": 9},
                        },
                    }
                }
            }
        )
    )
    before = len(events(run))
    winter = run.json("winter", "--year", "1621", "--land-roll", "5", "--rolls", str(plan))
    assert (winter["year"], winter["land"]["roll"], winter["land"]["modifier"]) == (1621, 5, 2)
    assert winter["land"]["source"] == "table" and {"event", "version"} <= set(winter)
    vasana = winter["characters"]["Vasana"]
    # Stewardship 12 + 2 (good land) = 14, rolled 14: critical, 25 Status. Traits 16+: the five virtues
    # at 16 and Valorous 17 = 97; passions 16+: Honor 16 + Loyalty (clan) 18 = 34; all five virtues
    # 16+: 100; one geas kept: 5; 250 people led: 2.
    assert vasana["status"] == 25 + 97 + 34 + 100 + 5 + 2 == 263
    assert vasana["checks"] == ["pow", "stewardship", "sword"]
    assert vasana["experience"] == [
        {"what": "pow", "roll": 11, "from": 10, "to": 11},
        {"what": "stewardship", "roll": 20, "from": 12, "to": 13},
        {"what": "sword", "roll": 9, "from": 15, "to": 15},
    ]
    harrek = winter["characters"]["Harrek"]  # nothing at 16+, no productivity skill, no religion
    assert (harrek["status"], harrek["checks"], harrek["experience"]) == (0, [], [])
    log = events(run)
    assert len(log) == before + 3  # WinterBegan on the campaign, one WinterResolved each
    assert [e["type"] for e in log[-3:]] == ["WinterBegan", "WinterResolved", "WinterResolved"]

    fails(run, 1, "winter", "--year", "1621", "--land-roll", "3")
    assert run.json("log")["events"] == log
    shown = show(run)
    assert shown["status"]["total"] == 263 and shown["sheet"]["pow"] == 11
    assert shown["sheet"]["skills"]["stewardship"] == 13
    assert [(i["what"], i["cause"]) for i in shown["increases"]] == [
        ("pow", "experience"),
        ("stewardship", "experience"),
    ]
    assert run.json("winter", "--land-roll", "3")["year"] == 1622  # the last winter + 1


# Status -----------------------------------------------------------------------------------------

FOES = {
    "armoured-mounted-warrior": 35,
    "notable-mounted-warrior": 50,
    "rune-master": 100,
    "shaman": 100,
    "notable-rune-master": 250,
    "famous-rune-master": 500,
    "hero": 750,
    "trollkin": 10,
    "dwarf": 20,
    "elf": 20,
    "troll": 20,
    "notable-dwarf": 50,
    "notable-elf": 50,
    "notable-troll": 50,
}
HONOURS = {
    "initiate": 50,
    "acolyte": 200,
    "priest": 500,
    "high-priest": 500,
    "rune-lord": 600,
    "shaman": 250,
    "thane": 200,
}


def test_every_foe_is_worth_its_table_value(run_sqlite):
    glorantha(run_sqlite)
    total = 0
    for foe, value in FOES.items():
        awarded = run_sqlite.json("status", "award", "Vasana", "--foe", foe)
        total += value
        assert (awarded["amount"], awarded["base"], awarded["status"]["total"]) == (value, value, total), foe


def test_every_honour_is_worth_its_value_once(run_sqlite):
    glorantha(run_sqlite)
    total = 0
    for honour, value in HONOURS.items():
        total += value
        awarded = run_sqlite.json("status", "award", "Vasana", "--honour", honour)
        assert (awarded["amount"], awarded["status"]["total"]) == (value, total), honour
    assert total == 2300 and show(run_sqlite)["status"]["increases_pending"] == 2
    for honour in HONOURS:
        fails(run_sqlite, 1, "status", "award", "Vasana", "--honour", honour)


@pytest.mark.parametrize(
    "flags, additive, multiplicative",
    [
        ((), 100, 100),
        (("--head",), 110, 110),
        (("--yoke",), 150, 150),
        (("--missile",), 50, 50),
        (("--head", "--yoke"), 160, 165),
        (("--head", "--missile"), 60, 55),
        (("--yoke", "--missile"), 100, 75),
        (("--head", "--yoke", "--missile"), 110, 82),
    ],
)
def test_each_modifier_combination_under_both_rulings(run_sqlite, flags, additive, multiplicative):
    glorantha(run_sqlite)
    assert run_sqlite.json("status", "award", "Vasana", "--foe", "rune-master", *flags)["amount"] == additive
    run_sqlite.json("campaign", "rule", "status_modifiers=multiplicative", "--reason", "house rule")
    assert run_sqlite.json("status", "award", "Harrek", "--foe", "rune-master", *flags)["amount"] == multiplicative


def test_modifiers_apply_to_explicit_amounts(run_sqlite):
    glorantha(run_sqlite)
    awarded = run_sqlite.json("status", "award", "Vasana", "--amount", "40", "--reason", "a chariot duel", "--yoke")
    assert (awarded["amount"], awarded["source"], awarded["modifiers"]) == (60, "amount", ["yoke"])


def test_leadership_and_magic_items(run_sqlite):
    glorantha(run_sqlite)
    assert run_sqlite.json("status", "award", "Vasana", "--leadership", "350")["amount"] == 3
    assert run_sqlite.json("status", "award", "Vasana", "--leadership", "50000")["amount"] == 100
    assert run_sqlite.json("status", "award", "Vasana", "--magic-item", "7")["amount"] == 7
    assert show(run_sqlite)["status"]["total"] == 110


@pytest.mark.parametrize(
    "args",
    [
        ("--honour", "priest", "--head"),  # modifiers are for foes
        ("--magic-item", "11"),
        ("--amount", "10"),  # no reason
        ("--foe", "troll", "--honour", "thane"),  # two sources
        (),  # no source
        ("--foe", "dragon"),
        ("--honour", "king"),
        ("--leadership", "-5"),
    ],
)
def test_bad_awards_exit_2_and_write_nothing(run_sqlite, args):
    glorantha(run_sqlite)
    fails(run_sqlite, 2, "status", "award", "Vasana", *args)


def test_increase_of_an_unknown_value_exits_2_and_of_each_kind_raises_it(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("status", "award", "Vasana", "--amount", "4000", "--reason", "a saga")
    fails(run_sqlite, 2, "increase", "Vasana", "juggling")
    fails(run_sqlite, 2, "increase", "Nobody", "sword")
    for what in ("sword", "loyalty_clan", "siz", "honor"):
        spent = run_sqlite.json("increase", "Vasana", what)
        assert spent["to_value"] == spent["from_value"] + 1
    sheet = show(run_sqlite)["sheet"]
    assert (sheet["skills"]["sword"], sheet["passions"]["loyalty_clan"], sheet["siz"], sheet["honor"]) == (
        16,
        19,
        16,
        17,
    )
    assert [i["what"] for i in show(run_sqlite)["increases"]] == ["sword", "loyalty_clan", "siz", "honor"]
    fails(run_sqlite, 1, "increase", "Vasana", "sword")


# checks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roll, result", [(15, "critical"), (3, "success"), (16, "failure"), (20, "fumble")])
def test_an_unopposed_check(run_sqlite, roll, result):
    glorantha(run_sqlite)
    checked = run_sqlite.json("check", "Vasana", "sword", "--roll", str(roll))
    assert {"event", "version", "what", "value", "roll", "status", "condition", "dice"} <= set(checked)
    assert checked["roll"]["result"] == result and checked["dice"][0]["source"] == "table"
    assert checked["opponent_roll"] is None


def test_a_check_with_a_modifier_over_20(run_sqlite):
    glorantha(run_sqlite)
    checked = run_sqlite.json("check", "Vasana", "sword", "--modifier", "8", "--roll", "18")
    assert checked["value"] == 23 and checked["roll"]["total"] == 21 and checked["roll"]["result"] == "critical"


def test_an_opposed_check_copies_the_opponents_value_and_gives_a_partial_success(run_sqlite):
    glorantha(run_sqlite)
    checked = run_sqlite.json(
        "check", "Vasana", "sword", "--roll", "12", "--opposed-by", "Harrek:sword", "--opposed-roll", "9"
    )
    assert checked["winner"] == "self" and checked["opponent_roll"]["value"] == 14
    assert checked["opponent_roll"]["result"] == "partial_success"
    logged = events(run_sqlite, "Vasana")[-1]["data"]
    assert logged["inputs"]["opponent"] == "Harrek:sword" and logged["inputs"]["opponent_value"] == 14
    # the opponent gets no event of its own; its story holds the check that names it
    assert [e["character"] for e in events(run_sqlite, "Harrek")] == ["Harrek", "Vasana"]
    tied = run_sqlite.json("check", "Vasana", "sword", "--roll", "15", "--opposed-value", "18", "--opposed-roll", "18")
    assert tied["tie"] is True and tied["winner"] == "none"


@pytest.mark.parametrize(
    "args",
    [
        ("Vasana", "juggling", "--roll", "3"),
        ("Nobody", "sword"),
        ("Vasana", "sword", "--opposed-by", "Nobody:sword"),
        ("Vasana", "sword", "--opposed-by", "Harrek:juggling"),
        ("Vasana", "sword", "--opposed-by", "Harrek"),
        ("Vasana", "sword", "--opposed-roll", "4"),
        ("Vasana", "sword", "--roll", "21"),
    ],
)
def test_bad_checks_exit_2(run_sqlite, args):
    glorantha(run_sqlite)
    fails(run_sqlite, 2, "check", *args)


def test_an_awarded_check_is_listed_until_winter(run_sqlite):
    glorantha(run_sqlite)
    assert run_sqlite.json("check", "Vasana", "sword", "--roll", "16", "--award-check")["checked"] is False
    assert run_sqlite.json("check", "Vasana", "valorous", "--roll", "3", "--award-check")["checked"] is True
    assert show(run_sqlite)["checks"] == ["valorous"]
    fails(run_sqlite, 1, "check", "Vasana", "str", "--roll", "3", "--award-check")  # not POW


# oaths and geasa ----------------------------------------------------------------------------------


def test_an_oath_sworn_then_fulfilled(run_sqlite):
    glorantha(run_sqlite)
    sworn = run_sqlite.json("oath", "swear", "Vasana", "avenge my father")
    assert sworn["id"] == "oath-1" and {"event", "version", "status"} <= set(sworn)
    assert show(run_sqlite)["oaths"] == [{"id": "oath-1", "text": "avenge my father", "state": "open"}]
    done = run_sqlite.json("oath", "fulfil", "Vasana", "avenge my father", "--status", "150")
    assert (done["status_gained"], done["status"]["total"]) == (150, 150)
    assert show(run_sqlite)["oaths"][0]["state"] == "fulfilled"
    fails(run_sqlite, 1, "oath", "fulfil", "Vasana", "oath-1", "--status", "150")
    fails(run_sqlite, 2, "oath", "fulfil", "Vasana", "oath-9", "--status", "10")
    fails(run_sqlite, 2, "oath", "fulfil", "Vasana", "oath-1", "--status", "-5")


def test_breaking_an_oath_costs_1_honor_or_d6_when_grave(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("oath", "swear", "Vasana", "guard the ford", "--id", "ford")
    run_sqlite.json("oath", "swear", "Vasana", "slay the troll")
    broken = run_sqlite.json("oath", "break", "Vasana", "ford")
    assert (broken["honor_loss"], broken["honor_from"], broken["honor_to"]) == (1, 16, 15)
    grave = run_sqlite.json("oath", "break", "Vasana", "oath-2", "--grave", "--honor-roll", "4")
    assert (grave["honor_loss"], grave["honor_to"], grave["dice"][0]["source"]) == (4, 11, "table")
    assert show(run_sqlite)["sheet"]["honor"] == 11
    fails(run_sqlite, 2, "oath", "break", "Vasana", "no such oath")
    fails(run_sqlite, 1, "oath", "break", "Vasana", "ford")


def test_a_honor_roll_without_grave_is_bad_input(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("oath", "swear", "Vasana", "x")
    fails(run_sqlite, 2, "oath", "break", "Vasana", "oath-1", "--honor-roll", "3")
    fails(run_sqlite, 2, "oath", "break", "Vasana", "oath-1", "--grave", "--honor-roll", "7")


@pytest.mark.parametrize("clan, status", [(False, 10), (True, -10)])
def test_breaking_a_geas_gains_10_status_or_loses_10_for_a_clan_geas_and_d6_honor(run_sqlite, clan, status):
    glorantha(run_sqlite)
    taken = run_sqlite.json("geas", "take", "Vasana", "never eat goose", *(["--clan"] if clan else []))
    assert taken["id"] == "geas-1"
    assert show(run_sqlite)["geasa"] == [{"id": "geas-1", "text": "never eat goose", "clan": clan, "state": "kept"}]
    broken = run_sqlite.json("geas", "break", "Vasana", "never eat goose", "--honor-roll", "3")
    assert (broken["status_gained"], broken["status"]["total"]) == (status, max(status, 0))  # never below 0
    assert (broken["honor_loss"], broken["honor_to"]) == (3, 13)
    assert show(run_sqlite)["geasa"][0]["state"] == "broken"
    fails(run_sqlite, 1, "geas", "break", "Vasana", "geas-1")
    fails(run_sqlite, 2, "geas", "break", "Vasana", "geas-7")


def test_each_kept_geas_gains_5_each_winter(run_sqlite):
    glorantha(run_sqlite)
    for text in ("never eat goose", "never refuse a duel"):
        run_sqlite.json("geas", "take", "Harrek", text)
    run_sqlite.json("geas", "break", "Harrek", "geas-2", "--honor-roll", "1")
    winter = run_sqlite.json("winter", "--land-roll", "3")
    sources = {s["source"]: s["amount"] for s in winter["characters"]["Harrek"]["sources"]}
    assert sources == {"geas_upkeep": 5} and winter["year"] == 1


# feats and tactics --------------------------------------------------------------------------------


def test_a_feat_succeeds_at_half_the_value_and_fails_into_a_knockdown(run_sqlite):
    glorantha(run_sqlite)
    done = run_sqlite.json("feat", "Vasana", "sword", "--roll", "7", "--describe", "leaps the shield wall")
    assert (done["result"], done["knockdown"], done["value"]) == ("critical", False, 15)
    assert events(run_sqlite, "Vasana")[-1]["data"]["inputs"]["description"] == "leaps the shield wall"
    failed = run_sqlite.json("feat", "Vasana", "str", "--roll", "8", "--describe", "lifts the gate")
    assert (failed["result"], failed["knockdown"]) == ("fumble", True)
    assert "knocked_down" in failed["condition"]["states"]
    fails(run_sqlite, 2, "feat", "Vasana", "str", "--roll", "3")  # a Feat is always named and described
    fails(run_sqlite, 2, "feat", "Vasana", "str", "--roll", "3", "--describe", "")


@pytest.mark.parametrize("what, code", [("riding", 1), ("valorous", 1), ("honor", 1), ("juggling", 2)])
def test_feats_refused_or_unknown(run_sqlite, what, code):
    glorantha(run_sqlite)
    run_sqlite.json("character", "add", "Rider", "--stat", "riding=16")
    fails(
        run_sqlite, code, "feat", "Rider" if what == "riding" else "Vasana", what, "--roll", "3", "--describe", "a leap"
    )


def test_a_great_blow_wins_an_extra_d6(run_sqlite):
    glorantha(run_sqlite)
    blow = run_sqlite.json(
        "tactic",
        "Vasana",
        "great-blow",
        "--skill",
        "sword",
        "--opponent",
        "Harrek:sword",
        "--roll",
        "8",
        "--opponent-roll",
        "16",
        "--dice",
        "great_blow=4",
    )
    assert {"event", "version", "tactic", "rolls", "winner", "effects", "status"} <= set(blow)
    assert (blow["modifier"], blow["rolls"]["attack"]["value"], blow["winner"]) == (-5, 10, "self")
    assert blow["effects"] == {"extra_damage": 4}
    assert events(run_sqlite, "Vasana")[-1]["data"]["inputs"]["opponent_value"] == 14


def test_disarm_takes_the_foes_str_from_its_sheet(run_sqlite):
    glorantha(run_sqlite)
    disarm = run_sqlite.json(
        "tactic",
        "Vasana",
        "disarm",
        "--skill",
        "sword",
        "--opponent",
        "Harrek:sword",
        "--damage",
        "4d6",
        "--roll",
        "5",
        "--opponent-roll",
        "17",
        "--dice",
        "damage=6,5,4,3",
        "--dice",
        "distance=4",
    )
    assert disarm["effects"] == {"damage": 18, "disarmed": True, "metres": 3}
    assert events(run_sqlite, "Vasana")[-1]["data"]["inputs"]["opponent_str"] == 17


def test_multiple_opponents_take_minus_5_per_extra_foe(run_sqlite):
    glorantha(run_sqlite)
    fought = run_sqlite.json(
        "tactic",
        "Vasana",
        "multiple-opponents",
        "--skill",
        "sword",
        "--opponent",
        "Harrek:sword",
        "--opponent-value",
        "8",
        "--roll",
        "3,4",
        "--opponent-roll",
        "18,19",
    )
    assert fought["modifier"] == -5 and fought["effects"] == {"wins": 2}
    assert set(fought["rolls"]) == {"attack_1", "opponent_1", "attack_2", "opponent_2"}


def test_a_failed_dodge_is_a_fall(run_sqlite):
    glorantha(run_sqlite)
    dodge = run_sqlite.json(
        "tactic", "Vasana", "dodge", "--opponent-value", "14", "--roll", "15", "--opponent-roll", "3"
    )
    assert dodge["effects"] == {"avoided": False, "hit": True} and dodge["knocked_down"] is True
    assert "knocked_down" in show(run_sqlite)["condition"]["states"]


def test_iron_breaks_bronze_on_a_tie(run_sqlite):
    glorantha(run_sqlite)
    clash = run_sqlite.json(
        "tactic",
        "Vasana",
        "sword-clash",
        "--skill",
        "sword",
        "--opponent-value",
        "15",
        "--metal",
        "iron",
        "--opponent-metal",
        "bronze",
        "--roll",
        "9",
        "--opponent-roll",
        "9",
    )
    assert clash["tie"] is True and clash["effects"] == {"broken": "opponent"}


def test_a_formation_and_a_spell_bearing_weapon_fumble(run_sqlite):
    glorantha(run_sqlite)
    formation = run_sqlite.json(
        "tactic",
        "Vasana",
        "formation",
        "--skill",
        "sword",
        "--spear-value",
        "12",
        "--shield-value",
        "13",
        "--roll",
        "10",
        "--dice",
        "spear=14",
        "--dice",
        "shield=8",
    )
    # 10 beats the failed spear (14 over 12), then the shield's 8: the shield has a partial success and parries
    assert formation["effects"] == {"past_spear": True, "hit": True, "parried": True}
    fumble = run_sqlite.json(
        "tactic",
        "Vasana",
        "spell-weapon-fumble",
        "--spell-points",
        "2",
        "--rune-points",
        "3",
        "--dice",
        "weapon_save=8",
    )
    assert fumble["effects"] == {"roll": 8, "target": 8, "weapon": "dropped"}


@pytest.mark.parametrize(
    "args, code",
    [
        (("great-blow", "--skill", "sword"), 2),  # no opponent
        (("great-blow", "--skill", "sword", "--opponent-value", "10", "--damage", "2d6"), 2),  # not a great-blow option
        (("spell-weapon-fumble", "--opponent-value", "10"), 2),
        (("juggle", "--skill", "sword"), 2),
        (("great-blow", "--skill", "sword", "--opponent", "Nobody:sword"), 2),
        (("break-shield", "--skill", "sword", "--opponent-value", "10", "--damage", "1d4", "--small-weapon"), 1),
        (("dodge-and-fight", "--skill", "sword", "--opponent-value", "10", "--defence", "30"), 2),
    ],
)
def test_bad_tactics(run_sqlite, args, code):
    glorantha(run_sqlite)
    fails(run_sqlite, code, "tactic", "Vasana", *args)


# injuries and healing -----------------------------------------------------------------------------


def test_injure_tracks_each_wound_with_major_and_knockdown_flags(run_sqlite):
    glorantha(run_sqlite)
    before = len(events(run_sqlite))
    hurt = run_sqlite.json("injure", "Vasana", "--damage", "16", "--save-roll", "12")
    assert len(events(run_sqlite)) == before + 1  # --save-roll is accepted and records nothing extra
    assert "save" not in events(run_sqlite)[-1]["data"]["inputs"]
    assert (hurt["wound"], hurt["major"], hurt["knockdown"], hurt["hp"]) == (1, True, True, 12)
    assert {"event", "version", "condition", "status"} <= set(hurt)
    hurt = run_sqlite.json("injure", "Vasana", "--damage", "5")
    assert (hurt["wound"], hurt["major"], hurt["knockdown"], hurt["unconscious"]) == (2, False, False, True)
    condition = show(run_sqlite)["condition"]
    assert condition["hp"] == 7 and [w["amount"] for w in condition["wounds"]] == [16, 5]
    assert {"unconscious", "needs_chirurgery", "major_wound"} <= set(condition["states"])


def test_first_aid_once_per_wound_then_magic_once(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("injure", "Harrek", "--damage", "6")
    aided = run_sqlite.json("first-aid", "Harrek", "1", "--healer", "Vasana", "--roll", "4", "--heal-roll", "3")
    assert (aided["healed"], aided["hp"], aided["roll"]["value"]) == (3, 23, 12)
    fails(run_sqlite, 1, "first-aid", "Harrek", "1", "--heal-roll", "2")
    fails(run_sqlite, 2, "first-aid", "Harrek", "2")
    healed = run_sqlite.json("heal", "Harrek", "1", "--points", "5")
    assert (healed["healed"], healed["hp"]) == (3, 26)
    fails(run_sqlite, 1, "heal", "Harrek", "1", "--points", "5")


def test_first_aid_only_on_wounds_up_to_a_day_old_and_heal_windows(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("injure", "Harrek", "--damage", "6", "--at", "1621-03-01T12:00")
    fails(run_sqlite, 1, "first-aid", "Harrek", "1", "--at", "1621-03-03T12:00")
    fails(run_sqlite, 1, "heal", "Harrek", "1", "--points", "2", "--at", "1621-03-01T14:00")
    healed = run_sqlite.json("heal", "Harrek", "1", "--points", "2", "--any-age", "--at", "1621-03-05T12:00")
    assert healed["healed"] == 2
    fails(run_sqlite, 2, "injure", "Harrek", "--damage", "1", "--at", "last tuesday")


def test_pendragon_commands_need_a_pendragon_campaign(run_sqlite):
    glorantha(run_sqlite)
    run_sqlite.json("campaign", "new", "Greyhawk", "--system", "adnd2e")
    run_sqlite.json("--campaign", "Greyhawk", "character", "add", "Bruno", "--stat", "hp=30")
    before = len(run_sqlite.json("--campaign", "Greyhawk", "log")["events"])
    for args in (("status", "award", "Bruno", "--foe", "troll"), ("check", "Bruno", "str"), ("winter",)):
        result = run_sqlite("--json", "--campaign", "Greyhawk", *args)
        assert (
            result.exit_code == 2
            and "a command of pendragon-pass campaigns" in json.loads(result.stderr)["error"]["message"]
        )
    assert len(run_sqlite.json("--campaign", "Greyhawk", "log")["events"]) == before


# the Winter Phase ---------------------------------------------------------------------------------


def test_winter_defaults_from_the_sheet_and_ledger_dice(run_sqlite):
    glorantha(run_sqlite)
    winter = run_sqlite.json("winter")
    assert winter["year"] == 1 and winter["land"]["source"] == "ledger" and 1 <= winter["land"]["roll"] <= 6
    vasana = winter["characters"]["Vasana"]
    assert set(vasana) >= {"status", "checks", "experience", "event", "version"}
    assert vasana["economics"]["skill"] == "stewardship" and vasana["worship"]["value"] == 10
    assert vasana["economics"]["roll"]["value"] == 12 + winter["land"]["modifier"]
    assert all(set(g) == {"what", "roll", "from", "to"} for g in vasana["experience"])
    assert [g["what"] for g in vasana["experience"]] == vasana["checks"]
    began = events(run_sqlite)[-3]
    assert began["type"] == "WinterBegan" and began["character"] is None
    assert run_sqlite.json("winter")["year"] == 2


def test_winter_training_aging_and_a_dead_character_skipped(run_sqlite, tmp_path):
    glorantha(run_sqlite)
    run_sqlite.json("injure", "Harrek", "--damage", "40")
    plan = tmp_path / "winter.json"
    plan.write_text(
        json.dumps(
            {
                "year": 1625,
                "land": 1,
                "characters": {
                    "Vasana": {
                        "productivity": None,
                        "worship": None,
                        "aging": {"str": -1},
                        "family": "a daughter is born",
                        "training": [{"kind": "skill", "what": "first_aid"}, {"kind": "spell", "what": "bladesharp"}],
                        "rolls": {"training": {"first_aid": 17}},
                    }
                },
            }
        )
    )
    winter = run_sqlite.json("winter", "--rolls", str(plan))
    assert (winter["year"], winter["land"]) == (1625, {"roll": 1, "modifier": -5, "source": "table"})
    assert winter["skipped"] == ["Harrek"] and list(winter["characters"]) == ["Vasana"]
    vasana = winter["characters"]["Vasana"]
    assert vasana["economics"] is None and vasana["worship"] is None
    assert vasana["training"][0]["gain"] == {"what": "first_aid", "roll": 17, "from": 12, "to": 13}
    shown = show(run_sqlite)
    assert shown["sheet"]["str"] == 13 and shown["sheet"]["skills"]["first_aid"] == 13
    assert shown["learned"] == ["spell:bladesharp"]


@pytest.mark.parametrize(
    "plan, args",
    [
        ("not json", ()),
        ({"characters": {"Nobody": {}}}, ()),
        ({"characters": {"Vasana": {"colour": "blue"}}}, ()),
        ({"characters": {"Vasana": {"rolls": {"luck": [3]}}}}, ()),
        ({"land": 4}, ("--land-roll", "5")),
        ({"year": 3}, ("--year", "4")),
        ({}, ("--land-roll", "7")),
        ({"characters": {"Vasana": {"aging": {"str": 1}}}}, ()),
        ({"characters": {"Vasana": {"rolls": {"experience": [11, 20]}}}}, ()),  # by order: never
        ({"characters": {"Vasana": {"training": [{"what": "sword", "physical": True}]}}}, ()),  # the skill decides
        ({"characters": {"Vasana": {"worship": "stewardship"}}}, ()),
    ],
)
def test_bad_winter_input_exits_2_and_writes_nothing(run_sqlite, tmp_path, plan, args):
    glorantha(run_sqlite)
    path = tmp_path / "winter.json"
    path.write_text(plan if isinstance(plan, str) else json.dumps(plan))
    fails(run_sqlite, 2, "winter", "--rolls", str(path), *args)


def test_a_winter_plan_is_read_bounded_and_nesting_is_bad_input(run_sqlite, tmp_path):
    glorantha(run_sqlite)
    assert "at most" in fails(run_sqlite, 2, "winter", "--rolls", "/dev/zero")["message"]
    deep = tmp_path / "deep.json"
    deep.write_text('{"characters": {"Vasana": {"aging": ' + "[" * 100_000 + "]" * 100_000 + "}}}")
    assert "not a JSON document" in fails(run_sqlite, 2, "winter", "--rolls", str(deep))["message"]
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"characters": {"Vasana": {"aging": {"str": [[[-1]]]}}}}))
    assert "aging" in fails(run_sqlite, 2, "winter", "--rolls", str(nested))["message"]
    assert "cannot read" in fails(run_sqlite, 2, "winter", "--rolls", str(tmp_path / "none.json"))["message"]


def test_recorded_actions_tell_their_sentences_notes_and_the_condition_they_changed(run_sqlite):
    glorantha(run_sqlite)
    told = run_sqlite("injure", "Vasana", "--damage", "14")
    assert told.exit_code == 0
    lines = told.stdout.splitlines()
    assert (
        lines[0]
        == "Vasana is wounded: wound #1, 14 points; a major wound, which needs Chirurgery. Vasana has 14 hit points."
    )
    assert lines[-1].startswith("Condition: hp 28/28, Status 0 -> hp 14/28, Status 0") and "[event " in lines[-1]
    blow = run_sqlite(
        "tactic",
        "Vasana",
        "great-blow",
        "--skill",
        "sword",
        "--opponent",
        "Harrek:sword",
        "--roll",
        "8",
        "--opponent-roll",
        "16",
        "--dice",
        "great_blow=4",
        "--dice",
        "flurry=3",
    ).stdout
    assert "Vasana wins. 4 extra damage (d6)." in blow
    assert "Note: The table's flurry die (3) was not needed" in blow
    winter = run_sqlite("winter", "--land-roll", "4").stdout
    assert winter.startswith("The winter of year 1 for Vasana (the land rolled 4: normal land, +0).")
    assert "\n\nThe winter of year 1 for Harrek" in winter


def test_winter_refusals_exit_1(run_sqlite, tmp_path):
    glorantha(run_sqlite)
    plan = tmp_path / "winter.json"
    plan.write_text(json.dumps({"characters": {"Vasana": {"training": [{"kind": "skill", "what": "pow"}]}}}))
    error = fails(run_sqlite, 1, "winter", "--rolls", str(plan))  # pow_training=shamans_only
    assert error["message"].startswith("Vasana: training pow: only a shaman")
    plan.write_text(json.dumps({"characters": {"Harrek": {"worship": "religion"}}}))
    error = fails(run_sqlite, 1, "winter", "--rolls", str(plan))
    assert error["message"].startswith("Harrek: worship with religion: only an initiate")
    run_sqlite.json("winter", "--year", "5", "--land-roll", "3")
    fails(run_sqlite, 1, "winter", "--year", "5")


def test_a_batch_can_register_characters_and_run_their_winter_all_or_nothing(run_sqlite, tmp_path):
    script = tmp_path / "season.txt"
    script.write_text(
        "campaign new Glorantha --system pendragon-pass\ncharacter add A --stat valorous=16\n"
        "character add B\nwinter --land-roll 3\nwinter --land-roll 3 --year 1\n"
    )
    assert run_sqlite("batch", str(script)).exit_code == 1  # the second winter of year 1: nothing written
    script.write_text("\n".join(script.read_text().splitlines()[:4]) + "\n")
    assert run_sqlite("batch", str(script)).exit_code == 0
    # one transaction saves aggregate by aggregate, so the log interleaves by aggregate (see the report)
    types = [e["type"] for e in events(run_sqlite)]
    assert [types.count(kind) for kind in ("CharacterRegistered", "WinterBegan", "WinterResolved")] == [2, 1, 2]
    assert show(run_sqlite, "A")["status"]["total"] == 16


def test_rest_heals_the_healing_rate_per_full_week_but_not_wounds_awaiting_chirurgery(run_sqlite):
    run = run_sqlite
    run("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "str=14")
    run.json("injure", "Vasana", "--damage", "14")  # major: awaits Chirurgery
    run.json("injure", "Vasana", "--damage", "5")
    rested = run.json("rest", "Vasana", "--hours", str(2 * 7 * 24 + 23))
    assert (rested["weeks"], rested["healing_rate"], rested["healed"]) == (2, 2, {"2": 4})
    assert rested["hp"] == 28 - 14 - 1
    assert run.json("rest", "Vasana", "--hours", "400", "--interrupted")["healed"] == {}
    assert run("rest", "Vasana", "--hours", "1", "--minutes", "5").exit_code == 2
    assert run.json("verify")["ok"] is True


def test_experience_a_month_after_an_adventure_only_under_that_ruling(run_sqlite):
    run = run_sqlite
    run("campaign", "new", "Glorantha", "--system", "pendragon-pass")
    run("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13", "--stat", "sword=12")
    run.json("check", "Vasana", "sword", "--roll", "5", "--award-check")
    assert run("experience", "Vasana", "--dice", "sword=17").exit_code == 1  # experience_timing=winter
    run.json("campaign", "rule", "experience_timing=month_after_adventure", "--reason", "short campaigns")
    assert run("experience", "Vasana", "--dice", "17").exit_code == 2  # keyed by check, never by order
    rolled = run.json("experience", "Vasana", "--dice", "sword=17")
    assert rolled["experience"] == [{"what": "sword", "roll": 17, "from": 12, "to": 13}]
    assert run.json("character", "show", "Vasana")["sheet"]["skills"]["sword"] == 13
    assert run("experience", "Vasana").exit_code == 1  # no checks left
