"""Re-deriving a character's history: under other rulings (replay), or with corrections (amend).

Pure: given the character's events, it rebuilds the state event by event, re-deriving every
resolution from its recorded inputs and dice against the state as re-derived so far, so a
changed outcome cascades into everything after it.

Some events are consequences of an earlier one: an attack's hits are recorded as one injury each,
right after the attack, each naming its attack (`Injured.attack`). A re-derivation decides those
again from the attack as re-derived: an attack corrected to a miss takes its hits' injuries away, an
attack whose damage dice are corrected deals its hits again, and an attack corrected to a hit brings
the hits it now makes (their save dice from a generator of each hit's own, seeded from the attack's,
unless the correction gives them). The protocol, kept by the rule systems' events:

- a *source* event has `consequences()`, the inputs of the events recorded from its outcome (its
  hits, first to last), and `CONSEQUENCE`, the class those events are of;
- a *consequence* has `source()`: `(version of its source, which consequence)`, the version None
  for one recorded before consequences named their source (the source is then the latest one before
  it), or None when it is no consequence; its class has `follow(given, condition, recorded)`, its
  inputs from the source's consequence, and `linked(version)`, the fields naming its source.

Corrections recorded before consequences followed their source (`Amended.derivation` 1) are
re-derived as they were decided then: without following, and compared event by event in order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

from .amendments import Amended
from .dice import Dice
from .errors import OfTheCharacter, Refusal
from .events import Event, Resolution

if TYPE_CHECKING:
    from .character import Character
    from .systems import RuleSystem


@dataclass
class Directive:
    """What amendments say about one event: it no longer counts, or it has new inputs/dice.
    `follows`: its consequences follow it as re-derived (False for a correction recorded before they did);
    `since`: the version of the latest amendment in it (of two corrections of the same die, the later holds)."""

    void: bool = False
    inputs: dict[str, Any] | None = None
    table: dict[str, list[int]] = field(default_factory=dict)
    follows: bool = True
    since: int = 0


@dataclass
class Replayed:
    """One event of a re-derived history: a resolution as decided again, any other event as recorded;
    `counts` False (and `event` None) when it no longer counts. `hit` > 0: the `hit`-th consequence of
    the event at `version` that only the re-derivation makes (a hit the recorded attack did not make).
    `drawn`: the dice purposes it drew (a source's, its consequences' too); `unused`: the correction's
    table dice that nothing drew."""

    version: int
    event: Event | None
    outcome: dict[str, Any] | None
    counts: bool = True
    dead_before: bool = False  # the character was dead already when it was decided (its sentence: no death)
    hit: int = 0
    drawn: list[str] = field(default_factory=list)
    unused: dict[str, list[int]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, int]:
        return self.version, self.hit


class Underivable(Refusal):
    """A recorded event that cannot be decided again (under other rulings, or corrected)."""

    def __init__(self, version: int, reason: str):
        super().__init__(f"the event of version {version} cannot be decided again: {reason}")
        self.version, self.reason = version, reason


def directives(events: Sequence[Event]) -> dict[int, Directive]:
    """The corrections in force, by the version of the event each corrects. A correction adds to those
    of the same event before it (its inputs and dice replace theirs key by key; a void, or one recorded
    before corrections added up (`derivation` 1), replaces them). An amendment of an amendment voids or
    replaces that amendment's part (`derivation` 1: every correction of the event)."""
    by_version = {e.originator_version: e for e in events}
    parts: dict[int, dict[int, tuple[Directive, bool]]] = {}  # event -> {amendment: (its part, adds up)}
    corrects: dict[int, int] = {}  # amendment -> the event whose corrections hold its part
    for event in events:
        if not isinstance(event, Amended):
            continue
        target = by_version.get(event.target_version)
        adds = event.derivation >= FOLLOWING
        part = (Directive(event.void, event.inputs, dict(event.table), adds, event.originator_version), adds)
        if isinstance(target, Amended):
            corrected = (
                corrects.get(target.originator_version, target.target_version) if adds else target.target_version
            )
            held = parts.setdefault(corrected, {})
            if not adds:
                held.clear()
            else:
                held.pop(target.originator_version, None)
            if not event.void:
                held[event.originator_version] = part
                corrects[event.originator_version] = corrected
        else:
            parts.setdefault(event.target_version, {})[event.originator_version] = part
            corrects[event.originator_version] = event.target_version
    found = {version: _summed(list(held.values())) for version, held in parts.items()}
    return {version: directive for version, directive in found.items() if directive is not None}


def _summed(parts: list[tuple[Directive, bool]]) -> Directive | None:
    current: Directive | None = None
    for directive, adds in parts:
        if current is None or not adds or directive.void or current.void:
            current = directive
        else:
            inputs = {**(current.inputs or {}), **(directive.inputs or {})}
            table = {**current.table, **directive.table}
            current = Directive(False, inputs or None, table, directive.follows, directive.since)
    return current


FOLLOWING = 2  # the `Amended.derivation` from which consequences follow their source


@dataclass
class _Source:
    """The latest source event as re-derived, while its consequences are met."""

    entry: Replayed
    event: Resolution
    blows: tuple[Any, ...]
    since: int  # its correction's `since` (0: none)
    met: set[int] = field(default_factory=set)  # the consequences recorded (voided ones too)


def refold(
    rules: RuleSystem,
    events: Sequence[Event],
    overrides: dict[str, Any] | None = None,
    corrections: dict[int, Directive] | None = None,
    legacy: bool = False,
) -> tuple[Character, list[Replayed]]:
    """The character re-derived from `events` (its whole stream, creation first). `legacy`: as
    corrections were re-derived before consequences followed their source (`Amended.derivation` 1)."""
    corrections = corrections or {}
    character: Character = events[0].mutate(None)  # its creation event makes it
    replayed: list[Replayed] = []
    source: _Source | None = None
    latest = 0  # the version of the latest source event recorded
    for event in events[1:]:
        if isinstance(event, Amended):
            continue
        version = event.originator_version
        link = None if legacy else _link(event, latest)
        if is_source(event):
            latest = version
        if source is not None and (link is None or link[0] != source.entry.version):
            replayed += _new_consequences(rules, character, source)
            source = None
        following = source is not None and link is not None
        if following:
            assert source is not None and link is not None
            source.met.add(link[1])
        directive = corrections.get(version)
        if directive is not None and directive.void:
            entry = Replayed(version, None, None, counts=False)
            replayed.append(entry)
            if not legacy and is_source(event) and directive.follows:
                source = _Source(entry, event, (), directive.since)  # voided: its consequences go with it
            continue
        if not isinstance(event, Resolution):
            if not legacy:
                replayed.append(Replayed(version, event, None))
            event.apply(character)
            continue
        given, offered, since = None, {}, 0
        if following:
            assert source is not None and link is not None
            if link[1] > len(source.blows):  # the source as re-derived no longer makes it
                replayed.append(Replayed(version, None, None, counts=False))
                continue
            given = follow(type(event), source.blows[link[1] - 1], character.condition, event.inputs)
            offered, since = source.entry.unused, source.since
        dead = dead_now(character)
        event, dice = rederive(rules, character, event, overrides, directive, given, offered, since)
        entry = _entry(version, event, dice, offered)
        entry.dead_before = dead
        if following:
            assert source is not None
            _consumed(source.entry, entry, offered, dice)
        replayed.append(entry)
        if not legacy and is_source(event) and (directive is None or directive.follows):
            source = _Source(entry, event, consequences(event), directive.since if directive else 0)
        event.apply(character)
    if source is not None:
        replayed += _new_consequences(rules, character, source)
    return character, replayed


def dead_now(character: Character) -> bool:
    """Whether the character is dead (a Potestas condition's `finished`, an AD&D one's `dead`, PenDragon hit
    points at 0 or below)."""
    condition, sheet = character.condition, character.sheet
    if getattr(condition, "finished", False) or getattr(condition, "dead", False) is True:
        return True
    top, damage = getattr(sheet, "max_hp", None), getattr(condition, "damage", None)
    return isinstance(top, int) and isinstance(damage, int) and top - damage <= 0


def _link(event: Event, latest: int) -> tuple[int, int] | None:
    """(the version of the source it is a consequence of, which consequence), or None."""
    found = source_of(event)
    if found is None:
        return None
    version, index = found
    return (latest if version is None else version), index


def _hook(owner: object, name: str) -> Any:
    """A part of the consequences' protocol (above) that a source or consequence event defines."""
    return getattr(owner, name)


def is_source(event: Event) -> TypeGuard[Resolution]:
    """Whether events recorded after `event` may be its consequences (an attack: its hits)."""
    return isinstance(event, Resolution) and hasattr(event, "consequences")


def consequences(source: Event) -> tuple[Any, ...]:
    """The inputs of the consequences a source's outcome makes, first to last."""
    return tuple(_hook(source, "consequences")())


def source_of(event: Event) -> tuple[int | None, int] | None:
    """(the version of the source it is a consequence of, None if recorded before consequences named
    their source; which consequence), or None for an event that is no consequence."""
    found = getattr(event, "source", None)
    return found() if found is not None and isinstance(event, Resolution) else None


def linked(consequence: type[Resolution], version: int) -> dict[str, Any]:
    """The fields that name, on a consequence, its source at `version`."""
    found: dict[str, Any] = _hook(consequence, "linked")(version)
    return found


def follow(consequence: type[Resolution], given: Any, condition: Any, recorded: Any) -> Any:
    """A consequence's inputs from its source's `given`, against the state it meets (`recorded`: its
    inputs as recorded, None for one only a re-derivation makes)."""
    return _hook(consequence, "follow")(given, condition, recorded)


def _named(refusal: Refusal, character: Character) -> str:
    """Why an event cannot be decided again, naming the character where the rules said "the character"."""
    return str(refusal.of(character.name) if isinstance(refusal, OfTheCharacter) else refusal)


def _entry(version: int, event: Resolution, dice: Dice, offered: dict[str, list[int]]) -> Replayed:
    record = dice.record()
    unused = {purpose: faces for purpose, faces in dice.unused().items() if purpose not in offered}
    drawn = list(dict.fromkeys(roll.purpose for roll in record.rolls))
    return Replayed(version, event, event.outcome.model_dump(mode="json"), drawn=drawn, unused=unused)


def _consumed(source: Replayed, consequence: Replayed, offered: dict[str, list[int]], dice: Dice) -> None:
    """A consequence drew what it needed of the dice its source left: the source's account of them."""
    left = dice.unused()
    source.unused = {purpose: faces for purpose, faces in offered.items() if purpose in left}
    source.drawn += [purpose for purpose in consequence.drawn if purpose not in source.drawn]


def _new_consequences(rules: RuleSystem, character: Character, source: _Source) -> list[Replayed]:
    """The consequences the source as re-derived makes that were never recorded (a miss corrected to a
    hit: its hits), decided now, each applied to the character."""
    made = []
    cause = source.event
    for index, blow in enumerate(source.blows, start=1):
        if index in source.met:
            continue
        cls: type[Resolution] = _hook(cause, "CONSEQUENCE")
        given = follow(cls, blow, character.condition, None)
        offered = source.entry.unused
        fair = cause.dice.fair  # its revealed seed, not the `seed` 0 every fair roll records
        dice = Dice(consequence_seed(cause.dice.seed if fair is None else fair.seed, index), table=offered)
        rulings = rules.Rulings.model_validate(cause.rulings)
        try:
            outcome = cls.derive(character.sheet, character.condition, given, rulings, dice)
        except Refusal as refusal:
            raise Underivable(cause.originator_version, _named(refusal, character)) from None
        event = cls(
            originator_id=cause.originator_id,
            originator_version=cause.originator_version,
            timestamp=cause.timestamp,
            by=cause.by,
            inputs=given,
            outcome=outcome,
            rulings=cause.rulings,
            dice=dice.record(),
            **linked(cls, cause.originator_version),
        )
        entry = _entry(cause.originator_version, event, dice, offered)
        entry.hit = index
        _consumed(source.entry, entry, offered, dice)
        made.append(entry)
        event.apply(character)
    return made


def consequence_seed(seed: int | str, index: int) -> int:
    """The seed of the dice of a consequence only a re-derivation makes (its source's `index`-th): a
    generator of its own, so correcting its source's other dice never rolls its dice again."""
    digest = hashlib.blake2b(f"{seed}:consequence:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits, as the ledger's own seeds


def rederive(
    rules: RuleSystem,
    character: Character,
    event: Resolution,
    overrides: dict[str, Any] | None,
    directive: Directive | None,
    given: Any = None,
    offered: dict[str, list[int]] | None = None,
    since: int = 0,
) -> tuple[Resolution, Dice]:
    """The event decided again (and the dice it drew): with `given` inputs (a consequence's, from its
    source as re-derived), the table dice its source's correction left (`offered`, from the amendment of
    version `since`) and its own correction (of two for the same die, the later holds)."""
    rulings = rules.Rulings.model_validate({**event.rulings, **(overrides or {})})
    inputs = event.inputs if given is None else given
    table = dict(offered or {})
    if directive is not None:
        if directive.inputs:
            inputs = type(inputs).model_validate({**inputs.model_dump(mode="json"), **directive.inputs})
        table = {**table, **directive.table} if directive.since > since else {**directive.table, **table}
    dice = Dice(event.dice.seed, table=table, replaying=event.dice) if table else Dice.replay(event.dice)
    try:
        outcome = type(event).derive(character.sheet, character.condition, inputs, rulings, dice)
    except Refusal as refusal:
        raise Underivable(event.originator_version, _named(refusal, character)) from None
    changed: dict[str, object] = {"inputs": inputs, "outcome": outcome}
    if overrides:  # the event as the replay decided it: under the rulings it overrode
        typed = rulings.model_dump(mode="json")
        changed["rulings"] = {**event.rulings, **{key: typed[key] for key in overrides if key in typed}}
    return event.model_copy(update=changed), dice


def differences(before: list[Replayed], after: list[Replayed], legacy: bool = False) -> list[dict[str, Any]]:
    """Field by field, what changed between two re-derivations of the same history: event by event
    (by version, and a consequence only the re-derivation makes by its source's version and `hit`).
    `legacy`: as corrections of `Amended.derivation` 1 were compared, the resolutions and voided
    events of each side paired in order."""
    if legacy:
        pairs: list[tuple[Replayed | None, Replayed | None]] = list(
            zip(_as_before(before), _as_before(after), strict=False)
        )
    else:
        old_by = {r.key: r for r in before}
        new_by = {r.key: r for r in after}
        pairs = [(old_by.get(key), new_by.get(key)) for key in sorted(old_by.keys() | new_by.keys())]
    changes = []
    for old, new in pairs:
        either = old or new
        assert either is not None
        where: dict[str, Any] = {"version": either.version, **({"hit": either.hit} if either.hit else {})}
        was, now = _counts(old, legacy), _counts(new, legacy)
        if was != now:
            changes.append({**where, "field": "counts", "recorded": was, "replayed": now})
            continue
        if old is None or new is None or old.outcome == new.outcome:
            continue
        if legacy and (old.outcome is None or new.outcome is None):
            continue  # (both voided: equal outcomes)
        before_outcome, after_outcome = old.outcome or {}, new.outcome or {}
        for key in sorted(set(before_outcome) | set(after_outcome)):
            if before_outcome.get(key) != after_outcome.get(key):
                changes.append(
                    {**where, "field": key, "recorded": before_outcome.get(key), "replayed": after_outcome.get(key)}
                )
    return changes


def _as_before(replayed: list[Replayed]) -> list[Replayed]:
    """What a re-derivation listed before every event counted: resolutions and voided events."""
    return [r for r in replayed if (r.outcome is not None or not r.counts) and not r.hit]


def _counts(replayed: Replayed | None, legacy: bool) -> bool:
    if replayed is None:
        return False
    return replayed.outcome is not None if legacy else replayed.counts
