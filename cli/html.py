"""The character's chronicle as one self-contained HTML page a player opens on a phone or prints:
inline CSS, an inline SVG chart of Status, every event a sentence; nothing from the network."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from typing import Any

from ..domain.explain import system_title
from .chart import KEY_STYLE, status_chart

STYLE = """
* { box-sizing: border-box; }
body { font-family: Georgia, serif; margin: 0 auto; padding: 1em; max-width: 60em; color: #222; background: #fdfaf3;
       line-height: 1.4; overflow-wrap: anywhere; }
h1 { margin: 0; font-size: 1.8em; } h2 { font-size: 1.25em; margin: 0 0 .4em; } .sub { color: #555; margin-top: .2em; }
section { margin-top: 1.6em; } ul.sheet { padding-left: 1.2em; margin: 0; } ul.sheet li { margin: .15em 0; }
table { border-collapse: collapse; width: 100%; font-size: .92em; table-layout: auto; }
th { text-align: left; border-bottom: 2px solid #888; padding: .3em .4em; }
td { border-bottom: 1px solid #ddd; padding: .35em .4em; vertical-align: top; }
td.when, th.when { white-space: nowrap; color: #555; font-size: .9em; } td.when span { display: block; }
td.pos { white-space: nowrap; color: #777; }
tr.voided td.what { text-decoration: line-through; color: #888; } tr.Amended td { background: #fff3d6; }
.chart { width: 100%; max-width: 30em; height: auto; background: #fff; border: 1px solid #ddd; display: block; }
ol.health { list-style: none; padding: 0; margin: 0; border-left: 3px solid #b44; }
ol.health li { margin: 0 0 .6em; padding-left: .8em; }
ol.health li.better { border-left: 3px solid #393; margin-left: -3px; }
ol.health .change { font-weight: bold; } ol.health .when { white-space: nowrap; color: #555; font-size: .9em; }
@media print { body { background: #fff; max-width: none; } section { break-inside: avoid-page; }
               tr { break-inside: avoid; } }
"""


def page(report: dict[str, Any]) -> str:
    character = report["character"]
    name = escape(character["name"])
    sheet = "".join(f"<li>{escape(line)}</li>" for line in report.get("sheet_lines", []))
    chart = (
        f'<section id="status"><h2>Status over time</h2>{status_chart(report["status"])}</section>'
        if report["status"]
        else ""
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name} — chronicle</title>
<style>{STYLE}{KEY_STYLE}</style></head><body>
<header><h1>{name}</h1>
<p class="sub">{escape(report["campaign"])} · {escape(system_title(report["system"]))} ·
version {character["version"]} · {escape(character["summary"])}</p></header>
<section id="sheet"><h2>Sheet</h2><ul class="sheet">{sheet}</ul></section>
{chart}
<section id="health"><h2>Wounds and healing</h2>{health(report.get("health", []))}</section>
<section id="chronicle"><h2>Chronicle</h2>{chronicle(report["timeline"])}</section>
</body></html>
"""


def when(row: dict[str, Any]) -> str:
    """The local time as two pieces that never wrap inside: the date, the time with its offset."""
    stamp = row.get("local_time") or row.get("time") or ""
    day, _, clock = stamp.partition(" ")
    return f"<span>{escape(day)}</span><span>{escape(clock)}</span>"


def struck_html(text: str, escaped: Callable[[str], str] = escape) -> str:
    """A sentence, escaped, with the part a correction struck (~~...~~, ledger/history.py) as <del>."""
    return re.sub(r"~~(.+?)~~", r"<del>\1</del>", escaped(text))


def chronicle(timeline: list[dict[str, Any]]) -> str:
    rows = "\n".join(
        f"<tr class='{escape(e['type'])}{' voided' if any(a['void'] for a in e.get('amended', [])) else ''}'>"
        f"<td class='pos'>#{e['position']}</td><td class='when'>{when(e)}<span>by {escape(e['by'])}</span></td>"
        f"<td class='what'>{struck_html(e['summary'])}</td></tr>"
        for e in timeline
    )
    return (
        f"<table id='timeline'><thead><tr><th scope='col'>#</th><th scope='col' class='when'>When, by</th>"
        f"<th scope='col'>What happened</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def health(changes: list[dict[str, Any]]) -> str:
    """Each event that changed the character's condition: when, the condition it left, and what happened."""
    if not changes:
        return "<p>No wound or healing yet.</p>"
    items = "\n".join(
        f"<li class='{'better' if _better(c) else 'worse'}'><span class='when'>#{c['position']} · "
        f"{escape(c.get('local_time') or '')}</span><br><span class='change'>Now {escape(c['after'])}</span>"
        f"<br>{escape(c['summary'])}</li>"
        for c in changes
    )
    return f"<ol class='health'>{items}</ol>"


def _better(change: dict[str, Any]) -> bool:
    """Healing reads green: the event rested or healed (its class says so)."""
    return any(word in change["type"] for word in ("Rest", "Heal", "Aid", "Chirurg", "Woke", "Recover"))
