"""What the PenDragon Pass commands' options share."""

from __future__ import annotations

import click

# Dispatched commands (`injure`) run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}

AT = click.option(
    "--at", metavar="TIME", help="When it happened (ISO-8601), for the First Aid and healing windows; default now."
)
