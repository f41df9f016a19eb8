"""chronicle: an event-sourced campaign ledger for tabletop role-playing games.

A Python library too, under the command line as sqlite-utils' `Database` is under its own
(docs/python-api.md): `chronicle.open(target)` gives the ledger, whose `execute` records a command and
`ask` answers a query, each a model (`chronicle.commands`, `chronicle.queries`), each answered with a
`Reply`: its JSON document (the command's `--json`) and its text for people.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .domain import errors as errors
    from .ledger.application import commands as commands
    from .ledger.application import queries as queries
    from .ledger.application.ledger import Ledger

__all__ = ["commands", "errors", "open", "queries"]

# imported when first named: `import chronicle` loads no rule system and no pydantic model
MODULES = {
    "commands": "chronicle.ledger.application.commands",
    "queries": "chronicle.ledger.application.queries",
    "errors": "chronicle.domain.errors",
}


def open(  # noqa: A001  (as `sqlite3.connect`, `sqlite_utils.Database`: the one way in)
    target: str | os.PathLike[str],
    *,
    by: str | None = None,
    campaign: str | None = None,
    create: bool = False,
) -> Ledger:
    """The ledger at TARGET (a SQLite file or a `postgresql://` URL), as `chronicle --db TARGET` opens it:
    `by` records as that author (else `$CHRONICLE_BY`, else the participant the identity in use is, else
    your user name), `campaign` picks a campaign by name (else the current one). A SQLite file that does
    not exist is bad input unless `create`. Close it when done (or use it as a context manager)."""
    from .ledger.application.ledger import Ledger
    from .ledger.application.names import default_author
    from .ledger.store.targets import must_exist

    where = os.fspath(target)
    if not create:
        must_exist(where)
    named = by or os.environ.get("CHRONICLE_BY")
    return Ledger(where, by=named or default_author(), campaign=campaign, by_given=named is not None)


def __getattr__(name: str) -> Any:
    if name in MODULES:
        return importlib.import_module(MODULES[name])
    raise AttributeError(f"module 'chronicle' has no attribute {name!r}")
