"""The Potestas and AD&D 2E commands through the application layer, without Click, on SQLite and PostgreSQL:
every command as a model (`Ledger.execute`) and as a document (`execute_document`) replies what the command
line prints, and a command that does not fit fails before anything is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Run

from chronicle.domain.errors import BadInput, Refusal
from chronicle.ledger.application import commands
from chronicle.ledger.application.commands import adnd2e, potestas
from chronicle.ledger.application.commands.table import CampaignNew, CharacterAdd
from chronicle.ledger.application.ledger import Ledger


def count(ledger: Ledger) -> int:
    return ledger.app.recorder.max_notification_id() or 0


@pytest.fixture
def ledger(db):
    opened = Ledger(db, by="gm", seed=7)
    yield opened
    opened.close()


def started(ledger: Ledger, system: str, *characters: tuple[str, ...]) -> None:
    ledger.execute(CampaignNew(name="Table", system=system))
    for name, *stats in characters:
        ledger.execute(CharacterAdd(name=name, stat=list(stats)))


BRAND = ("Brand", "fort=4", "dr=2")
IVANIOR = ("Ivanior", "str=14", "bab=15", "dex=12", "weapons=sword:damage=1d6")
GUARD = ("Guard", "fort=2", "defence=8")

# --- the same outcomes as the command line ------------------------------------------------------------

# (command line, its document): run in order, each through the CLI on one ledger and the layer on another
POTESTAS_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("injure Brand --damage 12 --save-roll 3", {"command": "injure", "name": "Brand", "damage": 12, "save_roll": 3}),
    (
        "injure Brand --damage 4 --nonlethal --type slashing,magic --save-roll 8",
        {
            "command": "injure",
            "name": "Brand",
            "damage": 4,
            "nonlethal": True,
            "type": "slashing,magic",
            "save_roll": 8,
        },
    ),
    ("exert Brand --action charged", {"command": "exert", "name": "Brand", "action": "charged"}),
    ("dying-save Brand --roll 5 --rounds 1", {"command": "dying-save", "name": "Brand", "roll": 5, "rounds": 1}),
    ("rest Brand --hours 16 --force", {"command": "rest", "name": "Brand", "hours": 16, "force": True}),
    ("rest Brand --minutes 5 --interrupted", {"command": "rest", "name": "Brand", "minutes": 5, "interrupted": True}),
    ("fall Guard --feet 40 --save-roll 11", {"command": "fall", "name": "Guard", "feet": 40, "save_roll": 11}),
    ("injure Brand --damage 1 --save-roll 12", {"command": "injure", "name": "Brand", "damage": 1, "save_roll": 12}),
    (
        "attack Ivanior Guard --hurried --roll 15 --dice 4,6 --save-roll 19 --save-roll 3 --save-roll 5",
        {
            "command": "attack",
            "attacker": "Ivanior",
            "target": "Guard",
            "hurried": True,
            "roll": 15,
            "dice": [4, 6],
            "save_roll": [19, 3, 5],
        },
    ),
    (
        "attack Ivanior Brand --weapon sword:damage=3,threat=19 --roll 19 --confirm-roll 2 --flanking --lethal",
        {
            "command": "attack",
            "attacker": "Ivanior",
            "target": "Brand",
            "weapon": ["sword:damage=3,threat=19"],
            "roll": 19,
            "confirm_roll": 2,
            "flanking": True,
            "nonlethal": False,
        },
    ),
    (
        "attack Ivanior Guard --roll 1 --confirm-roll 20",
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "roll": 1, "confirm_roll": 20},
    ),
]

THIEF = ("Thief", "hp=30", "level=9", "class=thief", "str=16", "weapons=club:blunt,small,damage=1d6")
GUARD_2E = ("Guard", "hp=12", "level=1", "str=16")
SLIME = ("Slime", "hp=5", "hd=1")
OGRE = ("Ogre", "hp=40", "hd=4")
BRUTE = ("Brute", "hp=20", "level=3", "str=18/76")

ADND2E_SCRIPT: list[tuple[str, dict[str, Any]]] = [
    (
        "injure Guard --damage 7 --mode sap --knockout-roll 20 --knockout-dice 2,3 --attacker Thief",
        {
            "command": "injure",
            "name": "Guard",
            "damage": 7,
            "mode": "sap",
            "knockout_roll": 20,
            "knockout_dice": [2, 3],
            "attacker": "Thief",
        },
    ),
    ("rest Guard --minutes 10", {"command": "rest", "name": "Guard", "minutes": 10}),
    ("grab state Guard --asleep", {"command": "grab state", "name": "Guard", "asleep": True}),
    (
        "attack Thief Guard --maneuver sap --weapon club --roll 12",
        {"command": "attack", "attacker": "Thief", "target": "Guard", "maneuver": "sap", "weapon": "club", "roll": 12},
    ),
    (
        "attack Thief Ogre --defender-roll 5 --roll 12",
        {"command": "attack", "attacker": "Thief", "target": "Ogre", "defender_roll": 5, "roll": 12},
    ),
    (
        "mug Thief Ogre --save-number 12 --save-roll 18 --knockout-dice 1,1",
        {
            "command": "mug",
            "mugger": "Thief",
            "victim": "Ogre",
            "save_number": 12,
            "save_roll": 18,
            "knockout_dice": [1, 1],
        },
    ),
    (
        "grab person Brute Guard --dice 1,1",
        {"command": "grab person", "grabber": "Brute", "target": "Guard", "dice": [1, 1]},
    ),
    ("grab break-hold Guard --dice 3,9", {"command": "grab break-hold", "name": "Guard", "dice": [3, 9]}),
    (
        "grab object Thief Brute --target-strength 17 --dice 5,4",
        {"command": "grab object", "grabber": "Thief", "target": "Brute", "target_strength": "17", "dice": [5, 4]},
    ),
    (
        "grab monster Brute Ogre --attacks 2-8/4-10/4-10 --carrier --dice 4,9",
        {
            "command": "grab monster",
            "grabber": "Brute",
            "target": "Ogre",
            "attacks": "2-8/4-10/4-10",
            "carrier": True,
            "dice": [4, 9],
        },
    ),
    ("grab state Guard --released", {"command": "grab state", "name": "Guard", "released": True}),
]


def cli_table(run: Run, system: str, *characters: tuple[str, ...]) -> None:
    run("campaign", "new", "Table", "--system", system)
    for name, *stats in characters:
        run("character", "add", name, *(part for stat in stats for part in ("--stat", stat)))


@pytest.mark.parametrize(
    ("system", "characters", "script"),
    [
        ("potestas", (BRAND, IVANIOR, GUARD), POTESTAS_SCRIPT),
        ("adnd2e", (THIEF, GUARD_2E, OGRE, BRUTE), ADND2E_SCRIPT),
    ],
    ids=["potestas", "adnd2e"],
)
def test_every_document_replies_what_its_command_line_prints(ledger, tmp_path, system, characters, script):
    run = Run(str(tmp_path / "cli.db"))
    cli_table(run, system, *characters)
    started(ledger, system, *characters)
    for line, document in script:
        printed = run.json(*line.split())
        replied = ledger.execute_document(document).document
        assert json.loads(json.dumps(replied)) == printed, line
    assert ledger.execute_document({"command": "campaign new", "name": "Other", "system": system}).document
    assert run.json("verify")["ok"]


def test_a_model_is_its_document_and_replies_the_same(ledger, tmp_path):
    started(ledger, "potestas", BRAND)
    model = potestas.Injure(name="Brand", damage=12, type="slashing", save_roll=3)
    assert model.document() == {
        "command": "injure",
        "name": "Brand",
        "damage": 12,
        "nonlethal": False,
        "type": "slashing",
        "save_roll": 3,
        "force": False,
    }
    assert commands.parse(model.document(), "potestas") == model
    reply = ledger.execute(model)
    assert (reply.document["after_dr"], reply.document["outcome"], reply.document["version"]) == (10, "wound", 2)
    assert "Brand takes 12 lethal damage (slashing)." in reply.text
    assert reply.text.endswith(f"Condition: unhurt -> 1 wound; disabled.  [event {reply.document['event']}]")


# --- Potestas -----------------------------------------------------------------------------------------


def test_an_attack_assigns_the_tables_damage_dice_itself_and_records_each_hit(ledger):
    started(ledger, "potestas", IVANIOR, GUARD)
    before = count(ledger)
    reply = ledger.execute(
        potestas.Attack(attacker="Ivanior", target="Guard", hurried=True, roll=15, dice=[4, 6], save_roll=[19, 3, 5])
    )
    out = reply.document
    dice = {d["purpose"]: (d["faces"], d["source"]) for d in out["attack"]["dice"]}
    assert dice["damage:1:1"] == ([4], "table") and dice["damage:2:1"] == ([6], "table")
    assert [i["damage"] for i in out["injuries"]] == [4 + 2, 6 + 2]  # + Str 14
    assert [i["outcome"] for i in out["injuries"]] == ["no_effect", "wound"]
    assert any("#3" in note for note in out["notes"]) and count(ledger) == before + 3
    assert "The table's save die for hit 3 (5) was not needed: there was no hit 3." in reply.text
    assert "Hit 2: 6 (sword) + 2 Str + 0 enhancement = 8 damage." in reply.text


@pytest.mark.parametrize(
    "document",
    [
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "roll": 15, "dice": [4, 6]},  # one hit
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "roll": 1, "dice": [4]},  # a miss
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "dice": [4]},  # no attack roll
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "roll": 15, "dice": [7]},  # not a d6
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "weapon": ["sword:sharpness=3"]},
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "hurried": True, "coup_de_grace": True},
        {"command": "attack", "attacker": "Ivanior", "target": "Guard", "range_penalty": 2},
        {"command": "attack", "attacker": "Ivanior", "target": "Nobody"},
        {"command": "injure", "name": "Guard", "damage": 5, "save_roll": 21},
        {"command": "injure", "name": "Guard", "damage": 5, "type": "plasma"},
        {"command": "injure", "name": "Guard", "damage": -1},
        {"command": "injure", "name": "Guard", "damage": 5, "sharpness": 3},
        {"command": "injure", "name": "Guard", "damage": "5"},
        {"command": "rest", "name": "Guard"},
        {"command": "rest", "name": "Guard", "hours": 8, "minutes": 20},
        {"command": "rest", "name": "Guard", "hours": -8},
        {"command": "dying-save", "name": "Guard", "roll": 0},
        {"command": "dying-save", "name": "Guard", "rounds": -1},
        {"command": "fall", "name": "Guard", "feet": -3},
        {"command": "mug", "mugger": "Ivanior", "victim": "Guard", "save_number": 12},
    ],
)
def test_potestas_bad_input_is_refused_and_writes_nothing(ledger, document):
    started(ledger, "potestas", IVANIOR, GUARD)
    before = count(ledger)
    with pytest.raises(BadInput):
        ledger.execute_document(document)
    assert count(ledger) == before


def test_checks_that_need_no_ledger_fail_before_one_is_opened(tmp_path):
    for build in (
        lambda: potestas.Rest(name="Brand"),
        lambda: potestas.Injure(name="Brand", damage=5, save_roll=21),
        lambda: potestas.Attack(attacker="A", target="B", confirm_roll=3),
        lambda: adnd2e.Injure(name="Guard", damage=5, mode="sap", knockout_roll=101),
        lambda: adnd2e.GrabState(name="Guard"),
        lambda: adnd2e.GrabState(name="Guard", asleep=True, released=True),
        lambda: adnd2e.GrabMonster(grabber="A", target="B", target_strength="17", attacks="1-8"),
        lambda: adnd2e.GrabPerson(grabber="A", target="B", strength="19/50"),
    ):
        with pytest.raises(BadInput):
            build()
    never = tmp_path / "never.db"
    for line in ("dying-save Brand --roll 25", "grab state Guard", "fall Brand --feet 10 --save-roll 0"):
        assert Run(str(never))(*line.split()).exit_code == 2
    assert not (tmp_path / "never.db").exists()


def test_potestas_refusals_write_nothing_and_force_overrides(ledger):
    started(ledger, "potestas", BRAND, IVANIOR)
    for roll in (1, 1, 1):
        ledger.execute(potestas.Injure(name="Brand", damage=12, save_roll=roll))
    before = count(ledger)
    for refused in (
        potestas.Injure(name="Brand", damage=5),
        potestas.Attack(attacker="Ivanior", target="Brand", roll=15),
        potestas.Exert(name="Brand"),
        potestas.DyingSave(name="Brand", roll=10),
    ):
        with pytest.raises(Refusal):
            ledger.execute(refused)
    assert count(ledger) == before
    forced = ledger.execute(potestas.Attack(attacker="Ivanior", target="Brand", roll=15, force=True, save_roll=[10]))
    assert forced.document["hit"] and count(ledger) == before + 2


def test_a_dying_save_exert_rest_and_fall_through_the_layer(ledger):
    started(ledger, "potestas", BRAND)
    ledger.execute(potestas.Injure(name="Brand", damage=12, save_roll=3))  # disabled
    exerted = ledger.execute(potestas.Exert(name="Brand", action="charged"))
    assert exerted.document["worsened"] == ["dying"]
    assert "Brand makes a strenuous effort: \u201ccharged\u201d." in exerted.text
    saved = ledger.execute_document({"command": "dying-save", "name": "Brand", "roll": 12})
    assert (saved.document["dc"], saved.document["result"]) == (10, "stable")
    rested = ledger.execute_document({"command": "rest", "name": "Brand", "hours": 16})
    assert rested.document["condition"]["states"] == [] and rested.text.startswith("Brand rests for 16 hours")
    fell = ledger.execute(potestas.Fall(name="Brand", feet=100, save_roll=10))
    assert (fell.document["hits"], fell.document["damage"], fell.document["after_dr"]) == (16, 64, 62)
    assert fell.text.startswith("Brand falls: a fall of 100 ft strikes at")


def test_a_save_die_the_rules_did_not_need_is_noted_in_both_replies(ledger):
    started(ledger, "potestas", BRAND)
    reply = ledger.execute(potestas.Injure(name="Brand", damage=2, save_roll=12))
    assert reply.document["outcome"] == "no_damage" and reply.document["ignored"] == {"save": [12]}
    assert "ignored" in reply.document["notes"][0]
    assert (
        "Note: The table's save die (12) was not needed: no damage got past damage reduction, so no save was "
        "rolled." in reply.text
    )


def test_a_command_of_another_system_is_bad_input(ledger):
    started(ledger, "adnd2e", GUARD_2E)
    for command in (potestas.Exert(name="Guard"), potestas.Fall(name="Guard", feet=10)):
        with pytest.raises(BadInput, match="potestas"):
            ledger.execute(command)
    with pytest.raises(BadInput, match="potestas"):
        ledger.execute_document({"command": "dying-save", "name": "Guard"})


# --- AD&D 2E ------------------------------------------------------------------------------------------


def test_a_sap_knocks_out_with_the_tables_dice(ledger):
    started(ledger, "adnd2e", GUARD_2E)
    reply = ledger.execute(adnd2e.Injure(name="Guard", damage=7, mode="sap", knockout_roll=20, knockout_dice=[2, 3]))
    out = reply.document
    assert (out["real"], out["temporary"], out["knocked_out"], out["knockout_rounds"]) == (1, 6, True, 5)
    assert (
        "The knockout chance is 35% (5% a point of damage, at most 40%); the d100 rolled 20: Guard is knocked"
        in reply.text
    )
    assert "-> 5/12 hp (1 real, 6 temporary), unconscious, knocked out for 5 rounds." in reply.text
    rested = ledger.execute_document({"command": "rest", "name": "Guard", "minutes": 5})
    assert rested.document["condition"]["knocked_out_rounds"] == 0


def test_an_attack_a_mugging_and_dice_not_needed(ledger):
    started(ledger, "adnd2e", THIEF, GUARD_2E, OGRE)
    ledger.execute(adnd2e.GrabState(name="Guard", asleep=True))
    hit = ledger.execute(adnd2e.Attack(attacker="Thief", target="Guard", maneuver="sap", weapon="club", roll=12))
    assert (hit.document["attacker"], hit.document["hit"], hit.document["ignored"]) == ("Thief", True, {"attack": [12]})
    assert "Note: The table's attack die (12) was not needed: the blow hits without a roll." in hit.text
    mugged = ledger.execute_document(
        {
            "command": "mug",
            "mugger": "Thief",
            "victim": "Ogre",
            "save_number": 12,
            "save_roll": 18,
            "knockout_dice": [1, 1],
        }
    )
    assert (mugged.document["mugger"], mugged.document["saved"]) == ("Thief", True)
    assert mugged.document["ignored"] == {"knockout_rounds": [1, 1]}
    assert "was not needed: the victim saved." in mugged.text
    with pytest.raises(Refusal, match="cannot mug itself"):
        ledger.execute(adnd2e.Mug(mugger="Thief", victim="thief", save_number=12))


def test_a_grab_holds_and_the_held_breaks_free(ledger):
    started(ledger, "adnd2e", BRUTE, GUARD_2E, ("Horse", "hp=20", "hd=3", "size=large"))
    held = ledger.execute(adnd2e.GrabPerson(grabber="Brute", target="Guard", dice=[1, 1]))
    assert (held.document["grabber"], held.document["won"]) == ("Brute", True)
    assert held.document["condition"]["held_by"] == "Brute"
    freed = ledger.execute_document({"command": "grab break-hold", "name": "Guard", "dice": [3, 9]})
    assert freed.document["holder"] == "Brute"
    horse = {"command": "grab monster", "grabber": "Brute", "target": "Horse", "attacks": "1-3/1-3", "carrier": True}
    assert ledger.execute_document({**horse, "dice": [2, 5]}).document["won"]
    before = count(ledger)
    with pytest.raises(BadInput, match="no str"):
        ledger.execute(adnd2e.GrabBreakHold(name="Horse", dice=[3, 9]))  # nothing says how strong the horse is
    with pytest.raises(Refusal, match="not held"):
        ledger.execute(adnd2e.GrabBreakHold(name="Guard", dice=[3, 9]))
    assert count(ledger) == before
    broke = ledger.execute(adnd2e.GrabBreakHold(name="Horse", attacks="1-3/1-3", carrier=True, dice=[3, 9]))
    assert (broke.document["first_strength"], broke.document["won"]) == ("12", True)


@pytest.mark.parametrize(
    "document",
    [
        {"command": "injure", "name": "Guard", "damage": 5},  # no mode
        {"command": "injure", "name": "Guard", "damage": 5, "mode": "gentle"},
        {"command": "injure", "name": "Guard", "damage": 5, "mode": "sap", "knockout_dice": "2,x"},
        {"command": "attack", "attacker": "Thief", "target": "Guard", "roll": 25},
        {"command": "attack", "attacker": "Thief", "target": "Guard", "weapon": "dagger"},
        {"command": "mug", "mugger": "Thief", "victim": "Guard", "save_number": 21},
        {"command": "grab state", "name": "Guard", "asleep": True, "held_by": "Thief"},
        {"command": "grab object", "grabber": "Thief", "target": "Guard", "strength": "huge"},
        {"command": "grab object", "grabber": "Slime", "target": "Thief"},  # the slime's sheet has no str
        {"command": "grab monster", "grabber": "Thief", "target": "Guard", "attacks": "bite"},
        {"command": "grab tackle", "grabber": "Thief", "target": "Guard"},
        {"command": "exert", "name": "Guard"},
    ],
)
def test_adnd2e_bad_input_is_refused_and_writes_nothing(ledger, document):
    started(ledger, "adnd2e", THIEF, GUARD_2E, SLIME)
    before = count(ledger)
    with pytest.raises(BadInput):
        ledger.execute_document(document)
    assert count(ledger) == before


def test_every_command_here_is_published_with_its_systems_and_role():
    published = commands.published()
    for name in ("dying-save", "exert", "fall"):
        assert published[name]["systems"] == ["potestas"]
    for name in ("mug", "grab object", "grab person", "grab monster", "grab break-hold", "grab state"):
        assert published[name]["systems"] == ["adnd2e"]
    assert published["attack"]["systems"] == ["adnd2e", "potestas"]
    attack = commands.model_for("attack", "potestas")
    assert (attack.role, attack.character) == ("player", "attacker")
    assert "save_roll" in attack.model_json_schema()["properties"]
    assert (adnd2e.GrabState.role, adnd2e.Mug.character) == ("gm", "mugger")
