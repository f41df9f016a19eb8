"""One character's Winter Phase told for people: land, economics (pennies, Poor or Impoverished), worship,
Status by source, training, experience, aging and what the table recorded."""

from __future__ import annotations

from .experience import Gain
from .winter import LAND, Trained, WinterInputs, WinterOutcome
from .words import and_list, number, plural, quoted, roll_words, title

LAND_WORDS = {-5: "terrible", -2: "bad", 0: "normal", 2: "good", 5: "excellent"}
STANDARD = {
    "poor": "a hard winter: Poor for Stable and Family rolls",
    "impoverished": "a disastrous winter: Impoverished for Stable and Family rolls",
}
SOURCE_WORDS = {
    "economics": "economics",
    "religious_virtues": "the five religious virtues at 16 or more",
    "geas_upkeep": "geasa kept",
    "leadership": "leadership",
}


def winter_sentences(inputs: WinterInputs, out: WinterOutcome, name: str) -> str:
    land = f"{LAND_WORDS.get(LAND[out.land_roll], 'normal')} land, {out.land_modifier:+d}"
    parts = [f"The winter of year {out.year} for {name} (the land rolled {out.land_roll}: {land})."]
    if out.economics is not None:
        e = out.economics
        if e.status:
            result = f"{number(e.status)} Status, {number(e.pennies)} pennies of goods and a check"
        else:
            result = STANDARD[e.standard]
        parts.append(f"Economics with {title(e.skill)} rolled {roll_words(e.roll)}: {result}.")
    if out.worship is not None and inputs.worship:
        gained = "a POW check" if out.worship.result.succeeded else "no POW check"
        parts.append(f"Worship with {title(inputs.worship)} rolled {roll_words(out.worship)}: {gained}.")
    sources = [f"{SOURCE_WORDS.get(s.source, title(s.source))} {number(s.amount)}" for s in out.sources]
    parts.append(
        f"Status gained: {and_list(sources)}, {number(out.status)} in all; Status is now {number(out.total)}."
        if sources
        else f"No Status gained; Status stays {number(out.total)}."
    )
    experience = [f"Experience: {and_list([gain_words(g) for g in out.experience])}."] if out.experience else []
    training = [_month(trained, name) for trained in out.training]
    parts += [*training, *experience] if inputs.training_first else [*experience, *training]  # as rolled
    if inputs.aging:
        parts.append(f"Aging: {and_list([f'{title(k)} {v:+d}' for k, v in inputs.aging.items()])}.")
    for label, value in (("Family", inputs.family), ("Magic item", inputs.magic_item)):
        if value:
            parts.append(f"{label}: {quoted(value)}.")
    if inputs.leadership_people:
        parts.append(f"{name} leads {plural(inputs.leadership_people, 'person')}.".replace("persons", "people"))
    return " ".join(parts)


def _month(trained: Trained, name: str) -> str:
    month = f"A month's training ({trained.silvers} silvers)"
    if trained.kind != "skill":
        return f"{month}: {name} learns the {trained.kind} {title(trained.what)}."
    if trained.capped is not None:
        spent = "so the month is spent without a roll"
        return f"{month}: {title(trained.what)} is already at its cap of {trained.capped}, {spent}."
    return f"{month}: {gain_words(trained.gain)}." if trained.gain is not None else f"{month}."


def gain_words(gain: Gain) -> str:
    if gain.to > gain.from_:
        return f"{title(gain.what)} rolled {gain.roll}: it rises from {gain.from_} to {gain.to}"
    return f"{title(gain.what)} rolled {gain.roll}, not over {gain.from_}: no gain"
