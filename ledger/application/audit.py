"""Amendments and what-if replays over a character's recorded history. Both name events by their log
position (`#47`): the events an amendment or a replay changes, the event it corrects.

An amendment says what it corrects in the table's words: `--save-roll N` is the event's save whatever
its dice purpose is called inside (`save:1` for an attack's first hit); a purpose the event (or, for
an attack, its hits) does not roll, or an input it does not take, is bad input naming what it has.
An amendment that changes no recorded outcome is refused: it would be written for nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from pydantic import ValidationError

from ...domain.amendments import Amended
from ...domain.changes import change_words, purpose_words
from ...domain.character import Character, CharacterRegistered, character_id
from ...domain.errors import BadInput, NotFound, NotOnSheet, Refusal, in_words
from ...domain.events import Event, Resolution
from ...domain.explain import explain, field_words, outcome_words, words
from ...domain.ids import event_id
from ...domain.limits import typed_within_int64
from ...domain.refold import (
    FOLLOWING,
    Directive,
    Replayed,
    Underivable,
    differences,
    directives,
    linked,
    refold,
    source_of,
)
from ...domain.text import printable
from .refs import position
from .rulings import parse_rulings

if TYPE_CHECKING:
    from ...domain.campaign import Campaign
    from ...domain.systems import RuleSystem
    from ..store.chronicle import Chronicle
    from .session import Session


def history(app: Chronicle, ident: UUID) -> list[Event]:
    return cast(list[Event], list(app.events.get(ident)))  # the library's protocol type: ours are `Event`s


def events_of(session: Session, ident: UUID) -> list[Event]:
    """The character's events: those saved, then those this session holds unsaved (a batch's earlier lines)."""
    saved = history(session.app, ident)
    held = session.held(ident)
    pending = [e for e in (held.pending_events if held is not None else ()) if e.originator_version > len(saved)]
    return [*saved, *cast(list[Event], pending)]


class Positions:
    """Log positions of one campaign's events, by aggregate and version, read from the index once each."""

    def __init__(self, app: Chronicle):
        self.app = app
        self._found: dict[tuple[UUID, int], int] = {}

    def __call__(self, owner: UUID, version: int) -> int:
        key = (owner, version)
        if key not in self._found:
            self._found[key] = self.app.index.position_of(owner, version)
        return self._found[key]

    def named(self, owner: UUID, version: int) -> str:
        """`#47`; an event saved by none yet (an earlier line of this batch) by its id."""
        at = self(owner, version)
        return f"#{at}" if at else f"event {event_id(owner, version)[:8]} (this batch)"


def amend(
    session: Session, ref: str, reason: str, void: bool, new_inputs: dict[str, str], table: dict[str, list[int]]
) -> dict[str, Any]:
    """A correcting event for the event REF names: re-derives the character's history with it and
    records the state that gives; the original stays in the log."""
    if not reason.strip():
        raise BadInput("--reason must say why")
    if void == bool(new_inputs or table):
        raise BadInput("amend takes either --void or corrections (--set KEY=VALUE, --roll PURPOSE=FACES)")
    app, campaign, rules = session.app, session.campaign, session.rules
    at = position(app.index, campaign.id, ref)
    found = app.index.event_at(campaign.id, at)
    if found is None:
        raise NotFound(f"no event {ref} in this campaign")
    owner, version = found
    events = events_of(session, owner)
    registered, target = events[0], events[version - 1]
    if isinstance(target, CharacterRegistered) or not isinstance(registered, CharacterRegistered):
        raise Refusal("only a character's recorded actions can be amended (not registrations or campaign events)")
    name = registered.name
    subject = _subject(events, target)
    if not void:
        if not isinstance(subject, Resolution):
            raise BadInput(f"#{at} ({name}) records no inputs or dice to correct: it can only be voided (--void)")
        new_inputs = _checked_inputs(subject, new_inputs, at)
    places = Positions(app)
    character = session.character(name)
    before = rules.summary(character.sheet, character.condition)
    try:
        if table:
            provisional = _provisional(session, events, version, reason, void, new_inputs, table)
            table = _named_dice(rules, events, provisional, subject.originator_version, at)
        amendment = _provisional(session, events, version, reason, void, new_inputs, table)
        sheet, condition, changes, replayed = _rederived(rules, events, amendment)
    except Underivable as problem:
        raise Refusal(
            f"{name}'s event at {places.named(owner, problem.version)} cannot be decided again"
            f" with this correction: {problem.reason}"
        ) from None
    except NotOnSheet as lacking:  # `--set what=swrd`: whose sheet lacks it, and the nearest it has
        raise lacking.of(name) from None
    if not changes:
        raise Refusal(f"the correction of #{at} changes no recorded outcome of {name}: nothing was written")
    _trigger(session, character, amendment, sheet, condition, changes)
    answered = _answered(session, owner, name, events, replayed, reason, places)
    return {
        "event": event_id(owner, character.version),
        "version": character.version,
        "amends": amendment.target,
        "position": at,
        "character": character.name,
        "void": void,
        "inputs": amendment.inputs or {},
        "table": amendment.table,
        "reason": reason,
        "changes": [{**change, "position": places(owner, change["version"])} for change in changes]
        + [change for result in answered for change in result["changes"]],
        "condition": rules.view(character.sheet, character.condition)["condition"],
        "before": before,
        "after": rules.summary(character.sheet, character.condition),
        "also": answered,
    }


def _provisional(
    session: Session,
    events: list[Event],
    version: int,
    reason: str,
    void: bool,
    new_inputs: dict[str, str] | None,
    table: dict[str, list[int]],
) -> Amended:
    """The amendment of the character's event at `version`, not yet recorded (its state still empty)."""
    owner = events[0].originator_id
    return Amended(
        originator_id=owner,
        originator_version=len(events) + 1,
        timestamp=events[version - 1].timestamp,
        by=session.by,
        target=event_id(owner, version),
        target_version=version,
        reason=reason,
        void=void,
        inputs=new_inputs or None,
        table=table,
        derivation=FOLLOWING,
    )


def _trigger(
    session: Session,
    character: Character,
    amendment: Amended,
    sheet: dict[str, Any],
    condition: dict[str, Any],
    changes: list[dict[str, Any]],
) -> None:
    character.trigger_event(
        Amended,
        target=amendment.target,
        target_version=amendment.target_version,
        reason=amendment.reason,
        void=amendment.void,
        inputs=amendment.inputs,
        table=amendment.table,
        sheet=sheet,
        condition=condition,
        changes=changes,
        derivation=FOLLOWING,
        by=session.by,
        timestamp=session.now(),
    )


def _answer(replayed: Replayed | None, defender: str) -> Any:
    """The injury an event as re-derived deals the character who acted on it (an armed defender's strike
    at its attacker: domain/adnd2e/events.py, `answer`), or None."""
    if replayed is None or not replayed.counts or replayed.event is None:
        return None
    answer = getattr(replayed.event, "answer", None)
    return None if answer is None else answer(defender)


def _answered(
    session: Session,
    owner: UUID,
    name: str,
    events: list[Event],
    after: tuple[list[Replayed], list[Replayed]],
    reason: str,
    places: Positions,
) -> list[dict[str, Any]]:
    """What a correction changed of what the corrected character did to another in return (an armed
    defender's strike at its attacker, recorded on the attacker): that injury undone, changed or dealt by
    an event on the other character, each told like the correction's own changes."""
    before, replayed = after
    was_by = {r.version: r for r in before if not r.hit}
    told = []
    for entry in replayed:
        if entry.hit:
            continue
        now, was = _answer(entry, name), _answer(was_by.get(entry.version), name)
        if now == was:
            continue
        source = events[entry.version - 1]
        attacker = getattr(getattr(source, "inputs", None), "attacker", "")
        if not attacker or not session.has_character(attacker):
            continue
        answer_class: type[Resolution] = source.ANSWER  # type: ignore[attr-defined]  # (the hook's owner)
        told.append(_answer_again(session, owner, entry.version, name, attacker, now, answer_class, reason, places))
    return [result for result in told if result is not None]


def _answer_again(
    session: Session,
    owner: UUID,
    version: int,
    defender: str,
    attacker: str,
    blow: Any,
    answer_class: type[Resolution],
    reason: str,
    places: Positions,
) -> dict[str, Any] | None:
    """The attacker's injury from the strike of the attack at `version` made to agree with `blow` (None: no
    injury): the one in force voided or its damage corrected, or a new one dealt."""
    rules = session.rules
    striker = session.character(attacker)
    theirs = events_of(session, striker.id)
    attack = event_id(owner, version)
    found = _strike_injuries(session, theirs, attack, defender, places(owner, version))
    held = directives(theirs)
    in_force = [e for e in found if not (held.get(e.originator_version) or Directive()).void]
    current = in_force[-1] if in_force else None
    if current is None and blow is None:
        return None
    if current is None:
        recorded = session.record(striker, answer_class, blow, strike=attack)
        return {
            "character": striker.name,
            "event": recorded.event_id,
            "changes": [
                {
                    "event": recorded.event_id,
                    "version": recorded.version,
                    "character": striker.name,
                    "position": None,
                    "field": "counts",
                    "recorded": False,
                    "replayed": True,
                }
            ],
        }
    corrected = held.get(current.originator_version)
    recorded_damage: Any = getattr(current.inputs, "damage", None)
    damage = int((corrected.inputs or {}).get("damage", recorded_damage) if corrected else recorded_damage)
    if blow is not None and damage == blow.damage:
        return None
    void = blow is None
    new_inputs = None if void else {"damage": str(blow.damage)}
    amendment = _provisional(session, theirs, current.originator_version, reason, void, new_inputs, {})
    sheet, condition, changes, _ = _rederived(rules, theirs, amendment)
    if not changes:
        return None
    _trigger(session, striker, amendment, sheet, condition, changes)
    return {
        "character": striker.name,
        "event": event_id(striker.id, striker.version),
        "changes": [{**change, "position": places(striker.id, change["version"])} for change in changes],
    }


def _strike_injuries(session: Session, theirs: list[Event], attack: str, defender: str, at: int) -> list[Resolution]:
    """The attacker's injuries from the armed defender's strike of the attack `attack` (at log position
    `at`): those naming it, else the one its command recorded right after it (before strikes named their
    attack: at the next position, or the one after the attack's own hit)."""

    def answers(event: Event, linked_only: bool) -> bool:
        check = getattr(event, "answers", None)
        return check is not None and bool(check(attack, defender, linked_only))

    linked = [e for e in theirs if isinstance(e, Resolution) and answers(e, True)]
    if linked or not at:
        return linked
    index, campaign = session.app.index, session.campaign
    for place in (at + 1, at + 2):
        found = index.event_at(campaign.id, place)
        if found is None or found[0] != theirs[0].originator_id:
            continue
        event = theirs[found[1] - 1]
        if isinstance(event, Resolution) and answers(event, False):
            return [event]
    return []


def _subject(events: list[Event], target: Event) -> Event:
    """The event a correction of `target` decides again: the one it amends, when `target` is an amendment."""
    if isinstance(target, Amended):
        return events[target.target_version - 1]
    return target


def _checked_inputs(subject: Resolution, given: dict[str, str], at: int) -> dict[str, str]:
    """The corrected inputs, each a field the event takes with a value it accepts: bad input in words otherwise."""
    model = type(subject.inputs)
    for key in given:
        if key not in model.model_fields:
            taken = f"the inputs it records are {', '.join(sorted(model.model_fields))}" if model.model_fields else ""
            rolled = list(dict.fromkeys(roll.purpose for roll in subject.dice.rolls))
            dice = f"the dice it rolls (--roll PURPOSE=FACES) are {', '.join(rolled)}" if rolled else ""
            said = "; ".join(part for part in (taken, dice) if part) or "it records nothing to correct"
            raise BadInput(f"#{at} takes no input {printable(key)}: {said}")
        shown = f"#{at}: {key}={printable(str(given[key])[:40])}"
        number = typed_within_int64(given[key], shown)  # a number: 64 bits
        most = getattr(model, "CORRECTED_AT_MOST", {}).get(key)  # and as its command bounds it
        if most is not None and number is not None and abs(number) > most:
            raise BadInput(f"{shown} is beyond {most:,} either way, as its command holds it")
    try:
        model.model_validate({**subject.inputs.model_dump(mode="json"), **given})
    except ValidationError as error:
        first = error.errors()[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        shown = f"{key}={printable(str(given[key])[:40])}" if key in given else "the corrected inputs"
        raise BadInput(f"#{at}: {shown} is not a value it takes: it {in_words(first)}") from None
    return given


def _named_dice(
    rules: RuleSystem, events: list[Event], amendment: Amended, subject: int, at: int
) -> dict[str, list[int]]:
    """The correction's dice by the purposes the event rolls them for: `save` is its save whatever its
    purpose is called inside (`save:1`, an attack's first hit); any other purpose it does not roll
    (nor its hits, for an attack) is bad input listing those it rolls."""
    table = dict(amendment.table)
    drawn, unused = _dice_use(rules, events, amendment, subject)
    if "save" in unused and "save" not in drawn:
        saves = [purpose for purpose in drawn if purpose.partition(":")[0] == "save"]
        if len(saves) > 1:
            raise BadInput(
                f"#{at} rolls {len(saves)} saves ({', '.join(saves)}): give the one to correct with --roll PURPOSE=N"
            )
        if saves:
            table[saves[0]] = table.pop("save")
            drawn, unused = _dice_use(rules, events, amendment.model_copy(update={"table": table}), subject)
    for purpose in unused:
        if purpose not in table:  # an earlier correction's die that this one leaves undrawn (a miss: its hits')
            continue
        rolled = f"the dice it rolls are {', '.join(drawn)}" if drawn else "it rolls no dice"
        if purpose in drawn:
            raise BadInput(f"#{at} rolls fewer {purpose} dice than the correction gives: {rolled}")
        raise BadInput(f"#{at} rolls no {printable(purpose)} die: {rolled}")
    return table


def _dice_use(
    rules: RuleSystem, events: list[Event], amendment: Amended, subject: int
) -> tuple[list[str], dict[str, list[int]]]:
    """The dice purposes the corrected event draws (an attack's: its hits' too), and the correction's
    table dice that none of them drew."""
    _, after = refold(rules, events, corrections=directives([*events, amendment]))
    entry = next((r for r in after if r.key == (subject, 0)), None)
    if entry is None:
        return [], dict(amendment.table)
    return entry.drawn, entry.unused


def rederive(
    rules: RuleSystem, events: list[Event], amendment: Amended
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The character's state with `amendment` applied, and what it changed, from its history (`events`,
    those before the amendment), re-derived as the amendment was decided (its `derivation`)."""
    sheet, condition, changes, _ = _rederived(rules, events, amendment)
    return sheet, condition, changes


def _rederived(
    rules: RuleSystem, events: list[Event], amendment: Amended
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], tuple[list[Replayed], list[Replayed]]]:
    """`rederive`, with the history re-derived before the amendment and after it."""
    legacy = amendment.derivation < FOLLOWING
    _, before = refold(rules, events, corrections=directives(events), legacy=legacy)
    character, after = refold(rules, events, corrections=directives([*events, amendment]), legacy=legacy)
    registered = cast(CharacterRegistered, events[0])  # a character's stream begins with its registration
    changes = [
        {**change, "event": event_id(registered.originator_id, change["version"]), "character": registered.name}
        for change in differences(before, after, legacy)
    ]
    sheet, condition = character.sheet.model_dump(mode="json"), character.condition.model_dump(mode="json")
    return sheet, condition, changes, (before, after)


rederive_amendment = rederive  # (ledger/trust/verify.py's name for it)


def replay(session: Session, name: str | None, assignments: dict[str, str], fork: str | None = None) -> dict[str, Any]:
    """Re-derive every outcome under other rulings; with `fork`, also write that timeline as a new campaign."""
    if not assignments:
        raise BadInput("replay needs at least one --ruling KEY=VALUE")
    app, campaign, rules = session.app, session.campaign, session.rules
    parsed = parse_rulings(rules, campaign.rulings, assignments).model_dump(mode="json")
    overrides = {key: parsed[key] for key in assignments}
    app.index.catch_up()
    names = [name] if name else [who for _, who, _ in app.index.characters(campaign.id)]
    forked = _start_fork(session, fork, parsed) if fork else None
    places = Positions(app)
    changed, final, told, ends = [], {}, [], {}
    for who in names:
        who = session.character(who).name
        ident = character_id(campaign.id, who)
        events = events_of(session, ident)
        corrections = directives(events)
        try:
            _, before = refold(rules, events, corrections=corrections)
            character, after = refold(rules, events, overrides, corrections)
        except Underivable as problem:
            raise Refusal(
                f"{who}'s event at {places.named(ident, problem.version)} cannot be decided again"
                f" under these rulings: {problem.reason}"
            ) from None
        for change in differences(before, after):
            changed.append(
                {
                    "event": event_id(ident, change["version"]),
                    "position": places(ident, change["version"]),
                    **({"hit": change["hit"]} if "hit" in change else {}),
                    "character": who,
                    "field": change["field"],
                    "recorded": change["recorded"],
                    "replayed": change["replayed"],
                }
            )
        final[who] = rules.view(character.sheet, character.condition)["condition"]
        told += retold(campaign.system, who, ident, before, after, places)
        ends[who] = rules.summary(character.sheet, character.condition)
        if forked is not None:
            _fork_character(session, forked, events, after, overrides)
    result = {"rulings": overrides, "changed": changed, "final": final, "told": told, "final_summary": ends}
    if forked is not None:
        result["fork"] = {"campaign": fork, "event": forked.last_event_id}
    return result


def retold(
    system: str, name: str, ident: UUID, before: list[Replayed], after: list[Replayed], places: Positions
) -> list[dict[str, Any]]:
    """Each event a re-derivation decided differently, told as recorded and as replayed, by position."""
    old_by = {r.key: r for r in before}
    new_by = {r.key: r for r in after}
    told = []
    for key in sorted(old_by.keys() | new_by.keys()):
        old, new = old_by.get(key), new_by.get(key)
        was, now = old is not None and old.counts, new is not None and new.counts
        if was == now and (not was or (old and old.outcome) == (new and new.outcome)):
            continue
        version, hit = key
        told.append(
            {
                "event": event_id(ident, version),
                "position": places(ident, version),
                "where": places.named(ident, version) + (f", hit {hit}" if hit else ""),
                **({"hit": hit} if hit else {}),
                "character": name,
                "recorded": _told(old, name, system, "It was not recorded.", "It did not count."),
                "replayed": _told(new, name, system, "It is not made.", "It no longer counts."),
            }
        )
    return told


def _told(replayed: Replayed | None, name: str, system: str, absent: str, void: str) -> str:
    if replayed is None:
        return absent
    if not replayed.counts or replayed.event is None:
        return void
    told = explain(replayed.event, name, system)
    return told.replace(f"{name} dies.", f"{name} is dead already.") if replayed.dead_before else told


def replay_text(result: dict[str, Any]) -> str:
    """The replay for people: each changed event (by position) as recorded and as replayed, then where
    everyone ends."""
    under = "; ".join(f"{key.replace('_', ' ')} {outcome_words(value)}" for key, value in result["rulings"].items())
    lines = [
        f"Replayed under the ruling{'s' if len(result['rulings']) > 1 else ''} {under}"
        + (f", written as the campaign {result['fork']['campaign']}." if "fork" in result else " (nothing written).")
    ]
    if not result["told"]:
        lines.append("No recorded outcome changes.")
    for change in result["told"]:
        lines.append(f"{change['character']}, {change['where']}:")
        lines.append("    Recorded: " + change["recorded"])
        lines.append("    Replayed: " + change["replayed"])
    lines += [f"{who} ends {summary}." for who, summary in result["final_summary"].items()]
    return "\n".join(lines)


def amendment_text(result: dict[str, Any]) -> str:
    """The amendment for people: what it corrects (by position), why, and only what that changed, in the
    table's words (domain/changes.py)."""
    at, name = result["position"], result["character"]
    if result["void"]:
        done = f"Voided #{at} ({name})"
    else:
        given = [f"{field_words(key)} {outcome_words(value)}" for key, value in result["inputs"].items()]
        given += [f"{purpose_words(purpose)} {words(faces)}" for purpose, faces in result["table"].items()]
        done = f"Corrected #{at} ({name}) with {_listed(given)}"
    changed: dict[str, list[str]] = {}
    for change in result["changes"]:
        where = f"#{change['position']}" if change["position"] else f"a new event of {change['character']}"
        if change["character"] != name and change["position"]:
            where += f" ({change['character']})"
        where += f", hit {change['hit']}" if change.get("hit") else ""
        field, was, now = change["field"], change["recorded"], change["replayed"]
        if field == "hits" and (_structured(was) or _structured(now)):
            continue  # (an attack's hits: their injuries' own changes say it)
        if field == "counts":
            said = ["no longer counts" if was and not now else "now counts"]
        else:
            said = change_words(field, was, now)
        changed.setdefault(where, []).extend(said)
    parts = "; ".join(f"{where}: {_listed(said)}" for where, said in changed.items())
    condition = f"{result['before']} -> {result['after']}" if result["before"] != result["after"] else result["after"]
    return "\n".join(
        [
            f'{done}: "{" ".join(result["reason"].split())}". It changed {parts}.',
            f"Condition: {condition}.  [event {result['event']}, version {result['version']}]",
        ]
    )


def _structured(value: object) -> bool:
    return isinstance(value, list) and any(isinstance(item, dict) for item in value)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _start_fork(session: Session, name: str, rulings: dict[str, Any]) -> Campaign:
    original = session.campaign
    forked = session.start_campaign(name, original.system, select=False, gm_key=session.key or None)
    for key, value in rulings.items():
        if forked.rulings.get(key) != value:
            forked.change_ruling(key, value, f"forked from {original.name} (replay)", session.by, session.now())
    return forked


def _fork_character(
    session: Session, target: Campaign, events: list[Event], replayed: list[Replayed], overrides: dict[str, Any]
) -> None:
    """The character's alternative timeline in the forked campaign: each event, as the replay decided it,
    points at its original (a hit only the replay makes, at its attack); a consequence names its source
    by the source's version in the fork."""
    registered = cast(CharacterRegistered, events[0])
    ident = character_id(target.id, registered.name)
    twin = Character.start(
        CharacterRegistered,
        ident,
        campaign_id=target.id,
        name=registered.name,
        system=registered.system,
        kind=registered.kind,
        sheet=registered.sheet,
        by=session.by,
        origin=event_id(registered.originator_id, 1),
        timestamp=session.now(),
    )
    session.adopt(twin)
    moved: dict[int, int] = {}  # an original version -> its version in the fork
    for entry in replayed:
        source = entry.event
        if not entry.counts or source is None:
            continue
        # recorded now (its `origin` names the original): a unit of work saves in time order
        fields = source.model_dump(
            exclude={"originator_id", "originator_version", "prev_hash", "hash", "origin", "timestamp", "signed"}
        )
        if isinstance(source, Resolution):
            fields.update(inputs=source.inputs, outcome=source.outcome, rulings={**source.rulings, **overrides})
            link = source_of(source)
            if link is not None and link[0] is not None and link[0] in moved:
                fields.update(linked(type(source), moved[link[0]]))
        twin.trigger_event(
            type(source), origin=event_id(registered.originator_id, entry.version), timestamp=session.now(), **fields
        )
        if not entry.hit:
            moved[entry.version] = twin.version


__all__ = ["Directive", "amend", "amendment_text", "rederive", "replay", "replay_text"]
