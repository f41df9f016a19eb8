"""`chronicle mcp`: the ledger for assistants, over the Model Context Protocol on stdio."""

from __future__ import annotations

import click

from .context import Env


@click.command()
@click.option(
    "--as",
    "acting_as",
    metavar="NAME",
    help="Act as the participant NAME, whose key the identity in use must be, with NAME's role.",
)
@click.pass_obj
def mcp(env: Env, acting_as: str | None) -> None:
    """Serve the ledger to an assistant over the Model Context Protocol on standard input and output: a
    tool per command that writes (as `commands --json` lists them) of the rule systems the database's
    campaigns use, acting as your identity with your role; the tools log, character_show, campaign_show,
    recap and verify; each campaign and character as a resource. Every tool takes an optional
    `campaign`, which writes nothing; the global options (--db, --by, --campaign) apply to every call.

    \b
    Example (an assistant's MCP configuration):
      {"mcpServers": {"chronicle": {"command": "chronicle", "args": ["--db", "/path/table.db", "mcp"]}}}
    """
    from ..ledger.application.connections import staying_up
    from .assistant.desk import Desk
    from .assistant.server import serve

    staying_up()  # its connections keep small page caches: an assistant's session lasts hours
    serve(Desk(env.db, env.by, env.campaign, env.by_given, env.seed, acting_as=acting_as))
