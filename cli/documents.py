"""`chronicle commands`: every command that writes, as the documents `batch --jsonl`, the table view and
assistants send (their JSON Schemas with --json)."""

from __future__ import annotations

from typing import Any

import click

from .options import common
from .output import emit, table


@click.command()
@click.option("--character", default=None, help="With --campaign: the choices of this character's sheet.")
@common
@click.pass_obj
def commands(env: Any, character: str | None) -> None:
    """List every command that writes: its rule systems and what it does; with --json, each command
    document's JSON Schema (draft 2020-12).

    Given --campaign, the commands of its system, each field whose values the campaign's sheets or rules
    know an `enum` (with --character, that character's weapons, skills, wounds and oaths).

    \b
    Example:
      chronicle commands --json
      chronicle commands --json --campaign Sartar --character Vasana
    """
    from ..ledger.application.commands import published

    listed = published()
    if env.campaign is not None:
        listed = _of_campaign(env, listed, character)
    elif character is not None:
        raise click.UsageError("--character needs --campaign: the choices are a campaign's")
    emit(
        env,
        lambda: {"commands": listed},
        lambda: table(
            None,
            ("command", "systems", "what it does"),
            [(name, ", ".join(entry["systems"]) or "every system", entry["summary"]) for name, entry in listed.items()],
        ),
    )


def _of_campaign(env: Any, listed: dict[str, Any], character: str | None) -> dict[str, Any]:
    """The commands of the campaign's system, their schemas narrowed to its choices (ledger/application/choices.py)."""
    from ..ledger.application.choices import schemas
    from ..ledger.application.queries import CampaignShow, CharacterShow

    campaign = env.ledger.ask(CampaignShow()).document
    if character is not None:
        character = env.ledger.ask(CharacterShow(name=character)).document["name"]  # (an unknown one: exit 2)
    narrowed = schemas(env.ledger, campaign["id"], character)
    found = {}
    for name, schema in narrowed.items():
        head = {key: listed[name]["schema"][key] for key in ("$schema", "title")}
        found[name] = {**listed[name], "schema": {**head, **schema}}
    return found
