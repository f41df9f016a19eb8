"""The Status chart, as inline SVG: the one drawing of it, for the report's page (`report --html`) and the
table view's character page.

A y axis of Status with a dashed line at each total that earns an increase (the domain's rule), an x
axis of the changes by log position, each point's value when there are few, and a ring where an
increase was spent. Its work is bounded whatever the series or the totals: at most MOST_POINTS points
(the last of every k consecutive changes) and at most about ten lines across. Every text in it is
escaped. Its elements carry presentation attributes and classes (the table view's stylesheet restyles
them); the legend's keys are drawn by the page's stylesheet (KEY_STYLE, in the report's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from ..domain.pendragon.increases import STATUS_PER_INCREASE, next_increase_at

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 720, 300, 64, 36, 22, 44
MOST_POINTS = 240  # points drawn at most: a phone's width has fewer pixels than that
MARKED = 24  # up to this many points, each is ringed and labelled with its value
LINES = 10  # horizontal lines at most
SERIES, WARN, GRID, AXIS = "#246", "#c33", "#eee", "#444"


def sampled(series: Sequence[dict[str, Any]], most: int = MOST_POINTS) -> list[dict[str, Any]]:
    """At most `most` points: the last of every k consecutive ones, `spent` if any of them spent an
    increase (as `projections.queries.status_series` samples them in SQL)."""
    if len(series) <= most:
        return list(series)
    step = math.ceil(len(series) / most)
    found = []
    for start in range(0, len(series), step):
        bucket = series[start : start + step]
        found.append({**bucket[-1], "spent": any(p["spent"] for p in bucket)})
    return found


def _step(top: int) -> int:
    """The distance between two horizontal lines: 250, 500, or a multiple of the increase (1, 2 or 5 times
    a power of ten of it), the smallest that keeps them to LINES."""
    for step in (STATUS_PER_INCREASE // 4, STATUS_PER_INCREASE // 2):
        if top / step <= LINES:
            return step
    power = STATUS_PER_INCREASE
    while True:
        for factor in (1, 2, 5):
            if top / (power * factor) <= LINES:
                return power * factor
        power *= 10


def status_chart(series: Sequence[dict[str, Any]]) -> str:
    """The chart of `series` (`{"position", "total", "spent"}` a point, oldest first); "" when empty."""
    if not series:
        return ""
    points = sampled(series)
    highest = max(max(p["total"], 0) for p in points)
    step = _step(next_increase_at(highest))
    top = math.ceil(next_increase_at(highest) / step) * step
    count = max(len(points) - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (i * inner_w / count if len(points) > 1 else inner_w / 2)

    def y(total: int) -> float:
        return TOP + inner_h - max(total, 0) * inner_h / top

    lines = "".join(_line(t, y(t)) for t in range(0, top + 1, step))
    labels = max(1, len(points) // 8)
    x_ticks = "".join(
        f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="13" class="tick">'
        f"#{p['position']}</text>"
        for i, p in enumerate(points)
        if i % labels == 0 or i == len(points) - 1
    )
    polyline = " ".join(f"{x(i):.1f},{y(p['total']):.1f}" for i, p in enumerate(points))
    marks = "".join(
        _mark(x(i), y(p["total"]), p, labelled=len(points) <= MARKED)
        for i, p in enumerate(points)
        if len(points) <= MARKED or p["spent"] or i == len(points) - 1
    )
    base = TOP + inner_h
    axes = (
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="{AXIS}" class="axis"/>'
        f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" stroke="{AXIS}" class="axis"/>'
        f'<text x="14" y="{TOP + inner_h / 2:.1f}" font-size="13" text-anchor="middle" class="tick" '
        f'transform="rotate(-90 14 {TOP + inner_h / 2:.1f})">Status</text>'
        f'<text x="{LEFT + inner_w / 2:.1f}" y="{HEIGHT - 6}" font-size="13" text-anchor="middle" class="tick">'
        f"log position of each change</text>"
    )
    fewer = (
        f"; {len(points)} of its {len(series)} changes are drawn, each the last of its stretch"
        if len(points) < len(series)
        else ""
    )
    return (
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="Status over time{fewer}">{lines}{axes}{x_ticks}'
        f'<polyline fill="none" stroke="{SERIES}" stroke-width="2" class="series" points="{polyline}"/>{marks}</svg>'
        f"{_legend(step)}"
    )


def _line(total: int, at: float) -> str:
    """A horizontal line with its value; dashed where that total earns an increase."""
    earns = total > 0 and total % STATUS_PER_INCREASE == 0
    look = f'stroke="{WARN}" stroke-dasharray="5 4" class="threshold"' if earns else f'stroke="{GRID}" class="grid"'
    return (
        f'<line x1="{LEFT - 4}" x2="{WIDTH - RIGHT}" y1="{at:.1f}" y2="{at:.1f}" {look}/>'
        f'<text x="{LEFT - 8}" y="{at + 4:.1f}" text-anchor="end" font-size="13" class="tick">{total:,}</text>'
    )


def _mark(cx: float, cy: float, point: dict[str, Any], labelled: bool) -> str:
    spent = bool(point["spent"])
    title = f"#{point['position']}: Status {point['total']:,}" + (" (an increase spent)" if spent else "")
    ring = (
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{7 if spent else 4}" fill="{"#fff" if spent else SERIES}" '
        f'stroke="{WARN if spent else SERIES}" stroke-width="3" class="{"spent" if spent else "point"}">'
        f"<title>{escape(title)}</title></circle>"
    )
    if not labelled:
        return ring
    return ring + (
        f'<text x="{cx:.1f}" y="{cy - 10:.1f}" text-anchor="middle" font-size="13" class="value">'
        f"{point['total']:,}</text>"
    )


def _legend(step: int) -> str:
    """What the marks mean, each beside its key (drawn by the page's stylesheet: `.key-*`, KEY_STYLE)."""
    threshold = f"every {STATUS_PER_INCREASE:,} earns an increase" + (
        f" (a line every {step:,})" if step > STATUS_PER_INCREASE else ""
    )
    return (
        '<p class="legend"><span class="key key-series"></span> Status after an event'
        ' <span class="key key-spent"></span> an increase spent'
        f' <span class="key key-threshold"></span> {threshold}</p>'
    )


KEY_STYLE = f"""
.legend {{ font-size: .85em; margin: .3em 0 0; }}
.key {{ display: inline-block; width: .8em; height: .8em; border-radius: 50%; vertical-align: middle;
        margin-left: .6em; }}
.key-series {{ background: {SERIES}; }} .key-spent {{ border: 3px solid {WARN}; }}
.key-threshold {{ width: 1.4em; height: 0; border-radius: 0; border-top: 2px dashed {WARN}; }}
"""
