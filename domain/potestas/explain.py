"""Potestas events told for people: who did what to whom, the numbers that decided, the
result. Pure: each reads only its event (inputs, outcome, rulings, dice)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..events import DomainEvent
from ..tellers import tell
from .attack_text import attack_sentences
from .condition import DISABLING, DROPPING, NONE, STATE_WORDS
from .events import Attacked, DyingSaveMade, Exerted, Fell, Injured, Rested
from .falling import MAX_HITS, TERMINAL_VELOCITY, Fall, minimum_fall
from .injury import InjuryInputs, InjuryOutcome
from .rulings import Rulings
from .words import and_list, plural, type_words


def explain(event: DomainEvent, name: str) -> str:
    """One paragraph about `event`, recorded on character `name`."""
    return tell(TELLERS, event, name)


def _states(name: str, states: tuple[str, ...] | None, forced: bool = False) -> str:
    """The result in words, from the states an outcome kept (nothing for events recorded before). A forced
    rest is one of the dead: they are so, and do not die again."""
    if states is None:
        return ""
    if "dead" in states:
        return f" {name} is dead." if forced else f" {name} dies."
    if "destroyed" in states:
        return f" {name} is destroyed."
    return (
        f" {name} is now {and_list([STATE_WORDS[s] for s in states])}."
        if states
        else f" {name} is standing, neither disabled nor staggered."
    )


# Injury ------------------------------------------------------------------------------------------


def dc_formula(after_dr: int) -> str:
    """The injury save's DC as people write the seed's arithmetic: "DC 17 = 15 + 12/5, rounded down"."""
    rounded = ", rounded down" if after_dr % 5 else ""
    return f"DC {15 + after_dr // 5} = 15 + {after_dr}/5{rounded}"


def injury_sentences(name: str, blow: InjuryInputs, outcome: InjuryOutcome, rulings: Rulings) -> str:
    kind = "nonlethal" if blow.nonlethal else "lethal"
    types = f" ({type_words(blow.types)})" if blow.types else ""
    said = [f"{name} takes {outcome.damage} {kind} damage{types}."]
    if outcome.dc is None:
        negated = " and negates riders such as injury poison, stunning or disease" if outcome.riders_negated else ""
        said.append(f"Damage reduction removes all of it{negated}: no save, no effect.")
        return " ".join(said) + _states(name, outcome.states)
    if outcome.reduction:
        said.append(f"Damage reduction removes {outcome.reduction}: {outcome.after_dr} left.")
    save = outcome.save
    assert save is not None  # a DC means a save was rolled
    penalty = "wounds and nonlethal wounds" if blow.nonlethal else "wounds"
    verdict = f"made by {save.margin}" if save.margin >= 0 else f"failed by {-save.margin}"
    said.append(
        f"Fortitude save, {dc_formula(outcome.after_dr)}: rolled {save.roll} + {save.bonus} (Fortitude) "
        f"- {save.penalty} ({penalty}) = {save.total}, {verdict}."
    )
    said.extend(_save_rulings(save.roll, blow.coup_de_grace, rulings))
    said.append(_injury_result(name, blow, outcome, rulings))
    return " ".join(said) + _states(name, outcome.states)


def _save_rulings(roll: int, coup_de_grace: bool, rulings: Rulings) -> list[str]:
    said = []
    if rulings.save_naturals == "standard" and roll == 20:
        said.append("A natural 20 succeeds (the ruling on save naturals).")
    if rulings.save_naturals == "standard" and roll == 1:
        said.append(f"A natural 1 counts as failing by {rulings.disable_margin} (the ruling on save naturals).")
    if coup_de_grace and rulings.coup_de_grace_save == "one_degree_worse":
        said.append("A coup de grace makes the save one degree worse (the ruling on coup de grace saves).")
    return said


def _injury_result(name: str, blow: InjuryInputs, outcome: InjuryOutcome, rulings: Rulings) -> str:
    if outcome.degree == NONE:
        return "The wound has little effect: no wound."
    wound = "a nonlethal wound" if blow.nonlethal else "a wound"
    if outcome.ignored:
        return f"Being unconscious, {name} ignores {wound}."
    worse = {
        DISABLING: ("staggering" if blow.nonlethal else "disabling", rulings.disable_margin),
        DROPPING: ("knock-out" if blow.nonlethal else "dropping", rulings.drop_margin),
    }.get(outcome.degree)
    if worse is None:
        return f"{name} takes {wound}."
    return f"{name} takes {wound}; failing by {worse[1]} or more makes it a {worse[0]} {wound[2:]}."


def _injured(event: Injured, name: str) -> str:
    text = injury_sentences(name, event.inputs, event.outcome, event.ruled)
    return f"Hit {event.inputs.hit}: {text}" if event.inputs.hit else text


# Dying, exertion, rest ---------------------------------------------------------------------------


def _dying_save(event: DyingSaveMade, name: str) -> str:
    o, rulings, rounds = event.outcome, event.ruled, event.inputs.rounds
    if rulings.dying_dc == "10_plus_rounds":
        earlier = f", {rounds} of them declared with this save" if rounds else ""
        basis = f"10 + {plural(o.dc - 10, 'round')} unconscious so far{earlier}"
    elif rulings.dying_dc == "10_plus_prior":
        basis = f"10 + {plural(o.dc - 10, 'dying save')} already made"
    else:
        basis = "always 10"
    verdict = f"made by {o.margin}" if o.margin >= 0 else f"failed by {-o.margin}"
    said = [
        f"{name} makes a dying save: rolled {o.roll} + {o.bonus} (Fortitude) - {o.penalty} (wounds) = {o.total} "
        f"against DC {o.dc} ({basis}), {verdict}."
    ]
    if rulings.dying_save_naturals == "standard" and o.roll == 20 and o.margin < 0:
        said.append("A natural 20 succeeds all the same (the ruling on dying save naturals).")
    if rulings.dying_save_naturals == "standard" and o.roll == 1 and o.margin >= 0:
        said.append("A natural 1 fails all the same (the ruling on dying save naturals).")
    said.append(
        {
            "stable": f"{name} is stable: unconscious, no longer dying.",
            "dying": f"{name} is still dying.",
            "dead": f"{name} dies (failing by {rulings.dying_death_margin} or more, the ruling on dying failure).",
        }[o.result]
    )
    return " ".join(said)


def _exerted(event: Exerted, name: str) -> str:
    worsened = [STATE_WORDS[s] for s in event.outcome.worsened]
    result = f"{name} is now {and_list(worsened)}." if worsened else f"{name} is no worse for it."
    return f"{name} makes a strenuous effort: \u201c{event.inputs.action}\u201d. {result}"


def duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    parts = ([plural(hours, "hour")] if hours else []) + ([plural(rest, "minute")] if rest or not hours else [])
    return " ".join(parts)


def _rested(event: Rested, name: str) -> str:
    o = event.outcome
    if event.inputs.interrupted:
        return f"{name} rests for {duration(o.minutes)}, but the rest is interrupted: nothing heals."
    healed = _healing(o.wounds_healed, o.nonlethal_healed)
    return f"{name} rests for {duration(o.minutes)} and {healed}." + _states(name, o.states, True)


def _healing(lethal: int, nonlethal: int) -> str:
    """What a rest healed, in the ladder's steps (docs/rulings.md, Potestas, Condition ladder): each step heals one
    wound of the count and lifts the state a wound left (dying, disabled; unconscious, staggered), so one
    wound that knocked a character out takes two steps: never told as wounds that were not there."""
    if not lethal and not nonlethal:
        return "heals nothing"
    steps = [plural(n, f"{track} step") for n, track in ((lethal, "lethal"), (nonlethal, "nonlethal")) if n]
    return f"heals {and_list(steps)} (a step heals a wound, or the state a wound left)"


# Falling -----------------------------------------------------------------------------------------


def fall_sentence(fall: Fall) -> str:
    """A fall's impact: velocity = min(sqrt(70 * feet), 210) ft/s, 4 damage per full 5 ft/s."""
    top = " (terminal velocity)" if fall.hits >= MAX_HITS else ""
    return (
        f"a fall of {fall.feet} ft strikes at {fall.velocity:g} ft/s{top}: {fall.hits} x 4 = {fall.damage} "
        "bludgeoning damage"
    )


def next_hit(fall: Fall) -> str:
    """What a longer fall would add: the next hit's shortest fall, or nothing past terminal velocity."""
    if fall.hits >= MAX_HITS:
        return f"No fall deals more: {TERMINAL_VELOCITY} ft/s is terminal velocity."
    return f"{fall.hits + 1} hits from {minimum_fall(fall.hits + 1)} ft."


def falling_told(fall: Fall) -> str:
    """`rules falling`: the fall's impact, then what a longer fall would add."""
    return f"{fall_sentence(fall).capitalize()}. {next_hit(fall)}"


def _fell(event: Fell, name: str) -> str:
    fall = event.outcome.fall
    blow = InjuryInputs(damage=fall.damage, type="bludgeoning", force=event.inputs.force)
    return f"{name} falls: {fall_sentence(fall)}. " + injury_sentences(name, blow, event.outcome.injury, event.ruled)


# Attack ------------------------------------------------------------------------------------------


def _attacked(event: Attacked, name: str) -> str:
    return attack_sentences(event.inputs, event.outcome, event.ruled, name)


# `Any`: each teller takes its own event class, which no shared parameter type admits
TELLERS: dict[type, Callable[[Any, str], str]] = {
    Injured: _injured,
    DyingSaveMade: _dying_save,
    Exerted: _exerted,
    Rested: _rested,
    Attacked: _attacked,
    Fell: _fell,
}


def unused_reason(event: DomainEvent, purpose: str) -> str:
    """Why the rules did not ask for a die the table gave for `purpose` (one the action declares)."""
    outcome: Any = getattr(event, "outcome", None)
    if purpose.startswith("save"):
        injury = getattr(outcome, "injury", outcome)
        if isinstance(event, Attacked) or not isinstance(injury, InjuryOutcome):
            return "there was no such hit"
        return "no damage got past damage reduction, so no save was rolled"
    if purpose == "attack":
        return "a coup de grace hits automatically"
    if purpose == "confirm":
        return "no confirmation was needed"
    return "the rules did not ask for it"
