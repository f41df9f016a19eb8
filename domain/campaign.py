"""The Campaign aggregate: a name, a rule system and the rulings in force."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from .aggregate import Aggregate
from .dice import DiceRecord
from .events import Created, Event
from .ids import campaign_id  # noqa: F401  (the ids campaigns had before they were drawn at random: benchmarks)

if TYPE_CHECKING:
    from .participants import Participant


def _absent(value: object) -> bool:
    return value is None


class CampaignStarted(Created):
    name: str
    system: str
    rulings: dict[str, Any]
    chosen: bool = True  # the current campaign from now on (not a replay's fork)
    # the creator's key: they are the campaign's first participant, a gm (none in older ledgers)
    gm_key: str | None = Field(None, exclude_if=_absent)

    class_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Campaigns started before `campaign use` existed: each was the newest when it started."""
        state.setdefault("chosen", True)

    def apply(self, aggregate: "Campaign") -> None:
        aggregate.name, aggregate.system, aggregate.rulings = self.name, self.system, dict(self.rulings)
        aggregate.winters = []
        aggregate.sessions = ()
        aggregate.archived = False
        if self.gm_key is not None:
            from .participants import Participant

            aggregate.participants = {self.by: Participant(self.by, "gm", (), self.gm_key, 1)}


class RulingChanged(Event):
    key: str
    value: Any
    previous: Any
    reason: str

    def apply(self, aggregate: "Campaign") -> None:
        aggregate.rulings = {**aggregate.rulings, self.key: self.value}


class WinterBegan(Event):
    """The campaign-wide half of a Winter Phase: the year and its one land roll."""

    year: int
    land_roll: int
    land_modifier: int
    source: str
    dice: DiceRecord = DiceRecord()  # the land roll, when the ledger rolled it

    def apply(self, aggregate: "Campaign") -> None:
        aggregate.winters = [*aggregate.winters, self.year]


class SessionStarted(Event):
    """A night at the table begins: the session is the events between this and its end."""

    number: int
    title: str = ""

    def apply(self, aggregate: "Campaign") -> None:
        aggregate.sessions = (*aggregate.sessions, GameSession(self.number, self.title, self.originator_version))


class SessionEnded(Event):
    number: int
    digest: str = ""  # the ledger's digest when the session ended, to hold the log to it later

    def apply(self, aggregate: "Campaign") -> None:
        *earlier, last = aggregate.sessions
        aggregate.sessions = (*earlier, last.ended(self.originator_version))


class CampaignChosen(Event):
    """`campaign use`: later commands on this database act on this campaign without `--campaign`."""

    def apply(self, aggregate: "Campaign") -> None:
        """Which campaign is current is the index's to answer; the campaign itself is unchanged."""


class CampaignArchived(Event):
    """Made by mistake or by the demo: hidden from lists, its events kept."""

    reason: str

    def apply(self, aggregate: "Campaign") -> None:
        aggregate.archived = True


@dataclass(frozen=True)
class GameSession:
    """A session by the versions of the campaign events that started and ended it."""

    number: int
    title: str
    started: int
    finished: int | None = None

    def ended(self, version: int) -> "GameSession":
        return GameSession(self.number, self.title, self.started, version)


class Campaign(Aggregate):
    """State: name, system, rulings (the values in force), winters (years whose Winter Phase ran),
    sessions (numbered, the last one possibly open) and whether it is archived.

    Events are module-level classes: the library would re-create nested ones."""

    if TYPE_CHECKING:  # declared for the type checker only: annotations would make the library a dataclass of it
        name: str
        system: str
        rulings: dict[str, Any]
        winters: list[int]
        sessions: tuple[GameSession, ...]
        archived: bool
        participants: Mapping[str, Participant]

    participants = MappingProxyType({})  # by name (domain/participants.py): none in older ledgers

    def change_ruling(self, key: str, value: Any, reason: str, by: str, timestamp: datetime) -> None:
        self.trigger_event(
            RulingChanged,
            key=key,
            value=value,
            previous=self.rulings.get(key),
            reason=reason,
            by=by,
            timestamp=timestamp,
        )

    @property
    def open_session(self) -> GameSession | None:
        last = self.sessions[-1] if self.sessions else None
        return last if last is not None and last.finished is None else None
