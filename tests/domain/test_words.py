"""Words, not identifiers: every event type of every system has its teller, and one that has
none is an error, never a sentence made of its class name; every state of every system has its words,
and a summary or sheet of a character in any state holds no identifier; and the sentences that read
wrongly read as people write them."""

from __future__ import annotations

import importlib
import pkgutil
import re
import typing
from datetime import UTC, datetime
from uuid import uuid4

import pytest
from test_pendragon_support import act, character

import chronicle.domain
from chronicle.domain import explain as common
from chronicle.domain import systems
from chronicle.domain.adnd2e.condition import Condition as Adnd2eCondition
from chronicle.domain.events import DomainEvent, Event
from chronicle.domain.explain import explain, outcome_words, state_words
from chronicle.domain.pendragon.condition import Condition as PendragonCondition
from chronicle.domain.pendragon.condition import Wound
from chronicle.domain.pendragon.events import StatusAwarded
from chronicle.domain.potestas.condition import Condition as PotestasCondition
from chronicle.domain.potestas.condition import Lethal, Nonlethal
from chronicle.domain.tellers import Unexplained

WHEN = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def event_types() -> list[type[DomainEvent]]:
    """Every event class the domain defines that is recorded as it is (no other event class derives from it)."""
    for module in pkgutil.walk_packages(chronicle.domain.__path__, "chronicle.domain."):
        importlib.import_module(module.name)
    found, stack = set(), [DomainEvent]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        # the domain's leaves (a test's own subclass of one, a later version, leaves it a leaf of the domain)
        ours = [sub for sub in cls.__subclasses__() if sub.__module__.startswith("chronicle.domain.")]
        if not ours and cls.__module__.startswith("chronicle.domain."):
            found.add(cls)
    return sorted(found, key=lambda c: (c.__module__, c.__name__))


def system_of(event_type: type) -> str | None:
    for system, package in systems.PACKAGES.items():
        if event_type.__module__.startswith(f"chronicle.domain.{package}."):
            return system
    return None


def test_the_domain_defines_the_events_of_every_system_and_the_common_ones():
    names = {(system_of(t), t.__name__) for t in event_types()}
    for system in systems.PACKAGES:
        assert {(system, e.__name__) for e in systems.get(system).EVENTS} <= names
    assert {(None, "CampaignStarted"), (None, "Amended"), (None, "NoteTaken"), (None, "CampaignChosen")} <= names


@pytest.mark.parametrize("event_type", event_types(), ids=lambda t: f"{t.__module__.split('.')[-2]}.{t.__name__}")
def test_every_event_type_has_its_teller(event_type):
    system = system_of(event_type)
    own = None if system is None else importlib.import_module(f"chronicle.domain.{systems.PACKAGES[system]}.explain")
    assert event_type in (common.TELLERS if own is None else own.TELLERS), f"{event_type.__name__} has no sentences"
    if system is not None:
        assert event_type in systems.get(system).EVENTS  # folded, explained and listed alike


class Unheard(Event):
    """An event type no teller knows (defined here only)."""


def test_an_event_no_teller_knows_is_an_error_not_its_class_name():
    event = Unheard(originator_id=uuid4(), originator_version=2, timestamp=WHEN, by="gm")
    with pytest.raises(Unexplained, match="no teller for the event type Unheard"):
        explain(event, "Bruno", None)
    for system in systems.PACKAGES:
        with pytest.raises(Unexplained):
            explain(event, "Bruno", system)


# snake_case words (`needs_chirurgery`), class names (`CampaignChosen`; PenDragon is the system's name), `//`
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?!PenDragon\b)[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+\b|//")


def every_state() -> list[tuple[str, str, object, object]]:
    """(system, kind, sheet, condition) together holding every state each system has."""
    potestas, adnd2e, pendragon = (systems.get(name) for name in ("potestas", "adnd2e", "pendragon-pass"))
    found: list[tuple[str, str, object, object]] = [
        (
            "potestas",
            kind,
            potestas.parse_sheet({}, kind),
            PotestasCondition(wounds=2, lethal=lethal, nonlethal=bruised),
        )
        for kind in ("character", "object")
        for lethal in typing.get_args(Lethal)
        for bruised in typing.get_args(Nonlethal)
    ]
    held = {"asleep": True, "magically_held": True, "held_by": "Brute", "knocked_out_rounds": 3}
    found += [
        ("adnd2e", "character", adnd2e.parse_sheet({"hp": "30"}), Adnd2eCondition(real_damage=31, dead=True, **held)),
        ("adnd2e", "character", adnd2e.parse_sheet({"hp": "30"}), Adnd2eCondition(unconscious=True, **held)),
    ]
    major = Wound(id=1, received=14, amount=14, major=True, needs_chirurgery=True)
    sheet = pendragon.parse_sheet({"siz": "15", "con": "13"})
    for amount in (14, 40):
        wounds = (major.model_copy(update={"amount": amount}),)
        found.append(
            (
                "pendragon-pass",
                "character",
                sheet,
                PendragonCondition(wounds=wounds, unconscious=True, knocked_down=True),
            )
        )
    return found


def states_of(system: str, sheet, condition) -> list[str]:
    return systems.get(system).view(sheet, condition)["condition"]["states"]


@pytest.mark.parametrize("system", sorted(systems.PACKAGES))
def test_every_state_of_the_system_has_its_words_kept_beside_it(system):
    rules = systems.get(system)
    seen = {
        state
        for name, _, sheet, condition in every_state()
        if name == system
        for state in states_of(name, sheet, condition)
    }
    assert seen == set(rules.STATE_WORDS), "every state the system reaches, and no other, has its words"
    for state, said in rules.STATE_WORDS.items():
        assert said and not IDENTIFIER.search(said), (state, said)
        assert state_words(system, state) == said


@pytest.mark.parametrize("case", every_state(), ids=lambda c: f"{c[0]}-{c[1]}-{'+'.join(states_of(c[0], c[2], c[3]))}")
def test_a_summary_and_a_sheet_say_every_state_in_words(case):
    system, _, sheet, condition = case
    rules = systems.get(system)
    summary = rules.summary(sheet, condition)
    lines = rules.sheet_lines(sheet, condition)
    for text in (summary, *lines):
        assert not IDENTIFIER.search(text), text
    for state in states_of(system, sheet, condition):
        if state != "held":  # (said with its holder: "held by Brute")
            assert rules.STATE_WORDS[state] in summary, (state, summary)


def test_a_correction_says_states_and_the_rules_own_terms_in_words():
    assert outcome_words(["needs_chirurgery", "major_wound"]) == "needs Chirurgery and a major wound"
    assert outcome_words(["knocked_out"]) == "knocked out" and outcome_words("no_effect") == "no effect"
    assert outcome_words([]) == "none" and outcome_words(12) == "12"


# Sentences as people write them: agreement, numbers, no minus zero, no pronoun for a person --------------


def test_a_monster_of_one_hit_die_is_not_one_of_hit_dice():
    rules = systems.get("adnd2e")
    for hd, said in (("1", "1 hit die"), ("1/2", "1/2 hit die"), ("4", "4 hit dice"), ("4+4", "4+4 hit dice")):
        lines = rules.sheet_lines(rules.parse_sheet({"hp": "8", "hd": hd}), rules.Condition())
        assert f"{said};" in " ".join(lines), (hd, lines)


def test_an_unhurt_potestas_sheet_has_no_minus_zero():
    rules = systems.get("potestas")
    lines = " ".join(rules.sheet_lines(rules.parse_sheet({}), rules.Condition()))
    assert "-0" not in lines
    assert "Wounds: 0, no penalty on injury saves." in lines
    assert "Nonlethal wounds: 0, no more against nonlethal damage." in lines
    hurt = " ".join(rules.sheet_lines(rules.parse_sheet({}), PotestasCondition(wounds=2, nonlethal_wounds=1)))
    assert "Wounds: 2, -2 on every injury save." in hurt and "1, -1 more on saves against nonlethal" in hurt


def test_pendragon_numbers_have_their_thousands_separated_everywhere():
    rules = systems.get("pendragon-pass")
    sheet = rules.parse_sheet({"siz": "15", "con": "13"})
    fresh = rules.sheet_lines(sheet, rules.Condition())
    assert (
        "Status 0: 1,000 more earns the next increase (one every 1,000); 0 increases earned, 0 spent, 0 pending."
        in fresh
    )
    rich = PendragonCondition(status=12_345)
    assert "Status 12,345: 655 more earns the next increase (one every 1,000)" in " ".join(
        rules.sheet_lines(sheet, rich)
    )
    assert rules.summary(sheet, rich) == "hp 28/28, Status 12,345, 12 increases pending"
    assert rules.summary(sheet, PendragonCondition(status=1_100)) == "hp 28/28, Status 1,100, 1 increase pending"
    hero = character(siz=15, con=13)
    assert explain(act(hero, StatusAwarded, amount=1500, reason="held the ford"), "Vasana", "pendragon-pass") == (
        'Vasana gains 1,500 Status for "held the ford" (base 1,500): Status is now 1,500.'
    )


def test_a_dead_potestas_character_reads_as_dead_once():
    rules = systems.get("potestas")
    lines = rules.sheet_lines(rules.parse_sheet({}), PotestasCondition(wounds=3, lethal="dead", rounds_unconscious=1))
    assert "Dead: no more actions, and no rest heals the character." in lines
    assert not any(line.startswith("Unconscious for") for line in lines)
