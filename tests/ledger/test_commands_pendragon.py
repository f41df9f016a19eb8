"""The PenDragon Pass commands through the application layer, without Click, on SQLite and PostgreSQL: each
as its model (`Ledger.execute`) and as a command document (`Ledger.execute_document`), with the outcomes
tests/cli/test_pendragon.py finds through the command line."""

from __future__ import annotations

from typing import Any

import pytest

from chronicle.domain.errors import BadInput, NotFound, Refusal
from chronicle.ledger.application import commands
from chronicle.ledger.application.commands.pendragon import Check, Experience, Feat, Increase, StatusAward
from chronicle.ledger.application.commands.pendragon_injury import Chirurgery, FirstAid, Heal, Injure, Rest
from chronicle.ledger.application.commands.pendragon_oaths import GeasTake, OathBreak, OathFulfil, OathSwear
from chronicle.ledger.application.commands.pendragon_tactic import MODELS, Tactic, TacticName
from chronicle.ledger.application.commands.pendragon_winter import Winter, table_dice
from chronicle.ledger.application.commands.table import CampaignNew, CampaignRule, CharacterAdd
from chronicle.ledger.application.ledger import Ledger

VIRTUES = "chaste,energetic,generous,modest,temperate"
VASANA = [
    "siz=15",
    "con=13",
    "str=14",
    "dex=12",
    "pow=10",
    "valorous=17",
    "honor=16",
    "loyalty_clan=18",
    "hate_trolls=12",
    "sword=15",
    "stewardship=12",
    "religion=10",
    "first_aid=12",
    "initiate=1",
    *[f"{virtue}=16" for virtue in VIRTUES.split(",")],
]
HARREK = ["siz=16", "str=17", "sword=14", "spear=13"]
SYSTEM = "pendragon-pass"


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=7)
    opened.execute(CampaignNew(name="Glorantha", system=SYSTEM))
    opened.execute(CharacterAdd(name="Vasana", stat=VASANA, virtues=VIRTUES))
    opened.execute(CharacterAdd(name="Harrek", stat=HARREK))
    yield opened
    opened.close()


def count(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


def run(ledger: Ledger, document: dict[str, Any]) -> dict[str, Any]:
    """A command document run, its reply's document; its model's own document reads back as the same model."""
    parsed = commands.parse(document, SYSTEM)
    assert commands.parse(parsed.document(), SYSTEM) == parsed
    return ledger.execute_document(document).document


def refused(ledger: Ledger, error: type[Exception], command: Any) -> str:
    """COMMAND (a model or a document) fails with ERROR and writes nothing; the error's message."""
    before = count(ledger)
    with pytest.raises(error) as raised:
        ledger.execute_document(command) if isinstance(command, dict) else ledger.execute(command)
    assert count(ledger) == before
    return str(raised.value)


def sheet(ledger: Ledger, name: str = "Vasana") -> Any:
    return ledger.read().character(name).sheet


# Status and increases -------------------------------------------------------------------------------


def test_awards_reach_an_increase_and_spend_it(ledger):
    awarded = ledger.execute(StatusAward(name="Vasana", amount=999, reason="the Battle of Grizzly Peak")).document
    assert awarded["status"] == {"total": 999, "increases_earned": 0, "increases_spent": 0, "increases_pending": 0}
    refused(ledger, Refusal, {"command": "increase", "name": "Vasana", "what": "valorous"})  # none pending
    awarded = run(ledger, {"command": "status award", "name": "vasana", "amount": 1, "reason": "one more"})
    assert awarded["status"]["increases_pending"] == 1 and awarded["character"] == "Vasana"
    spent = ledger.execute(Increase(name="Vasana", what="valorous"))
    assert (spent.document["from_value"], spent.document["to_value"], spent.document["opposite"]) == (
        17,
        18,
        "cowardly",
    )
    assert spent.document["status"]["increases_spent"] == 1
    assert "Vasana" in spent.text and "valorous" in spent.text.lower() and spent.text.endswith("]")
    assert sheet(ledger).traits["valorous"] == 18 and sheet(ledger).traits["cowardly"] == 2
    refused(ledger, Refusal, Increase(name="Vasana", what="valorous"))
    refused(ledger, BadInput, Increase(name="Vasana", what="juggling"))


def test_an_honour_once_per_character_and_modifiers_under_the_campaigns_ruling(ledger):
    first = run(ledger, {"command": "status award", "name": "Vasana", "honour": "rune-lord"})
    assert (first["amount"], first["status"]["total"]) == (600, 600)
    assert "only once" in refused(ledger, Refusal, StatusAward(name="Vasana", honour="rune-lord"))
    assert ledger.execute(StatusAward(name="Harrek", honour="rune-lord")).document["amount"] == 600
    assert ledger.execute(StatusAward(name="Vasana", foe="rune-master", head=True, yoke=True)).document["amount"] == 160
    ledger.execute(CampaignRule(assignment="status_modifiers=multiplicative", reason="house rule"))
    awarded = run(
        ledger, {"command": "status award", "name": "Harrek", "foe": "rune-master", "head": True, "yoke": True}
    )
    assert awarded["amount"] == 165


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"amount": 10}, "reason"),
        ({"foe": "troll", "honour": "thane"}, "exactly one"),
        ({}, "exactly one"),
        ({"foe": "dragon"}, "unknown foe"),
        ({"honour": "king"}, "unknown honour"),
        ({"magic_item": 11}, "magic_item"),
        ({"leadership": -5}, "leadership"),
        ({"foe": "troll", "colour": "red"}, "unknown key 'colour'"),
        ({"amount": "10", "reason": "a string is not a number"}, "'amount'"),
    ],
)
def test_a_bad_award_is_bad_input_before_any_ledger_opens(fields, says):
    with pytest.raises(BadInput, match=says):
        commands.parse({"command": "status award", "name": "Vasana", **fields}, SYSTEM)


# checks, feats and experience ------------------------------------------------------------------------


def test_an_opposed_check_copies_the_opponents_value_and_gives_a_partial_success(ledger):
    checked = ledger.execute(Check(name="Vasana", skill="sword", roll=12, opposed_by="Harrek:sword", opposed_roll=9))
    assert checked.document["winner"] == "self" and checked.document["opponent_roll"]["value"] == 14
    assert checked.document["opponent_roll"]["result"] == "partial_success"
    assert checked.text.startswith("Vasana rolled Sword 15: 12 against 15, a success; Harrek rolled 9 against 14")
    tied = run(
        ledger,
        {"command": "check", "name": "Vasana", "skill": "sword", "roll": 15, "opposed_value": 18, "opposed_roll": 18},
    )
    assert tied["tie"] is True and tied["winner"] == "none"
    assert (
        run(ledger, {"command": "check", "name": "Vasana", "skill": "sword", "roll": 20})["roll"]["result"] == "fumble"
    )
    refused(ledger, NotFound, Check(name="Vasana", skill="sword", opposed_by="Nobody:sword"))
    refused(ledger, BadInput, Check(name="Vasana", skill="juggling", roll=3))


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"opposed_roll": 4}, "needs an opponent"),
        ({"opposed_by": "Harrek"}, "NAME:SKILL"),
        ({"opposed_by": "Harrek:sword", "opposed_value": 12}, "not both"),
        ({"roll": 21}, "1 to 20"),
    ],
)
def test_a_bad_check_is_bad_input_before_any_ledger_opens(fields, says):
    with pytest.raises(BadInput, match=says):
        commands.parse({"command": "check", "name": "Vasana", "skill": "sword", **fields}, SYSTEM)


def test_a_feat_is_named_and_described(ledger):
    with pytest.raises(BadInput, match="'describe' is required"):
        commands.parse({"command": "feat", "name": "Vasana", "what": "sword", "roll": 3}, SYSTEM)
    done = ledger.execute(Feat(name="Vasana", what="sword", roll=7, describe="leaps the shield wall")).document
    assert (done["result"], done["knockdown"], done["value"]) == ("critical", False, 15)
    failed = run(ledger, {"command": "feat", "name": "Vasana", "what": "str", "roll": 8, "describe": "lifts the gate"})
    assert (failed["result"], failed["knockdown"]) == ("fumble", True)
    assert "knocked_down" in failed["condition"]["states"]


def test_experience_a_month_after_an_adventure_only_under_that_ruling(ledger):
    ledger.execute(Check(name="Vasana", skill="sword", roll=5, award_check=True))
    refused(ledger, Refusal, Experience(name="Vasana", dice={"sword": 17}))  # experience_timing=winter
    ledger.execute(CampaignRule(assignment="experience_timing=month_after_adventure", reason="short campaigns"))
    assert Experience.model_validate({"name": "Vasana", "dice": "sword=17,pow=4"}).dice == {"sword": 17, "pow": 4}
    with pytest.raises(BadInput, match="keyed|CHECK=N"):
        Experience.model_validate({"name": "Vasana", "dice": "17"})
    rolled = run(ledger, {"command": "experience", "name": "Vasana", "dice": {"sword": 17}})
    assert rolled["experience"] == [{"what": "sword", "roll": 17, "from": 15, "to": 16}]
    refused(ledger, Refusal, Experience(name="Vasana"))  # no checks left


# oaths and geasa -------------------------------------------------------------------------------------


def test_oaths_sworn_fulfilled_and_broken(ledger):
    sworn = ledger.execute(OathSwear(name="Vasana", text="avenge my father"))
    assert sworn.document["id"] == "oath-1" and '"avenge my father"' in sworn.text
    done = run(ledger, {"command": "oath fulfil", "name": "Vasana", "oath": "avenge my father", "status": 150})
    assert (done["status_gained"], done["status"]["total"]) == (150, 150)
    refused(ledger, Refusal, OathFulfil(name="Vasana", oath="oath-1", status=150))
    refused(ledger, NotFound, {"command": "oath fulfil", "name": "Vasana", "oath": "oath-9", "status": 10})
    with pytest.raises(BadInput, match="'status'"):
        commands.parse({"command": "oath fulfil", "name": "Vasana", "oath": "oath-1", "status": -5}, SYSTEM)
    run(ledger, {"command": "oath swear", "name": "Vasana", "text": "guard the ford", "id": "ford"})
    broken = ledger.execute(OathBreak(name="Vasana", oath="ford", grave=True, honor_roll=4)).document
    assert (broken["honor_loss"], broken["honor_from"], broken["honor_to"], broken["dice"][0]["source"]) == (
        4,
        16,
        12,
        "table",
    )
    with pytest.raises(BadInput, match="grave"):
        OathBreak(name="Vasana", oath="ford", honor_roll=3)
    with pytest.raises(BadInput, match="d6"):
        commands.parse({"command": "oath break", "name": "Vasana", "oath": "x", "grave": True, "honor_roll": 7}, SYSTEM)


@pytest.mark.parametrize("clan, status", [(False, 10), (True, -10)])
def test_a_geas_taken_and_broken(ledger, clan, status):
    assert ledger.execute(GeasTake(name="Vasana", text="never eat goose", clan=clan)).document["id"] == "geas-1"
    broken = run(ledger, {"command": "geas break", "name": "Vasana", "geas": "never eat goose", "honor_roll": 3})
    assert (broken["status_gained"], broken["status"]["total"], broken["honor_to"]) == (status, max(status, 0), 13)
    refused(ledger, Refusal, {"command": "geas break", "name": "Vasana", "geas": "geas-1"})


# tactics ---------------------------------------------------------------------------------------------


def test_a_great_blow_and_a_disarm_copy_the_opponents_values(ledger):
    blow = ledger.execute(
        Tactic(
            name="Vasana",
            tactic="great-blow",
            skill="sword",
            opponent=["Harrek:sword"],
            roll=[8],
            opponent_roll=[16],
            dice=["great_blow=4"],
        )
    ).document
    assert (blow["modifier"], blow["rolls"]["attack"]["value"], blow["winner"], blow["effects"]) == (
        -5,
        10,
        "self",
        {"extra_damage": 4},
    )
    disarm = run(
        ledger,
        {
            "command": "tactic",
            "name": "Vasana",
            "tactic": "disarm",
            "skill": "sword",
            "opponent": ["Harrek:sword"],
            "damage": "4d6",
            "roll": [5],
            "opponent_roll": [17],
            "dice": ["damage=6,5,4,3", "distance=4"],
        },
    )
    assert disarm["effects"] == {"damage": 18, "disarmed": True, "metres": 3}
    fought = ledger.execute(
        Tactic.model_validate(
            {
                "name": "Vasana",
                "tactic": "multiple-opponents",
                "skill": "sword",
                "opponent": ["Harrek:sword"],
                "opponent_value": [8],
                "roll": "3,4",
                "opponent_roll": "18,19",
            }
        )
    ).document
    assert fought["modifier"] == -5 and fought["effects"] == {"wins": 2}


@pytest.mark.parametrize(
    "fields, error, says",
    [
        (
            {"tactic": "great-blow", "skill": "sword", "opponent_value": [10], "damage": "2d6"},
            BadInput,
            "takes no damage",
        ),
        ({"tactic": "spell-weapon-fumble", "opponent_value": [10]}, BadInput, "takes no opponent"),
        ({"tactic": "juggle", "skill": "sword"}, BadInput, "'tactic'"),
        ({"tactic": "great-blow", "skill": "sword", "dice": ["great_blow=x"]}, BadInput, "whole numbers"),
    ],
)
def test_a_tactic_given_what_it_does_not_take_is_bad_input_before_any_ledger_opens(fields, error, says):
    with pytest.raises(error, match=says):
        commands.parse({"command": "tactic", "name": "Vasana", **fields}, SYSTEM)


def test_tactics_refused_or_unknown_at_the_ledger_write_nothing(ledger):
    refused(ledger, BadInput, Tactic(name="Vasana", tactic="great-blow", skill="sword"))  # no opponent
    refused(ledger, NotFound, Tactic(name="Vasana", tactic="great-blow", skill="sword", opponent=["Nobody:sword"]))
    small = Tactic(
        name="Vasana", tactic="break-shield", skill="sword", opponent_value=[10], damage="1d4", small_weapon=True
    )
    refused(ledger, Refusal, small)


def test_the_tactic_names_are_the_domains():
    from typing import get_args

    assert set(get_args(TacticName)) == set(MODELS)


# injuries and healing --------------------------------------------------------------------------------


def test_wounds_first_aid_magic_rest_and_chirurgery(ledger):
    hurt = ledger.execute(Injure(name="Vasana", damage=16, save_roll=12)).document
    assert (hurt["wound"], hurt["major"], hurt["knockdown"], hurt["hp"]) == (1, True, True, 12)
    assert hurt["dice"] == [] and "ignored" not in hurt  # the save roll is accepted and recorded nowhere
    hurt = run(ledger, {"command": "injure", "name": "Vasana", "damage": 5, "attacker": "Harrek"})
    assert (hurt["wound"], hurt["unconscious"], hurt["hp"]) == (2, True, 7)
    run(ledger, {"command": "injure", "name": "Harrek", "damage": 6})
    aided = ledger.execute(FirstAid(name="Harrek", wound=1, healer="vasana", roll=4, heal_roll=3)).document
    assert (aided["healed"], aided["hp"], aided["roll"]["value"]) == (3, 23, 12)
    refused(ledger, Refusal, {"command": "first-aid", "name": "Harrek", "wound": 1, "heal_roll": 2})
    healed = run(ledger, {"command": "heal", "name": "Harrek", "wound": 1, "points": 5})
    assert (healed["healed"], healed["hp"]) == (3, 26)
    refused(ledger, Refusal, Heal(name="Harrek", wound=1, points=5))
    refused(ledger, Refusal, Chirurgery(name="Vasana", healer="vasana", roll=3))  # never the patient
    ledger.execute(CharacterAdd(name="Healer", stat=["chirurgery=14"]))
    done = run(ledger, {"command": "chirurgery", "name": "Vasana", "healer": "Healer", "roll": 9})
    assert (done["treated"], done["roll"]["result"]) == (True, "success")
    rested = ledger.execute(Rest(name="Vasana", hours=2 * 7 * 24 + 23))
    assert (rested.document["weeks"], rested.document["healing_rate"]) == (2, 2)
    assert rested.text.startswith("Vasana takes 2 full weeks of rest")
    assert run(ledger, {"command": "rest", "name": "Vasana", "hours": 400, "interrupted": True})["healed"] == {}


def test_injury_times_and_the_dead(ledger):
    run(ledger, {"command": "injure", "name": "Harrek", "damage": 6, "at": "1621-03-01T12:00"})
    refused(ledger, Refusal, FirstAid(name="Harrek", wound=1, at="1621-03-03T12:00"))  # a day old at most
    refused(ledger, Refusal, Heal(name="Harrek", wound=1, points=2, at="1621-03-01T14:00"))  # an hour old
    assert (
        ledger.execute(Heal(name="Harrek", wound=1, points=2, any_age=True, at="1621-03-05T12:00")).document["healed"]
        == 2
    )
    ledger.execute(Injure(name="Harrek", damage=40))
    refused(ledger, Refusal, Injure(name="Harrek", damage=3))
    refused(ledger, Refusal, {"command": "heal", "name": "Harrek", "wound": 2, "points": 5, "any_age": True})
    refused(ledger, Refusal, Rest(name="Harrek", hours=400))
    assert run(ledger, {"command": "injure", "name": "Harrek", "damage": 3, "force": True})["hp"] < 0
    assert ledger.execute(Heal(name="Harrek", wound=2, points=5, force=True)).document["healed"] == 5
    assert run(ledger, {"command": "rest", "name": "Harrek", "hours": 1, "force": True})["healed"] == {}


@pytest.mark.parametrize(
    "document, says",
    [
        ({"command": "injure", "name": "V", "damage": 1, "at": "last tuesday"}, "ISO-8601"),
        ({"command": "injure", "name": "V", "damage": -1}, "'damage'"),
        ({"command": "rest", "name": "V", "hours": 1, "minutes": 5}, "exactly one of"),
        ({"command": "rest", "name": "V"}, "exactly one of"),
        ({"command": "first-aid", "name": "V", "wound": 1, "skill": 10, "healer": "H"}, "not both"),
        ({"command": "first-aid", "name": "V", "wound": 1, "roll": 5}, "healer"),
        ({"command": "first-aid", "name": "V", "wound": 1, "heal_roll": 4}, "d3"),
        ({"command": "chirurgery", "name": "V", "roll": 5}, "one of them"),
        ({"command": "chirurgery", "name": "V", "skill": 5, "damage_roll": 7}, "d6"),
    ],
)
def test_bad_injury_documents_are_bad_input_before_any_ledger_opens(document, says):
    with pytest.raises(BadInput, match=says):
        commands.parse(document, SYSTEM)


# the Winter Phase ------------------------------------------------------------------------------------

PLAN = {
    "characters": {
        "Vasana": {
            "productivity": "stewardship",
            "worship": "religion",
            "leadership_people": 250,
            "rolls": {"productivity": 14, "worship": [6], "experience": {"pow": 11, "stewardship": 20, "sword": 9}},
        }
    }
}


def test_a_winter_as_the_cli_runs_it_then_a_second_for_the_year_is_refused(ledger):
    run(ledger, {"command": "geas take", "name": "Vasana", "text": "never eat goose"})
    ledger.execute(Check(name="Vasana", skill="sword", roll=7, award_check=True))
    before = count(ledger)
    winter = run(ledger, {"command": "winter", "year": 1621, "land_roll": 5, "rolls": PLAN})
    assert (winter["year"], winter["land"]) == (1621, {"roll": 5, "modifier": 2, "source": "table"})
    vasana = winter["characters"]["Vasana"]
    assert vasana["status"] == 25 + 97 + 34 + 100 + 5 + 2 == 263  # as tests/cli/test_pendragon.py counts it
    assert vasana["experience"] == [
        {"what": "pow", "roll": 11, "from": 10, "to": 11},
        {"what": "stewardship", "roll": 20, "from": 12, "to": 13},
        {"what": "sword", "roll": 9, "from": 15, "to": 15},
    ]
    assert winter["characters"]["Harrek"]["status"] == 0 and count(ledger) == before + 3
    assert refused(ledger, Refusal, Winter(year=1621, land_roll=3)) == "the winter of year 1621 has already been run"
    assert ledger.execute(Winter(land_roll=3)).document["year"] == 1622


def test_a_winter_plan_skips_productivity_and_worship_with_null_and_the_dead_without_one(ledger):
    ledger.execute(Injure(name="Harrek", damage=40))
    plan = {
        "year": 1625,
        "land": 1,
        "characters": {
            "vasana": {
                "productivity": None,
                "worship": None,
                "aging": {"str": -1},
                "training": [{"kind": "skill", "what": "first_aid"}, {"kind": "spell", "what": "bladesharp"}],
                "rolls": {"training": {"first_aid": 17}},
            }
        },
    }
    command = commands.parse({"command": "winter", "rolls": plan}, SYSTEM)
    assert command.document()["rolls"]["characters"]["vasana"]["productivity"] is None  # kept: null skips
    assert commands.parse(command.document(), SYSTEM) == command
    reply = ledger.execute(command)
    winter = reply.document
    assert (winter["year"], winter["skipped"], list(winter["characters"])) == (1625, ["Harrek"], ["Vasana"])
    assert winter["characters"]["Vasana"]["economics"] is None and winter["characters"]["Vasana"]["worship"] is None
    assert reply.text.endswith("Skipped, being dead: Harrek.")
    assert sheet(ledger).str == 13 and sheet(ledger).skills["first_aid"] == 13


@pytest.mark.parametrize(
    "fields, error, says",
    [
        ({"rolls": {"characters": {"Nobody": {}}}}, NotFound, "Nobody"),
        ({"rolls": {"characters": {"Vasana": {"worship": "stewardship"}}}}, BadInput, "worship"),
        ({"rolls": {"characters": {"Vasana": {"aging": {"str": 1}}}}}, BadInput, "aging"),
    ],
)
def test_a_bad_winter_plan_at_the_ledger_writes_nothing(ledger, fields, error, says):
    assert says in refused(ledger, error, {"command": "winter", **fields})


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"rolls": {"characters": {"Vasana": {"colour": "blue"}}}}, "unknown key 'rolls.characters.Vasana.colour'"),
        ({"rolls": {"characters": {"Vasana": {"rolls": {"luck": [3]}}}}}, "unknown key"),
        ({"rolls": {"land": 4}, "land_roll": 5}, "disagrees"),
        ({"rolls": {"year": 3}, "year": 4}, "disagrees"),
        ({"land_roll": 7}, "d6"),
        ({"rolls": {"land": "4"}}, "'rolls.land'"),  # a plan is JSON: a number is a number
        ({"rolls": {"characters": {"Vasana": {"rolls": {"experience": [11, 20]}}}}}, "never by order"),
        ({"rolls": {"characters": {"Vasana": {"training": [{"what": "sword", "physical": True}]}}}}, "physical"),
        ({"rolls": {"characters": {"Vasana": {"rolls": {"productivity": True}}}}}, "productivity"),
    ],
)
def test_a_bad_winter_document_is_bad_input_before_any_ledger_opens(fields, says):
    with pytest.raises(BadInput, match=says):
        commands.parse({"command": "winter", **fields}, SYSTEM)


def test_the_table_gives_each_winter_die_in_the_order_drawn_and_the_command_carries_them(ledger):
    ledger.execute(Check(name="Vasana", skill="sword", roll=7, award_check=True))
    answers = iter([4, 3, 15, 20, 9])
    asked: list[tuple[str, str, int]] = []

    def ask(who: str, label: str, sides: int) -> int:
        asked.append((who, label, sides))
        return next(answers)

    completed = table_dice(ledger.read(), Winter(), ask)
    assert asked == [
        ("Winter of year 1", "the land roll", 6),
        ("Vasana", "the productivity roll (stewardship)", 20),
        ("Vasana", "the worship roll (religion)", 20),
        ("Vasana", "the experience roll for stewardship", 20),
        ("Vasana", "the experience roll for sword", 20),
    ]
    assert completed.document()["rolls"]["characters"]["Vasana"]["rolls"] == {
        "productivity": [3],
        "worship": [15],
        "training": {},
        "experience": {"stewardship": [20], "sword": [9]},
    }
    winter = ledger.execute_document(completed.document()).document
    assert winter["land"] == {"roll": 4, "modifier": 0, "source": "table"}
    assert sheet(ledger).skills["stewardship"] == 13


def test_pendragon_commands_need_a_pendragon_campaign(db):
    ledger = Ledger(db, by="gm", seed=7)
    try:
        ledger.execute(CampaignNew(name="Greyhawk", system="adnd2e"))
        ledger.execute(CharacterAdd(name="Bruno", stat=["hp=30"]))
        for command in (StatusAward(name="Bruno", foe="troll"), Check(name="Bruno", skill="str"), Winter()):
            assert "a command of pendragon-pass campaigns" in refused(ledger, BadInput, command)
        with pytest.raises(BadInput, match="pendragon-pass"):
            table_dice(ledger.read(), Winter(), lambda who, label, sides: 1)
    finally:
        ledger.close()


def test_every_pendragon_command_publishes_its_documents_schema():
    pendragon = {
        name: model for name in commands.CATALOGUE for model in commands.variants(name) if SYSTEM in model.systems
    }
    assert set(pendragon) == {
        "check",
        "status award",
        "increase",
        "feat",
        "experience",
        "oath swear",
        "oath fulfil",
        "oath break",
        "geas take",
        "geas break",
        "tactic",
        "injure",
        "first-aid",
        "heal",
        "rest",
        "chirurgery",
        "winter",
    }
    for name, model in pendragon.items():
        schema = commands.schema_of(model)
        assert schema["properties"]["command"] == {"const": name} and schema["additionalProperties"] is False
        assert model.role == ("gm" if name in ("status award", "winter") else "player"), name
        assert model.character == (None if name == "winter" else "name"), name
