"""The character's chronicle as one self-contained HTML page: inline CSS and an inline SVG chart."""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT, PAD = 720, 260, 40


def page(report: dict[str, Any]) -> str:
    character = report["character"]
    rows = "\n".join(
        f"<tr class='{escape(e['type'])}{' amended' if e.get('amended') else ''}'><td>#{e['position']}</td>"
        f"<td>{escape(e['time'][:19])}</td><td>{escape(e['by'])}</td><td>{escape(e['type'])}</td>"
        f"<td>{escape(e['summary'])}</td></tr>" for e in report["timeline"])
    condition = _terms(character["condition"])
    sheet = _terms(character["sheet"])
    chart = status_chart(report["status"]) if report["status"] else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(character['name'])} — chronicle</title>
<style>
body {{ font-family: Georgia, serif; margin: 2em auto; max-width: 60em; color: #222; background: #fdfaf3; }}
h1 {{ margin-bottom: 0; }} .sub {{ color: #666; margin-top: .2em; }}
dl {{ display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }} dt {{ font-weight: bold; }}
table {{ border-collapse: collapse; width: 100%; font-size: .9em; }}
td {{ border-bottom: 1px solid #ddd; padding: .25em .5em; vertical-align: top; }}
tr.amended td {{ text-decoration: line-through; color: #999; }} tr.Amended td {{ background: #fff3d6; }}
section {{ margin-top: 2em; }} .chart {{ background: #fff; border: 1px solid #ddd; }}
</style></head><body>
<h1>{escape(character['name'])}</h1>
<p class="sub">{escape(report['campaign'])} · {escape(report['system'])} · version {character['version']} ·
{escape(character['summary'])}</p>
<section><h2>Condition</h2><dl>{condition}</dl></section>
{f'<section id="status"><h2>Status over time</h2>{chart}</section>' if chart else ''}
<section><h2>Sheet</h2><dl>{sheet}</dl></section>
<section><h2>Chronicle</h2><table id="timeline">{rows}</table></section>
</body></html>
"""


def _terms(mapping: dict[str, Any]) -> str:
    """A definition list; nested values read as "name value, ..." and empty ones say "none"."""
    return "".join(f"<dt>{escape(str(key))}</dt><dd>{escape(_plain(value))}</dd>" for key, value in mapping.items())


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) or "none"
    return str(value)


def status_chart(series: list[dict[str, Any]]) -> str:
    """Status after each change, with a dashed line at every 1,000 and a mark where an increase was spent."""
    top = max(1000, (max(p["total"] for p in series) // 1000 + 1) * 1000)
    count = max(len(series) - 1, 1)

    def x(i: int) -> float:
        return PAD + i * (WIDTH - 2 * PAD) / count

    def y(total: int) -> float:
        return HEIGHT - PAD - total * (HEIGHT - 2 * PAD) / top

    lines = [f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#c33" stroke-dasharray="4 4"/>'
             f'<text x="{PAD - 4}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t}</text>'
             for t in range(1000, top + 1, 1000)]
    points = " ".join(f"{x(i):.1f},{y(p['total']):.1f}" for i, p in enumerate(series))
    marks = [f'<circle cx="{x(i):.1f}" cy="{y(p["total"]):.1f}" r="{6 if p["spent"] else 3}" '
             f'fill="{"#c33" if p["spent"] else "#246"}"><title>#{p["position"]} {escape(p["type"])}: {p["total"]}'
             f'{" (increase spent)" if p["spent"] else ""}</title></circle>' for i, p in enumerate(series)]
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="Status over time">'
            f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#444"/>'
            f'{"".join(lines)}<polyline fill="none" stroke="#246" stroke-width="2" points="{points}"/>'
            f'{"".join(marks)}</svg>')
