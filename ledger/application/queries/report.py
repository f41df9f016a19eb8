"""`report NAME`: a character's chronicle for the table, from the log and the read models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..reply import Reply
from ..text import stories, wrapped
from .base import Query, answers, field, required

if TYPE_CHECKING:
    from ..ledger import Ledger


@dataclass(frozen=True, kw_only=True)
class Report(Query):
    """The story of a character from the log: every wound, healing, award, oath, geas, winter and
    correction (with who and why), the sheet and condition, and for PenDragon Pass Status over time."""

    query: ClassVar[str] = "report"
    name: str = required("The character.")
    data: bool = field("Each event's recorded fields too (`data`) in the timeline.", True, document=False)


@answers(Report)
def report(ledger: Ledger, asked: Report) -> Reply:
    from ..views.report import character_report

    data = character_report(ledger.read(), asked.name, data=asked.data)
    columns = ledger.presentation.columns
    return Reply(lambda: data, lambda: told(data, columns()))


def told(data: dict[str, Any], columns: int) -> str:
    """The report for people, COLUMNS wide: the sheet, Status over time, wounds and healing, the chronicle."""
    from ....domain.explain import system_title

    character = data["character"]
    title = f"{data['campaign']} ({system_title(data['system'])}), version {character['version']}"
    lines = [f"{character['name']} — {title}: {character['summary']}", ""]
    lines += [text for line in data["sheet_lines"] for text in wrapped(line, 2, columns)]
    if data["status"]:
        lines += ["", "Status over time:"]
        lines += [
            f"  #{p['position']:<6} {p['total']:>6,}" + ("  an increase spent" if p["spent"] else "")
            for p in data["status"]
        ]
    if data["health"]:
        lines += ["", "Wounds and healing:"]
        lines += [f"  #{c['position']:<6} now {c['after']}" for c in data["health"]]
    lines += ["", "Chronicle:", stories(data["timeline"], columns, who=False)]
    return "\n".join(lines)
