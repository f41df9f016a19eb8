"""Registering characters and reading their projected state (now or as of a REF)."""

from __future__ import annotations

from typing import Any

from ..domain.character import character_id
from ..domain.errors import BadInput, NotFound
from ..projections.index import event_id
from .refs import position


def add_character(session: Any, name: str, stats: dict[str, str], virtues: str | None, is_object: bool) -> dict[str, Any]:
    if not name.strip():
        raise BadInput("a character needs a name")
    rules = session.rules
    options: dict[str, Any] = {"kind": "object" if is_object else "character"}
    if virtues is not None:
        if rules.NAME != "pendragon-pass":
            raise BadInput("--virtues is for pendragon-pass campaigns")
        options["virtues"] = [v.strip() for v in virtues.split(",") if v.strip()]
    if is_object and rules.NAME != "potestas":
        raise BadInput("--object is for potestas campaigns")
    sheet = rules.parse_sheet(stats, **options)
    created = session.add_character(name, sheet, kind=options["kind"])
    return {"event": event_id(created.id, created.version), "version": created.version, "name": name,
            "system": rules.NAME, "sheet": sheet.model_dump(mode="json")}


def load(session: Any, name: str, as_of: str | None) -> Any:
    """The character now, or right after REF."""
    if as_of is None:
        return session.character(name)
    campaign = session.campaign
    app = session.app
    bound = position(app.index, campaign.id, as_of)
    ident = character_id(campaign.id, name)
    version = app.index.version_at(ident, bound)
    if version is None:
        session.character(name)  # a name the campaign never had is reported as such
        raise NotFound(f"{name} did not exist yet at {as_of}")
    return app.repository.get(ident, version=version)


def view(session: Any, character: Any) -> dict[str, Any]:
    rules = session.rules
    data = {"name": character.name, "system": character.system, "version": character.version, "kind": character.kind}
    data.update(rules.view(character.sheet, character.condition))
    data["sheet"] = character.sheet.model_dump(mode="json", exclude_none=True)
    data["summary"] = rules.summary(character.sheet, character.condition)
    return data


def character_view(session: Any, name: str, as_of: str | None) -> dict[str, Any]:
    return view(session, load(session, name, as_of))


def character_list(session: Any, as_of: str | None) -> list[dict[str, Any]]:
    campaign = session.campaign
    app = session.app
    app.index.catch_up()
    rows = []
    for _, name, _ in app.index.characters(campaign.id):
        try:
            character = load(session, name, as_of)
        except NotFound:
            continue  # not yet registered at that point of the log
        data = view(session, character)
        rows.append({k: data[k] for k in ("name", "version", "summary", "condition")})
    return rows
