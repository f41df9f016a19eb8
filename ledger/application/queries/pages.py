"""What the table view's pages read (`chronicle serve`): the campaigns, a campaign's party, a character's
page, a page of the log, and the events appended after a position for `/events`.

Pages never read the whole log and fold nothing: the campaign page reads the characters' rows, a
character page its row, its newest events as they were told, and its Status series from the changes
model; the log page a window of positions. Only a page as of an earlier event (`as_of`) folds the
characters it shows up to that point, as `character show --as-of` does. A campaign is named by its id
(pages link by ids), a readable address by names, matched as on the command line (`names.matching`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from ....domain.errors import NotFound
from ..current import current_id
from ..names import matching
from ..reply import Reply
from .base import Query, answers, field, required

if TYPE_CHECKING:
    from ....domain.systems import RuleSystem
    from ....projections import queries as rows
    from ...store.chronicle import Chronicle
    from ..ledger import Ledger

STORY = 40  # events of a character's story shown on its page (the log page has the rest)
LOG_PAGE = 100
STREAM_PAGE = 500  # events read at a time for /events


@dataclass(frozen=True, kw_only=True)
class Campaigns(Query):
    """Every campaign by id, name and system, oldest first, and which is the current one."""

    query: ClassVar[str] = "campaigns"


@dataclass(frozen=True, kw_only=True)
class CampaignPage(Query):
    """A campaign's page: its party's rows, Status leaders, open oaths and geasa, and sessions of play."""

    query: ClassVar[str] = "campaign page"
    campaign: str | None = field("The campaign's id (else `name`, else the current campaign).")
    name: str | None = field("The campaign's name, matched as on the command line.")
    as_of: str | None = field("As the campaign stood right after an event id, #position or ISO time.")


@dataclass(frozen=True, kw_only=True)
class CharacterPage(Query):
    """A character's page: its view, sheet, newest events and Status over time (`character`: None when no
    character has that id)."""

    query: ClassVar[str] = "character page"
    id: str = required("The character's id.")
    as_of: str | None = field("The state right after an event id, #position or ISO time.")
    points: int | None = field("At most this many points of its Status over time (what a chart has room for).")


@dataclass(frozen=True, kw_only=True)
class CharacterAddress(Query):
    """Where a character's page is: its id, and its campaign's and its own name as written; found by
    its id, or by the names in a readable address (matched as on the command line)."""

    query: ClassVar[str] = "character address"
    id: str | None = field("The character's id.")
    campaign: str | None = field("Its campaign's name.")
    name: str | None = field("Its name.")


@dataclass(frozen=True, kw_only=True)
class LogPage(Query):
    """A page of a campaign's log, newest first: of one character, of one kind of event, within a session
    of play, from `since`, until `until` or `as_of`, before a position; at most `tail` of them."""

    query: ClassVar[str] = "log page"
    campaign: str = required("The campaign's id.")
    character: str | None = field("Only this character's events (its name as written).")
    kind: str | None = field("Only events of this kind.")
    as_of: str | None = field("At or before an event id, #position or ISO time.")
    before: int | None = field("Before this log position (the next page).")
    session: int | None = field("Only the events of this session of play.")
    since: str | None = field("At or after an event id, #position or ISO time.")
    until: str | None = field("At or before an event id, #position or ISO time.")
    tail: int | None = field("At most this many (and never more than a page).")


@dataclass(frozen=True, kw_only=True)
class Appended(Query):
    """The events after a log position (a page of them), as `log --json` has them, with their campaign's
    name and the character's id; and where the log ends."""

    query: ClassVar[str] = "appended"
    after: int | None = field("The last position seen (None: only where the log ends).")


@answers(Campaigns)
def campaigns(ledger: Ledger, asked: Campaigns) -> Reply:
    app = ledger.app
    app.index.catch_up()
    listed = [{"id": ident, "name": name, "system": system} for ident, name, system in app.index.campaigns()]
    current, _ = current_id(app, app.index)
    return Reply.of({"campaigns": listed, "current": current}, ", ".join(c["name"] for c in listed))


@answers(CampaignPage)
def campaign_page(ledger: Ledger, asked: CampaignPage) -> Reply:
    """Only the campaign asked for is built, so a page costs the same however many campaigns there are."""
    from ....domain import systems

    app = ledger.app
    index = app.index
    index.catch_up()
    known = [{"id": ident, "name": name, "system": system} for ident, name, system in index.campaigns()]
    if asked.campaign is not None:
        chosen = next((c for c in known if c["id"] == asked.campaign), None)
        if chosen is None:
            raise NotFound("this ledger has no campaign with that id")
    elif asked.name is not None:
        chosen = matching(asked.name, {c["name"]: c for c in known}, "campaign")
    else:  # the one this user chose (`campaign use`), else the newest
        current, _ = current_id(app, index)
        chosen = next((c for c in known if c["id"] == current), known[-1] if known else None)
    if chosen is None:
        return Reply.of({"campaign": None, "campaigns": known}, "No campaign yet.")
    ident, name, system = chosen["id"], chosen["name"], chosen["system"]
    cid = UUID(ident)
    everyone = _party(ledger, cid, name, asked.as_of)
    ids = {who: character for character, who, _ in index.characters(cid)}
    for row in everyone:
        row["id"] = ids.get(row["name"], "")
        row["npc"] = bool(row.get("npc"))
    party = [row for row in everyone if not row["npc"]]
    everyone = party + [row for row in everyone if row["npc"]]  # the party first, then the others
    spans = [] if asked.as_of else _spans(app, cid)
    running = next((s for s in spans if s.end is None), None)
    page = {
        **chosen,
        "characters": everyone,
        "leaders": sorted(  # the party's: foes and the gm's people lead no one
            ({"name": r["name"], "id": r["id"], "status": r["status"]["total"]} for r in party if "status" in r),
            key=lambda r: -r["status"],
        ),
        "oaths": _vows(everyone, "oaths", "open"),
        "geasa": _vows(everyone, "geasa", "kept"),
        "kinds": kinds(systems.get(system)),
        "session": running.name if running else None,  # the session being played, if one has started
        "sessions": [(s.number, s.name) for s in spans],
    }
    return Reply.of({"campaign": page, "campaigns": known}, name)


def _party(ledger: Ledger, campaign_id: UUID, name: str, as_of: str | None) -> list[dict[str, Any]]:
    app = ledger.app
    if as_of is None:
        return app.characters.list(campaign_id)
    from ..refs import position
    from ..views.characters import character_view

    session = ledger.session(name)
    bound = position(app.index, campaign_id, as_of)
    return [
        character_view(session, who, f"#{bound}")
        for ident, who, _ in app.index.characters(campaign_id)
        if app.index.version_at(UUID(ident), bound) is not None
    ]


def _vows(party: list[dict[str, Any]], key: str, state: str) -> list[dict[str, Any]]:
    return [
        {**vow, "character": row["name"], "character_id": row["id"]}
        for row in party
        for vow in row.get(key, [])
        if vow.get("state") == state
    ]


def _spans(app: Chronicle, campaign_id: UUID) -> list[Any]:
    from ..views.campaigns import session_spans

    return session_spans(app, campaign_id)


def kinds(rules: RuleSystem) -> list[str]:
    """The names of the events a campaign of this system can hold, for the log's filter."""
    common = ["CampaignStarted", "CharacterRegistered", "DiceRolled", "RulingChanged", "Amended"]
    return common + sorted(e.__name__ for e in rules.EVENTS)


@answers(CharacterPage)
def character_page(ledger: Ledger, asked: CharacterPage) -> Reply:
    from ....projections import queries
    from ....projections.catchup import catch_up
    from ..refs import position
    from ..views.characters import character_view

    try:
        oid = UUID(asked.id)
    except ValueError:
        return Reply.of({"character": None}, "No such character.")
    app = ledger.app
    # the character's row, and its Status series's changes and their times: the log read once for the three
    catch_up([app.characters, app.changes, app.index])
    row = queries.character_row(app.views, oid)
    if row is None:
        return Reply.of({"character": None}, "No such character.")
    bound = None
    if asked.as_of is None:
        view, count = row.view, row.version
    else:  # as it was then: folded up to that point, as `character show --as-of` does
        bound = position(app.index, row.campaign_id, asked.as_of)
        view = character_view(ledger.session(row.campaign), row.name, f"#{bound}")
        count = queries.event_count(app.views, oid, bound)
    # its own events and those on others that name it (an attack it made, a First Aid it gave)
    entries = queries.newest_entries(app.views, oid, STORY, bound, (row.campaign_id, row.name))
    others = any(entry.originator_id != oid for entry in entries)  # (their names: a query only then)
    names = {UUID(ident): who for ident, who, _ in app.index.characters(row.campaign_id)} if others else {}
    page = {
        "id": asked.id,
        "name": row.name,
        "campaign": row.campaign,
        "campaign_id": str(row.campaign_id),
        "system": row.system,
        "view": view,
        "sheet": list(view.get("sheet_lines", [])),  # the system's own sheet lines, when it has them
        # a story is the newest events: a correction of one of them, being newer, is among them
        "story": _told(
            app,
            entries,
            {**names, oid: row.name},
            row.system,
            row.campaign,
            row.campaign_id,
            corrected=any(entry.kind == "Amended" for entry in entries),
        ),
        "status": (  # Status after each change (PenDragon Pass)
            queries.status_series(app.views, oid, bound, asked.points, row.campaign_id) if "status" in view else []
        ),
        "events": count,
    }
    return Reply.of({"character": page}, row.name)


@answers(CharacterAddress)
def character_address(ledger: Ledger, asked: CharacterAddress) -> Reply:
    from ....projections import queries

    app = ledger.app
    if asked.id is not None:
        try:
            oid = UUID(asked.id)
        except ValueError:
            raise NotFound("this ledger has no character at that address") from None
        app.characters.catch_up()
        row = queries.character_row(app.views, oid)
        if row is None:
            raise NotFound("this ledger has no character at that address")
        found = {"id": asked.id, "campaign": row.campaign, "name": row.name}
        return Reply.of(found, row.name)

    def find() -> dict[str, Any]:
        names = queries.names(app.views)
        campaign = matching(asked.campaign or "", {r[1]: r[1] for r in names}, "campaign")
        party = {r[3]: r[2] for r in names if r[1] == campaign and r[3] is not None}
        name = matching(asked.name or "", {who: who for who in party}, "character")
        return {"id": party[name], "campaign": campaign, "name": name}

    try:  # the index is caught up only when a name is not found in it as it stands
        found = find()
    except NotFound:
        app.index.catch_up()
        found = find()
    return Reply.of(found, found["name"])


@answers(LogPage)
def log_page(ledger: Ledger, asked: LogPage) -> Reply:
    from ....projections import queries
    from ..refs import position, since_position, until_position

    app = ledger.app
    index = app.index
    index.catch_up()
    cid = UUID(asked.campaign)
    found = index.campaign(asked.campaign)
    if found is None:
        return Reply.of({"events": []}, "No events.")
    campaign, system = found
    names = {UUID(i): who for i, who, _ in index.characters(cid)}
    originator = None
    if asked.character:
        originator = next((oid for oid, who in names.items() if who == asked.character), None)
        if originator is None:
            return Reply.of({"events": []}, "No events.")
    high = position(index, cid, asked.as_of) if asked.as_of else None
    if asked.before is not None:
        high = asked.before - 1 if high is None else min(high, asked.before - 1)
    if asked.until:  # `log --until`: at or before an event id, #position or time
        last = until_position(index, cid, asked.until)
        high = last if high is None else min(high, last)
    low = since_position(index, cid, asked.since) if asked.since else 0
    if asked.session is not None:
        span = next((s for s in _spans(app, cid) if s.number == asked.session), None)
        start, end = (0, 0) if span is None else (span.start, span.end)  # no such session: nothing
        low = max(low, start)
        high = end if high is None else high if end is None else min(high, end)
    most = min(asked.tail or LOG_PAGE, LOG_PAGE)
    entries = queries.log_entries(app.views, cid, originator, asked.kind, low, high, most, asked.character)
    told = _told(app, entries, names, system, campaign, cid)
    return Reply.of({"events": told}, "\n".join(f"#{e['position']} {e['text']}" for e in told))


def _told(
    app: Chronicle,
    entries: list[rows.Entry],
    names: dict[UUID, str],
    system: str,
    campaign: str,
    campaign_id: UUID,
    corrected: bool | None = None,
) -> list[dict[str, Any]]:
    """Each entry as a line of a story or the log: in the sentences it was told with when recorded, or
    explained again where no row kept them (events of a batch or an import, or of a renamed character);
    an event a correction changed, struck and told as corrected (views/history.py, `struck`). CORRECTED:
    whether a correction may be among what the entries tell (None: not known from the entries alone)."""
    from ....domain.explain import explain
    from ....domain.ids import event_id
    from ..views.history import amendments, decoded, notifications_at, struck

    changed: dict[str, list[dict[str, Any]]] = {}
    if corrected is None:
        corrected = bool(entries) and bool(app.index.amendments(campaign_id))
    if corrected:
        changed = amendments(app, campaign_id, changes=True)[1]
    again = [
        e.position
        for e in entries
        if e.told is None
        or e.told_name != names.get(e.originator_id, "")
        or (changed and event_id(e.originator_id, e.version) in changed)
    ]
    events = {stored.id: decoded(app, stored) for stored in notifications_at(app, sorted(again))}
    told = []
    for entry in entries:
        who = names.get(entry.originator_id)
        event = events.get(entry.position)
        if event is None:
            text = entry.told
        else:  # a correction names positions
            text = explain(event, who or campaign, system, app.index.position_of)
            ident = event_id(entry.originator_id, entry.version)
            if ident in changed:
                text = struck(event, who or "", system, text, changed[ident])
        told.append(
            {
                "position": entry.position,
                "time": entry.time[:19].replace("T", " "),
                "by": entry.by if event is None else event.by,
                "type": entry.kind,
                "text": text,
                "character": who,
                "character_id": str(entry.originator_id) if who else None,
            }
        )
    return told


@answers(Appended)
def appended(ledger: Ledger, asked: Appended) -> Reply:
    """Read by the page's live updates: where the log ends, and a page of what came after `after`."""
    app = ledger.app
    last = app.feed.last()
    if asked.after is None or asked.after >= last:
        return Reply.of({"last": last, "events": []}, "")
    from ....domain.ids import event_id
    from ....projections import queries
    from ...store.mapper import mapper_of
    from ..views.history import describe

    notifications = app.recorder.select_notifications(start=asked.after, limit=STREAM_PAGE, inclusive_of_start=False)
    app.index.catch_up()
    events = [mapper_of(app).to_domain_event(notification) for notification in notifications]
    # the names of these events' characters and campaigns alone (a look comes at every write, of any campaign)
    names = queries.character_names(app.views, {event.originator_id for event in events})
    of = {event.originator_id: _campaign_of(event.originator_id, names) for event in events}
    campaigns = queries.campaign_names(app.views, set(of.values()))
    found = []
    for notification, event in zip(notifications, events, strict=True):
        ident = event_id(event.originator_id, event.originator_version)
        who, _ = names.get(event.originator_id, (None, None))
        row = describe(event, notification.id, ident, who, position_of=app.index.position_of)
        row["campaign"] = campaigns.get(of[event.originator_id])
        row["character_id"] = str(event.originator_id) if who else None
        found.append(row)
    return Reply.of({"last": last, "events": found}, "")


def _campaign_of(originator: UUID, names: dict[UUID, tuple[str, str]]) -> UUID:
    """The campaign of an aggregate's events: its character's, else its own (a campaign's event)."""
    campaign = names.get(originator, ("", ""))[1]
    return UUID(campaign) if campaign else originator
