"""Corrections and what-if timelines as commands: `amend`, and `replay --fork` (a replay without
`--fork` writes nothing: it is a read, `what_if`, whose reply is built the same way)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .. import audit
from ..session import Session
from .base import Command, Reply, handles
from .fields import D20, Int64, Pairs, pairs, whole_numbers


class Amend(Command):
    """Correct the event REF (id, #position or time) by a new event; the original stays in the log.

    Everything that followed on that character is re-derived from its recorded inputs and dice (an
    attack's hits from the attack as corrected). A correction that changes no recorded outcome is
    refused."""

    command = "amend"
    label = "Correct an event"
    ref: str = Field(description="The event to correct: its id, position (12 or #12) or time.")
    reason: str = Field(description="Why the event is corrected (kept in the log).")
    void: bool = Field(False, description="The event no longer counts.")
    set_: Pairs = Field([], alias="set", description="Corrected inputs, KEY=VALUE (e.g. damage=9).")
    roll: Pairs = Field(
        [],
        description="Corrected dice, NAME=FACES, by the names `log --json` gives each event's dice under "
        "`correctable`: attack, confirm, damage (a hit's damage:HIT:WEAPON), save (a hit's save:HIT), defence and "
        "defence_damage (an armed defender's strike), knockout and knockout_rounds (a sap), check and opponent, "
        "heal, honor_loss, productivity, worship, experience:NAME, training (e.g. save=14, damage:1:1=3,5).",
    )
    damage: Int64 | None = Field(None, description="Shorthand for set damage=N.")
    save_roll: D20 | None = Field(None, description="The event's save die (an attack's hit: save:N), corrected.")
    dry_run: bool = Field(False, description="Answer what the correction would change, writing nothing.")

    def inputs(self) -> dict[str, str]:
        corrected = pairs(self.set_)
        if self.damage is not None:
            corrected["damage"] = str(self.damage)
        return corrected

    def table(self) -> dict[str, list[int]]:
        given = pairs(self.roll)
        table = {purpose: whole_numbers(faces, f"the table's {purpose} dice") for purpose, faces in given.items()}
        if self.save_roll is not None:
            table["save"] = [self.save_roll]
        return table


@handles(Amend)
def amend(session: Session, command: Amend) -> Reply:
    ref = command.ref.strip()
    ref = f"#{ref}" if ref.isdigit() else command.ref  # a bare position (`#12` unquoted is a shell comment)
    result = audit.amend(session, ref, command.reason, command.void, command.inputs(), command.table())
    keys = ("event", "version", "amends", "position", "character", "void", "changes", "condition")
    if command.dry_run:  # (Ledger.execute rolls its unit back: docs/design.md, "What-if without writing")
        text = audit.amendment_text(result).split("  [event")[0]  # (no event of that id is recorded)
        for done, would in (
            ("Voided ", "Would void "),
            ("Corrected ", "Would correct "),
            (" It changed ", " It would change "),
        ):
            text = text.replace(done, would, 1)
        document = {key: result[key] for key in keys if key not in ("event", "version")}
        return Reply.of({**document, "dry_run": True}, f"{text}\n(A dry run: nothing written.)")
    return Reply(lambda: {key: result[key] for key in keys}, lambda: audit.amendment_text(result))


class Replay(Command):
    """Write the what-if timeline of other rulings as a new campaign whose events point at their originals.

    `replay` without `--fork` shows the same re-derivation and writes nothing."""

    command = "replay"
    name: str | None = Field(None, description="The character to replay (else everyone).")
    ruling: Pairs = Field(min_length=1, description="The rulings to replay under, KEY=VALUE.")
    fork: str = Field(description="The new campaign the alternative timeline is written as.")


@handles(Replay)
def replay(session: Session, command: Replay) -> Reply:
    return _replayed(audit.replay(session, command.name, pairs(command.ruling), command.fork))


def what_if(session: Session, name: str | None, rulings: list[str]) -> Reply:
    """`replay` without `--fork`: the re-derivation under other rulings, writing nothing."""
    return _replayed(audit.replay(session, name, pairs(rulings), None))


def _replayed(result: dict[str, Any]) -> Reply:
    return Reply(lambda: result, lambda: audit.replay_text(result))
