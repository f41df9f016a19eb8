"""What each kind of event means to the read models, and the error for an event none of them knows.

Every fold matches on `kind_of` and ends in `case _: raise UnknownEvent`: an event class added to
the domain without the read models learning it stops them, rather than being silently skipped.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, ClassVar

from ..domain.amendments import Amended
from ..domain.campaign import (
    CampaignArchived,
    CampaignChosen,
    CampaignStarted,
    RulingChanged,
    SessionEnded,
    SessionStarted,
    WinterBegan,
)
from ..domain.character import CharacterRegistered
from ..domain.commitments import DiceCommitted
from ..domain.errors import ChronicleError
from ..domain.events import Resolution
from ..domain.growth import CharacterCast, CharacterRenamed, CharacterRetired, NoteTaken, SheetChanged
from ..domain.participants import ParticipantInvited, ParticipantRemoved, ParticipantSet
from ..domain.rolls import DiceRolled

if TYPE_CHECKING:  # annotations only: the protocols are not needed at run time
    from .feed import Logged


class Kind(str):
    """What an event means to the read models, in words for people. The members are plain class
    attributes rather than an Enum's: every fold matches every event's kind, and an Enum's members
    are several times slower to look up."""

    STARTED: ClassVar[Kind]
    REGISTERED: ClassVar[Kind]
    RESOLVED: ClassVar[Kind]  # every system's `Resolution` subclasses
    AMENDED: ClassVar[Kind]
    ROLLED: ClassVar[Kind]
    CAMPAIGN: ClassVar[Kind]
    CHOSEN: ClassVar[Kind]
    ARCHIVED: ClassVar[Kind]
    GROWN: ClassVar[Kind]
    RENAMED: ClassVar[Kind]
    RETIRED: ClassVar[Kind]
    NOTED: ClassVar[Kind]
    UNKNOWN: ClassVar[Kind]


for _member, _text in {
    "STARTED": "a campaign started",
    "REGISTERED": "a character registered",
    "RESOLVED": "a character changed by its system's rules",
    "AMENDED": "a character's event voided or superseded",
    "ROLLED": "a free roll, on a character or on the campaign",
    "CAMPAIGN": "the campaign's rulings, season or participants changed, a session began or ended, or the ledger"
    " committed to its dice",
    "CHOSEN": "the campaign became the current one",
    "ARCHIVED": "the campaign was archived",
    "GROWN": "a character's sheet changed by growth",
    "RENAMED": "a character took a new name",
    "RETIRED": "a character left the campaign",
    "NOTED": "free text on a character or on the campaign",
    "UNKNOWN": "not an event of chronicle's domain",
}.items():
    setattr(Kind, _member, Kind(_text))


def remember(kinds: dict[str, Kind], logged: Logged) -> Kind:
    """`kind_of` the event's class, kept in `kinds` by topic: a fold asks for every event's kind,
    as `kinds.get(logged.topic) or remember(kinds, logged)`."""
    kind = kinds[logged.topic] = kind_of(logged.event_class)
    return kind


@functools.cache
def kind_of(event_class: type) -> Kind:
    """The kind of the nearest class the read models know among the event class's bases (so a later
    version of an event, or a subclass, folds as its kind does); UNKNOWN when there is none."""
    for known in getattr(event_class, "__mro__", ()):
        found = KINDS.get(known)
        if found is not None:
            return found
    return Kind.UNKNOWN


KINDS: dict[type, Kind] = {
    CampaignStarted: Kind.STARTED,
    CharacterRegistered: Kind.REGISTERED,
    Amended: Kind.AMENDED,
    DiceRolled: Kind.ROLLED,
    Resolution: Kind.RESOLVED,
    RulingChanged: Kind.CAMPAIGN,
    ParticipantSet: Kind.CAMPAIGN,
    ParticipantRemoved: Kind.CAMPAIGN,
    ParticipantInvited: Kind.CAMPAIGN,
    WinterBegan: Kind.CAMPAIGN,
    SessionStarted: Kind.CAMPAIGN,
    SessionEnded: Kind.CAMPAIGN,
    DiceCommitted: Kind.CAMPAIGN,
    CampaignChosen: Kind.CHOSEN,
    CampaignArchived: Kind.ARCHIVED,
    SheetChanged: Kind.GROWN,
    CharacterCast: Kind.GROWN,  # (the party or the others: the characters' rows say which)
    CharacterRenamed: Kind.RENAMED,
    CharacterRetired: Kind.RETIRED,
    NoteTaken: Kind.NOTED,
}


class UnknownEvent(ChronicleError):
    """The log holds an event a read model cannot fold (written by a newer chronicle, or not by chronicle)."""

    code = "unknown_event"

    def __init__(self, view: str, topic: str, position: int):
        super().__init__(
            f"the {view} read model does not know the event {topic} at #{position}:"
            " nothing was folded; is this ledger from a newer chronicle?"
        )
        self.topic, self.position = topic, position
