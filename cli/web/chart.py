"""The Status chart's geometry; `templates/_chart.html` draws it as inline SVG (escaped like the rest).

Every full 1,000 of Status earns an increase (seed 004, Glory), so each 1,000 is a labelled threshold
line; a point where an increase was spent is marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 40


@dataclass
class Point:
    x: float
    y: float
    total: int
    position: int
    kind: str
    spent: bool


@dataclass
class Line:
    y: float
    value: int


@dataclass
class Chart:
    width: int
    height: int
    left: int
    right: float
    bottom: float
    points: list[Point]
    thresholds: list[Line]
    polyline: str
    first: int
    last: int


def status_chart(series: list[dict[str, Any]]) -> Chart | None:
    if not series:
        return None
    top = max(1000, (max(p["total"] for p in series) // 1000 + 1) * 1000)
    span = max(len(series) - 1, 1)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + i * (right - LEFT) / span, 1)

    def y(total: int) -> float:
        return round(bottom - max(total, 0) * (bottom - TOP) / top, 1)

    points = [
        Point(x(i), y(p["total"]), p["total"], p["position"], p["type"], p["spent"]) for i, p in enumerate(series)
    ]
    thresholds = [Line(y(value), value) for value in range(0, top + 1, 1000)]
    return Chart(
        WIDTH,
        HEIGHT,
        LEFT,
        right,
        bottom,
        points,
        thresholds,
        " ".join(f"{p.x},{p.y}" for p in points),
        series[0]["position"],
        series[-1]["position"],
    )
