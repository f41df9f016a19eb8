"""PenDragon Pass events told for people: who did what to whom, the dice and numbers that
decided, the result, and any oath, geas or reason quoted. Pure: each reads only its event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..events import DomainEvent
from ..tellers import tell
from .events import (
    Checked,
    ChirurgeryPerformed,
    ExperienceRolled,
    FeatAttempted,
    FirstAidGiven,
    GeasBroken,
    GeasTaken,
    IncreaseSpent,
    Injured,
    MagicallyHealed,
    OathBroken,
    OathFulfilled,
    OathSworn,
    Rested,
    StatusAwarded,
    TacticResolved,
    WinterResolved,
)
from .oaths import HonorOutcome
from .rulings import FeatThreshold, Rulings
from .tactic_text import tactic_sentences
from .winter_text import gain_words, winter_sentences
from .words import and_list, number, plural, quoted, roll_words, title


def explain(event: DomainEvent, name: str) -> str:
    """One paragraph about `event`, recorded on character `name`."""
    return tell(TELLERS, event, name)


def _check(event: Checked, name: str) -> str:
    i, o = event.inputs, event.outcome
    modifier = f" ({o.value - i.modifier} {'+' if i.modifier >= 0 else '-'} {abs(i.modifier)})" if i.modifier else ""
    text = f"{name} rolled {title(i.what)} {o.value}{modifier}: {roll_words(o.roll)}"
    if o.opponent_roll is not None:
        who = (i.opponent or "the opponent").partition(":")[0]
        verdict = {"self": f"{name} wins", "opponent": f"{who} wins"}.get(
            o.winner or "", "a tie" if o.tie else "nobody wins"
        )
        text += f"; {who} rolled {roll_words(o.opponent_roll)}; {verdict}"
    return text + (f". {name} earns an experience check in {title(i.what)}." if o.checked else ".")


def _experience(event: ExperienceRolled, name: str) -> str:
    gains = and_list([gain_words(g) for g in event.outcome.experience])
    return f"{name}'s experience rolls a month after the adventure: {gains}."


SOURCES = {
    "foe": "defeating {foe}",
    "honour": "the honour {honour}",
    "leadership": "leading {people} people",
    "magic_item": "owning a flashy magic item",
    "amount": "{reason}",
}
MODIFIER_WORDS = {
    "head": "+10% for taking the enemy's head",
    "yoke": "+50% for fighting on a chariot yoke",
    "missile": "-50% for using missiles",
}


def _award(event: StatusAwarded, name: str) -> str:
    i, o = event.inputs, event.outcome
    source = SOURCES[o.source].format(
        foe=f"a {title(i.foe or '')}",
        honour=title(i.honour or ""),
        people=number(i.leadership_people or 0),
        reason=quoted(i.reason or ""),
    )
    how = Rulings.model_validate(event.rulings).status_modifiers.value
    modifiers = f"; {and_list([MODIFIER_WORDS[m] for m in o.modifiers])}, {how}" if o.modifiers else ""
    verb = f"gains {number(o.amount)}" if o.amount >= 0 else f"loses {number(-o.amount)}"
    floor = " (never below 0)" if o.total == 0 and o.amount < 0 else ""
    return (
        f"{name} {verb} Status for {source} (base {number(o.base)}{modifiers}): Status is now {number(o.total)}{floor}."
    )


def _increase(event: IncreaseSpent, name: str) -> str:
    o = event.outcome
    opposite = f", and its opposite {title(o.opposite)} falls by 1" if o.opposite else ""
    return (
        f"{name} spends an increase earned by Status: {title(o.what)} rises from {o.from_value} to {o.to_value}"
        f"{opposite}; {plural(o.pending_after, 'increase')} still pending."
    )


def _sworn(event: OathSworn, name: str) -> str:
    return f"{name} swears an oath ({event.outcome.id}): {quoted(event.inputs.text)}."


def _fulfilled(event: OathFulfilled, name: str) -> str:
    o = event.outcome
    status, total = number(o.status), number(o.total)
    return f"{name} fulfils the oath {o.id} and gains {status} Status, set by the table: Status is now {total}."


def _honor(o: HonorOutcome, rolled: bool) -> str:
    how = f"{o.honor_loss} (d6)" if rolled else str(o.honor_loss)
    return f"Honor falls by {how}, from {o.honor_from} to {o.honor_to}"


def _oath_broken(event: OathBroken, name: str) -> str:
    grave = "a grave failure: " if event.inputs.grave else ""
    return f"{name} breaks the oath {event.outcome.id}: {grave}{_honor(event.outcome, event.inputs.grave)}."


def _geas_taken(event: GeasTaken, name: str) -> str:
    clan = "a clan geas" if event.inputs.clan else "a geas"
    return (
        f"{name} takes {clan} ({event.outcome.id}): {quoted(event.inputs.text)}; each winter it is kept gains 5 Status."
    )


def _geas_broken(event: GeasBroken, name: str) -> str:
    o = event.outcome
    change = (
        f"Status rises by {number(o.status)}" if o.status >= 0 else f"Status falls by {number(-o.status)} (a clan geas)"
    )
    return f"{name} breaks the geas {o.id}: {_honor(o, True)}, and {change} to {number(o.total)}."


FEAT_BOUND = {
    FeatThreshold.half_floor_inclusive: ("at most", lambda v: v // 2),
    FeatThreshold.half_floor_exclusive: ("under", lambda v: v // 2),
    FeatThreshold.half_ceil_inclusive: ("at most", lambda v: -(-v // 2)),
}


def _feat(event: FeatAttempted, name: str) -> str:
    o = event.outcome
    words, bound = FEAT_BOUND[Rulings.model_validate(event.rulings).feat_threshold]
    result = "done, counting as a critical" if o.result == "critical" else f"a fumble: {name} is knocked down"
    return (
        f"{name} attempts a Feat of {title(o.what)}, {quoted(event.inputs.description)}: rolled {o.roll}, "
        f"needing {words} {bound(o.value)} (half of {o.value}): {result}."
    )


def _hp(name: str, hp: int, unconscious: bool, dead: bool = False) -> str:
    if dead or hp <= 0:
        return f"{name} has {hp} hit points and dies."
    return f"{name} has {plural(hp, 'hit point')}" + (" and is unconscious." if unconscious else ".")


def _injured(event: Injured, name: str) -> str:
    i, o = event.inputs, event.outcome
    by = f"{i.attacker} wounds {name}" if i.attacker else f"{name} is wounded"
    kinds = (["a major wound, which needs Chirurgery"] if o.major else []) + (["a knockdown"] if o.knockdown else [])
    forced = " (forced)" if i.force and o.hp + o.damage <= 0 else ""
    return (
        f"{by}{forced}: wound #{o.wound}, {plural(o.damage, 'point')}"
        + "".join(f"; {k}" for k in kinds)
        + ". "
        + _hp(name, o.hp, o.unconscious, o.dead)
    )


def _first_aid(event: FirstAidGiven, name: str) -> str:
    i, o = event.inputs, event.outcome
    who = f"{i.healer} gives {name}" if i.healer else f"{name} is given"
    rolled = f"First Aid rolled {roll_words(o.roll)}, " if o.roll else ""
    healed = f"healing {o.healed} (d3)" if o.healed or not o.roll or o.roll.result.succeeded else "healing nothing"
    return f"{who} First Aid on wound #{o.wound}: {rolled}{healed}. " + _hp(name, o.hp, o.unconscious)


def _magic(event: MagicallyHealed, name: str) -> str:
    o = event.outcome
    cleared = " The wound no longer needs Chirurgery." if o.chirurgery_cleared else ""
    forced = " (forced: the character was dead)" if event.inputs.force and o.hp - o.healed <= 0 else ""
    return f"Magic heals {o.healed} of {name}'s wound #{o.wound}{forced}. " + _hp(name, o.hp, o.unconscious) + cleared


def _chirurgery(event: ChirurgeryPerformed, name: str) -> str:
    i, o = event.inputs, event.outcome
    who = i.healer or "A healer"
    text = f"{who} performs Chirurgery on {name}: Chirurgery rolled {roll_words(o.roll)}. "
    if o.treated:
        text += "No wound or unconsciousness needs Chirurgery any more, so natural healing proceeds"
        text += f", and the critical heals {sum(o.healed.values())} at once. " if o.healed else ". "
    elif o.wound is not None:
        text += f"The fumble deals a new wound, #{o.wound}, of {plural(o.damage, 'point')} (d6). "
    else:
        text += "Nothing changes; it may be tried again after a week of care. "
    return text + _hp(name, o.hp, o.unconscious, o.dead)


def _rested(event: Rested, name: str) -> str:
    i, o = event.inputs, event.outcome
    if i.interrupted:
        length = "an interrupted rest, which heals nothing"
    else:
        length = f"{plural(o.weeks, 'full week')} of rest at Healing Rate {o.healing_rate}"
    healed = sum(o.healed.values())
    parts = [f"wound #{w} by {n}" for w, n in o.healed.items()]
    heals = f"heals {healed} ({and_list(parts)})" if healed else "heals nothing"
    forced = " (forced: the character was dead)" if i.force and o.hp - healed <= 0 else ""
    return f"{name} takes {length}{forced}: {heals}. " + _hp(name, o.hp, o.unconscious)


def _tactic(event: TacticResolved, name: str) -> str:
    return tactic_sentences(event.inputs, event.outcome, name)


def _winter(event: WinterResolved, name: str) -> str:
    return winter_sentences(event.inputs, event.outcome, name)


# `Any`: each teller takes its own event class, which no shared parameter type admits
TELLERS: dict[type, Callable[[Any, str], str]] = {
    Checked: _check,
    ExperienceRolled: _experience,
    StatusAwarded: _award,
    IncreaseSpent: _increase,
    OathSworn: _sworn,
    OathFulfilled: _fulfilled,
    OathBroken: _oath_broken,
    GeasTaken: _geas_taken,
    GeasBroken: _geas_broken,
    FeatAttempted: _feat,
    TacticResolved: _tactic,
    Injured: _injured,
    FirstAidGiven: _first_aid,
    MagicallyHealed: _magic,
    ChirurgeryPerformed: _chirurgery,
    Rested: _rested,
    WinterResolved: _winter,
}
