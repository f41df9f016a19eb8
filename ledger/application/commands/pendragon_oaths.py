"""PenDragon Pass oaths and geasa (docs/rulings.md, PenDragon Pass, Status: oaths and geasa): oath swear, fulfil and
break; geas take and break. A player records them for a character they play."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ....domain.errors import BadInput
from ....domain.pendragon import GeasBroken, GeasTaken, OathBroken, OathFulfilled, OathSworn
from ....domain.pendragon.oaths import BreakGeasInputs, BreakOathInputs, FulfilInputs, GeasInputs, SwearInputs
from ....domain.pendragon.status import MOST_AWARDED, AwardAmount
from ..session import Session
from .base import Reply, handles
from .inputs import inputs
from .pendragon_common import D6, OnCharacter, record, table


class OathSwear(OnCharacter):
    """NAME swears the oath TEXT; later commands name it by its id or its text."""

    command = "oath swear"
    text: str = Field(min_length=1, description="The oath, in the character's words.")
    id: str | None = Field(None, description="A short id for the oath (default oath-N).")


@handles(OathSwear)
def oath_swear(session: Session, command: OathSwear) -> Reply:
    return record(session, command, OathSworn, inputs(SwearInputs, text=command.text, id=command.id))


class OathFulfil(OnCharacter):
    """NAME fulfils the open oath OATH (its id or text) and gains the Status the table sets."""

    command = "oath fulfil"
    oath: str = Field(description="The oath's id or text.")
    # (the schema's bounds are these: a constraint beside AwardAmount's own bounds would be a stray key)
    status: Annotated[AwardAmount, Field(json_schema_extra={"minimum": 0, "maximum": MOST_AWARDED})] = Field(
        description=f"The Status the table sets (0 for an oath of no weight), at most {MOST_AWARDED:,}.", ge=0
    )


@handles(OathFulfil)
def oath_fulfil(session: Session, command: OathFulfil) -> Reply:
    return record(session, command, OathFulfilled, inputs(FulfilInputs, oath=command.oath, status=command.status))


class OathBreak(OnCharacter):
    """NAME breaks the open oath OATH (its id or text): Honor -1, or -d6 when the table rules it grave."""

    command = "oath break"
    oath: str = Field(description="The oath's id or text.")
    grave: bool = Field(False, description="The table rules the failure grave: d6 Honor instead of 1.")
    honor_roll: D6 | None = Field(None, description="The table's d6 Honor loss (grave only).")

    def understood(self) -> None:
        if self.honor_roll is not None and not self.grave:
            raise BadInput("the Honor roll is the d6 of a grave failure: the break must be grave")


@handles(OathBreak)
def oath_break(session: Session, command: OathBreak) -> Reply:
    given = inputs(BreakOathInputs, oath=command.oath, grave=command.grave)
    return record(session, command, OathBroken, given, table(honor_loss=command.honor_roll))


class GeasTake(OnCharacter):
    """NAME takes the geas TEXT (+5 Status each winter it is kept); later commands name it by its id or
    its text."""

    command = "geas take"
    text: str = Field(min_length=1, description="The geas, in the character's words.")
    clan: bool = Field(False, description="A clan geas: breaking it costs 10 Status instead of gaining 10.")
    id: str | None = Field(None, description="A short id for the geas (default geas-N).")


@handles(GeasTake)
def geas_take(session: Session, command: GeasTake) -> Reply:
    return record(session, command, GeasTaken, inputs(GeasInputs, text=command.text, clan=command.clan, id=command.id))


class GeasBreak(OnCharacter):
    """NAME breaks the geas GEAS (its id or text): +10 Status (-10 for a clan geas) and -d6 Honor."""

    command = "geas break"
    geas: str = Field(description="The geas's id or text.")
    honor_roll: D6 | None = Field(None, description="The table's d6 Honor loss.")


@handles(GeasBreak)
def geas_break(session: Session, command: GeasBreak) -> Reply:
    given = inputs(BreakGeasInputs, geas=command.geas)
    return record(session, command, GeasBroken, given, table(honor_loss=command.honor_roll))
