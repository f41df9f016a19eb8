"""Amendments and what-if replays over a character's recorded history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from ..domain.amendments import Amended
from ..domain.character import Character, CharacterRegistered, character_id
from ..domain.errors import BadInput, NotFound, Refusal
from ..domain.events import Event, Resolution
from ..domain.ids import event_id
from ..domain.refold import Directive, Replayed, differences, directives, refold
from .history import retold
from .refs import position
from .rulings import parse_rulings

if TYPE_CHECKING:
    from ..domain.campaign import Campaign
    from ..domain.systems import RuleSystem
    from .app import Chronicle
    from .session import Session


def history(app: Chronicle, ident: UUID) -> list[Event]:
    return cast(list[Event], list(app.events.get(ident)))  # the library's protocol type: ours are `Event`s


def amend(
    session: Session, ref: str, reason: str, void: bool, new_inputs: dict[str, str], table: dict[str, list[int]]
) -> dict[str, Any]:
    if not reason.strip():
        raise BadInput("--reason must say why")
    if void == bool(new_inputs or table):
        raise BadInput("amend takes either --void or corrections (--set KEY=VALUE, --roll PURPOSE=FACES)")
    app, campaign = session.app, session.campaign
    target_position = position(app.index, campaign.id, ref)
    found = app.index.event_at(campaign.id, target_position)
    if found is None:
        raise NotFound(f"no event {ref} in this campaign")
    owner, version = found
    events = history(app, owner)
    registered, target = events[0], events[version - 1]
    if isinstance(target, CharacterRegistered) or not isinstance(registered, CharacterRegistered):
        raise Refusal("only a character's recorded actions can be amended (not registrations or campaign events)")
    if not void and not isinstance(target, (Resolution, Amended)):
        raise Refusal(f"{type(target).__name__} has no inputs to correct; it can only be voided")
    character = session.character(registered.name)
    provisional = Amended(
        originator_id=owner,
        originator_version=len(events) + 1,
        timestamp=target.timestamp,
        by=session.by,
        target=event_id(owner, version),
        target_version=version,
        reason=reason,
        void=void,
        inputs=new_inputs or None,
        table=table,
    )
    sheet, condition, changes = rederive_amendment(session.rules, events, provisional)
    character.trigger_event(
        Amended,
        target=provisional.target,
        target_version=version,
        reason=reason,
        void=void,
        inputs=provisional.inputs,
        table=table,
        sheet=sheet,
        condition=condition,
        changes=changes,
        by=session.by,
        timestamp=session.now(),
    )
    return {
        "event": event_id(owner, character.version),
        "version": character.version,
        "amends": provisional.target,
        "character": character.name,
        "void": void,
        "changes": changes,
        "condition": session.rules.view(character.sheet, character.condition)["condition"],
    }


def rederive_amendment(
    rules: RuleSystem, events: list[Event], amendment: Amended
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The character's state with `amendment` applied, and what it changed, from its history."""
    _, before = refold(rules, events, corrections=directives(events))
    character, after = refold(rules, events, corrections=directives([*events, amendment]))
    registered = cast(CharacterRegistered, events[0])  # a character's stream begins with its registration
    changes = [
        {**change, "event": event_id(registered.originator_id, change["version"]), "character": registered.name}
        for change in differences(before, after)
    ]
    return character.sheet.model_dump(mode="json"), character.condition.model_dump(mode="json"), changes


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
    changed, final, told, ends = [], {}, [], {}
    for who in names:
        session.character(who)
        events = history(app, character_id(campaign.id, who))
        corrections = directives(events)
        _, before = refold(rules, events, corrections=corrections)
        character, after = refold(rules, events, overrides, corrections)
        for change in differences(before, after):
            changed.append(
                {
                    "event": event_id(events[0].originator_id, change["version"]),
                    "character": who,
                    "field": change["field"],
                    "recorded": change["recorded"],
                    "replayed": change["replayed"],
                }
            )
        final[who] = rules.view(character.sheet, character.condition)["condition"]
        told += retold(campaign.system, who, before, after)  # the same changes in sentences, for people
        ends[who] = rules.summary(character.sheet, character.condition)
        if forked is not None:
            _fork_character(session, forked, events, after, corrections, overrides)
    result = {"rulings": overrides, "changed": changed, "final": final, "told": told, "final_summary": ends}
    if forked is not None:
        result["fork"] = {"campaign": fork, "event": forked.last_event_id}
    return result


def _start_fork(session: Session, name: str, rulings: dict[str, Any]) -> Campaign:
    original = session.campaign
    forked = session.start_campaign(name, original.system, select=False)
    for key, value in rulings.items():
        if forked.rulings.get(key) != value:
            forked.change_ruling(key, value, f"forked from {original.name} (replay)", session.by, session.now())
    return forked


def _fork_character(
    session: Session,
    target: Campaign,
    events: list[Event],
    replayed: list[Replayed],
    corrections: dict[int, Directive],
    overrides: dict[str, Any],
) -> None:
    """The character's alternative timeline in the forked campaign: each event points at its original."""
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
    rederived = {r.version: r.event for r in replayed}
    for event in events[1:]:
        version = event.originator_version
        if isinstance(event, Amended) or (version in corrections and corrections[version].void):
            continue
        source = rederived.get(version) or event
        # recorded now (its `origin` names the original): a unit of work saves in time order
        fields = source.model_dump(
            exclude={"originator_id", "originator_version", "prev_hash", "hash", "origin", "timestamp"}
        )
        if isinstance(source, Resolution):
            fields.update(inputs=source.inputs, outcome=source.outcome, rulings={**source.rulings, **overrides})
        twin.trigger_event(
            type(source), origin=event_id(event.originator_id, version), timestamp=session.now(), **fields
        )
