"""The Status chart, as inline SVG: the one drawing of it, for the report's page (`report --html`) and the
table view's character page.

A y axis of Status with a dashed line at each total that earns an increase (the domain's rule), an x axis
of the changes in order, labelled with the session each was recorded in ("S3") or, outside sessions, its
day ("4 Dec"); each point's value where it fits, and a ring where an increase was spent.

Drawn for a phone first: 400 units wide, its text 13 units, so that shown 370 px wide (on a 390 px phone)
its text is 12 px; pages show it at most 30em wide (its text then 15.6 px). Labels never overlap: each is
placed only where its box (estimated from its characters, a little wider than DejaVu Sans draws them)
meets no other, so crowded ones are thinned out; none leaves the drawing.

Its work is bounded whatever the series or the totals: at most MOST_POINTS points (the last of every k
consecutive changes), at most about ten lines across, at most a label a point. Every text in it is escaped.
Its elements carry presentation attributes and classes (`tick`: the lines' labels, `tick place`: the x
axis's, `tick caption`, `value`), which the table view's stylesheet restyles; the legend's keys are drawn
by the page's stylesheet (KEY_STYLE, in the report's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape
from typing import Any, NamedTuple

from ..domain.pendragon.increases import STATUS_PER_INCREASE, next_increase_at

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 400, 250, 46, 14, 22, 48
FONT = 13  # units: 12 px on a 390 px phone (the drawing shown 370 px wide)
MOST_POINTS = 240  # points drawn at most: a phone's width has fewer pixels than that
MARKED = 24  # up to this many points, each is ringed, and labelled with its value where that fits
LINES = 10  # horizontal lines at most
GAP = 6  # units kept clear between two labels
SERIES, WARN, GRID, AXIS = "#246", "#c33", "#eee", "#444"
ASCENT, DESCENT = 0.95, 0.28  # of a line of text, in ems: a little more than DejaVu Sans's 0.93 and 0.24
# Advance widths in ems, each at least DejaVu Sans's (the widest of the usual sans-serif faces)
NARROW, WIDE, CAPITAL, OTHER = 0.36, 1.0, 0.8, 0.65
WIDTHS = {**dict.fromkeys(",.:;' ()ijlrtfI", NARROW), **dict.fromkeys("mwMW", WIDE)}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


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


class Box(NamedTuple):
    """Where a label's text is drawn, in the drawing's units."""

    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: Box, gap: float = GAP) -> bool:
        return not (
            self.right + gap <= other.left
            or other.right + gap <= self.left
            or self.bottom + gap / 2 <= other.top
            or other.bottom + gap / 2 <= self.top
        )

    def inside(self) -> bool:
        return self.left >= 0 and self.top >= 0 and self.right <= WIDTH and self.bottom <= HEIGHT


def text_width(text: str, size: float = FONT) -> float:
    """The width a line of `text` takes at `size`, at least what DejaVu Sans gives it."""
    return size * sum(WIDTHS.get(c, CAPITAL if c.isupper() else OTHER) for c in text)


def box(x: float, baseline: float, text: str, anchor: str = "middle", size: float = FONT) -> Box:
    width = text_width(text, size)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return Box(left, baseline - ASCENT * size, left + width, baseline + DESCENT * size)


class Labels:
    """The labels placed so far, and their text: a label is drawn only if it meets none of them."""

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.blocked: list[Box] = []  # not labels, but kept clear of them too: the value labels' rings
        self.drawn: list[str] = []

    def place(
        self, x: float, baseline: float, text: str, css: str, anchor: str = "middle", force: bool = False
    ) -> bool:
        found = box(x, baseline, text, anchor)
        if not force and (
            not found.inside()
            or any(found.meets(other) for other in self.boxes)
            or any(found.meets(ring, 1) for ring in self.blocked)
        ):
            return False
        self.boxes.append(found)
        halo = ' stroke="#fff" stroke-width="3" paint-order="stroke"' if css == "value" else ""
        self.drawn.append(
            f'<text x="{x:.1f}" y="{baseline:.1f}" text-anchor="{anchor}" font-size="{FONT}" class="{css}"{halo}>'
            f"{escape(text)}</text>"
        )
        return True


def short(total: int) -> str:
    """A line's total as its label says it: 7,500; 12k; 1.5M; 2B; 3T; past that 9e+18."""
    if total < 10_000:
        return f"{total:,}"
    for size, suffix in ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "k")):
        if total >= size and total < size * 1000:
            return f"{round(total / size, 2):g}{suffix}"
    return f"{total:.0e}"


def _local(stamp: str | None) -> datetime | None:
    """The moment of an index or `log --json` time (UTC), in the local time zone; None when unknown."""
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return None


def places(points: Sequence[dict[str, Any]]) -> list[str]:
    """Where each point's change was recorded, as the x axis says it: "S3" in session 3, else its day, "4 Dec"
    ("4 Dec 2026" when the series spans more than one year); "" when neither is known."""
    days = [_local(p.get("time")) for p in points]
    years = {d.year for d in days if d is not None}
    found = []
    for point, day in zip(points, days, strict=True):
        if point.get("session"):
            found.append(f"S{point['session']}")
        elif day is None:
            found.append("")
        else:
            found.append(f"{day.day} {MONTHS[day.month - 1]}" + (f" {day.year}" if len(years) > 1 else ""))
    return found


def status_chart(series: Sequence[dict[str, Any]]) -> str:
    """The chart of `series` (`{"position", "total", "spent"}` a point, oldest first, with the `session`
    and `time` of `projections.queries.status_series` where known); "" when empty."""
    if not series:
        return ""
    points = sampled(series)
    highest = max(max(p["total"], 0) for p in points)
    step = _step(next_increase_at(highest))
    top = math.ceil(next_increase_at(highest) / step) * step
    count = max(len(points) - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    base = TOP + inner_h

    def x(i: int) -> float:
        return LEFT + (i * inner_w / count if len(points) > 1 else inner_w / 2)

    def y(total: int) -> float:
        return TOP + inner_h - max(total, 0) * inner_h / top

    labels = Labels()
    lines = []
    for total in range(0, top + 1, step):
        lines.append(_line(total, y(total)))
        labels.place(LEFT - 6, y(total) + FONT * 0.35, short(total), "tick", "end", force=True)
    words = {bool(p.get("session")) for p in points if p.get("session") or p.get("time")}
    caption = {
        frozenset({True}): "Session of each change",
        frozenset({False}): "Day of each change",
        frozenset({True, False}): "Session of each change, or its day",
    }.get(frozenset(words), "Each change in order")
    labels.place(LEFT + inner_w / 2, HEIGHT - 4, caption, "tick caption", force=True)
    ticks = _x_labels(labels, places(points), x, base)
    polyline = " ".join(f"{x(i):.1f},{y(p['total']):.1f}" for i, p in enumerate(points))
    marked = [i for i, p in enumerate(points) if len(points) <= MARKED or p["spent"] or i == len(points) - 1]
    marks = "".join(_mark(x(i), y(points[i]["total"]), points[i]) for i in marked)
    if len(points) <= MARKED:
        _values(labels, [(x(i), y(points[i]["total"]), points[i]) for i in marked])
    axes = (
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="{AXIS}" class="axis"/>'
        f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" stroke="{AXIS}" class="axis"/>'
        + (f'<path d="{ticks}" stroke="{AXIS}" class="axis"/>' if ticks else "")
    )
    fewer = (
        f"; {len(points)} of its {len(series)} changes are drawn, each the last of its stretch"
        if len(points) < len(series)
        else ""
    )
    return (
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'font-family="sans-serif" aria-label="Status over time{fewer}">{"".join(lines)}{axes}'
        f'<polyline fill="none" stroke="{SERIES}" stroke-width="2" class="series" points="{polyline}"/>'
        f"{marks}{''.join(labels.drawn)}</svg>"
        f"{_legend(step)}"
    )


def _values(labels: Labels, marked: list[tuple[float, float, dict[str, Any]]]) -> None:
    """Each ringed point's value above it (or above to one side) where that meets no other label and no
    ring; the last value first, the one people look for."""
    labels.blocked = [_ring(cx, cy, point) for cx, cy, point in marked]
    for cx, cy, point in [marked[-1], *marked[:-1]]:
        text, above = f"{point['total']:,}", _ring(cx, cy, point).top - 1 - DESCENT * FONT
        for at, anchor in ((cx, "middle"), (cx + 3, "end"), (cx, "start")):
            if labels.place(at, above, text, "value", anchor):
                break


def _x_labels(labels: Labels, shown: list[str], x: Callable[[int], float], base: float) -> str:
    """Label each run of consecutive points recorded in the same session (or on the same day) under its
    middle, left to right where it meets no label already placed, the last run always (dropping those
    before it that it would meet); returns the path of the ticks under the labelled runs."""
    runs: list[tuple[str, int, int]] = []  # (label, first point, last point)
    for i, text in enumerate(shown):
        if runs and runs[-1][0] == text:
            runs[-1] = (text, runs[-1][1], i)
        else:
            runs.append((text, i, i))
    runs = [run for run in runs if run[0]]
    baseline = base + 25  # clear of the lowest line's label above, of the caption below
    if not runs:
        return ""

    def middle(run: tuple[str, int, int]) -> float:
        width = text_width(run[0])
        centre = (x(run[1]) + x(run[2])) / 2
        return min(max(centre, width / 2 + 1), WIDTH - width / 2 - 1)  # within the drawing

    fixed = list(labels.boxes)
    chosen: list[tuple[tuple[str, int, int], Box]] = []
    for run in runs[:-1]:
        found = box(middle(run), baseline, run[0])
        if not any(found.meets(other) for other in fixed + [b for _, b in chosen]):
            chosen.append((run, found))
    last = box(middle(runs[-1]), baseline, runs[-1][0])
    if not any(last.meets(other) for other in fixed):
        chosen = [(run, b) for run, b in chosen if not last.meets(b)] + [(runs[-1], last)]
    path = []
    for run, _ in chosen:
        labels.place(middle(run), baseline, run[0], "tick place", force=True)
        path.append(f"M{(x(run[1]) + x(run[2])) / 2:.1f} {base:.1f}v4")
    return "".join(path)


def _line(total: int, at: float) -> str:
    """A horizontal line (its label is placed with the others); dashed where that total earns an increase."""
    earns = total > 0 and total % STATUS_PER_INCREASE == 0
    look = f'stroke="{WARN}" stroke-dasharray="5 4" class="threshold"' if earns else f'stroke="{GRID}" class="grid"'
    return f'<line x1="{LEFT - 4}" x2="{WIDTH - RIGHT}" y1="{at:.1f}" y2="{at:.1f}" {look}/>'


STROKE = 3  # a ring's stroke width


def _radius(point: dict[str, Any]) -> int:
    """A point's ring: larger where an increase was spent."""
    return 7 if point["spent"] else 4


def _ring(cx: float, cy: float, point: dict[str, Any]) -> Box:
    """Where a point's ring is drawn: its radius and half its stroke around its centre."""
    out = _radius(point) + STROKE / 2
    return Box(cx - out, cy - out, cx + out, cy + out)


def _mark(cx: float, cy: float, point: dict[str, Any]) -> str:
    spent = bool(point["spent"])
    title = f"#{point['position']}: Status {point['total']:,}" + (" (an increase spent)" if spent else "")
    return (
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{_radius(point)}" fill="{"#fff" if spent else SERIES}" '
        f'stroke="{WARN if spent else SERIES}" stroke-width="{STROKE}" class="{"spent" if spent else "point"}">'
        f"<title>{escape(title)}</title></circle>"
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
