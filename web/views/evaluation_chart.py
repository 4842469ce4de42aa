"""The replay page's evaluation chart: the played option's value at each decision, one line per
seat, drawn by templates/records/_evaluation_chart.html from the geometry computed here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from web.views.replay_analysis import (
    MARKS,
    VERDICT_LABELS,
    DecisionView,
    ReplayAnalysis,
    points,
)

# Wider than the other charts (it spans the page, not a column): its text keeps their size.
WIDTH, HEIGHT = 960, 240
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 56, 12, 12, 26
# A seat's line differs by dash and points' shape, not only colour, and is named at its end.
SEAT_DASHES = ("none", "8 4", "2 3", "10 3 2 3")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")


def _nice_step(span: float) -> float:
    raw = span / 4
    for step in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500):
        if raw <= step:
            return step
    return 1000.0


@dataclass
class _Axes:
    """Where plies and values fall on the chart: the value axis in round steps around zero."""

    low: float
    high: float
    step: float
    plies: int

    @classmethod
    def fitting(cls, values: Sequence[float], plies: int) -> _Axes:
        low, high = min(0.0, *values), max(0.0, *values)
        step = _nice_step(max(high - low, 1.0))
        return cls(step * (low // step), step * -((-high) // step), step, max(plies, 1))

    def x(self, ply: int) -> float:
        return PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) * ply / self.plies

    def y(self, value: float) -> float:
        inner = HEIGHT - PAD_TOP - PAD_BOTTOM
        return PAD_TOP + inner * (self.high - value) / ((self.high - self.low) or 1.0)

    def ticks(self) -> list[tuple[str, str, str]]:
        """(y, label's y, label) of each grid line."""
        out, tick = [], self.low
        while tick <= self.high + 1e-9:
            out.append((f"{self.y(tick):.1f}", f"{self.y(tick) + 4:.1f}", points(tick, True)))
            tick += self.step
        return out


def evaluation_chart(analysis: ReplayAnalysis, plies: int, view: int | None,
                     query: Any, current: int = 0) -> SafeString:
    """The played option's value at each decision (the seat's expected settlement), one line
    per seat shown, over the plies of the round: server-drawn SVG. Every decision is a link to
    its ply (and a band around it, so that a click anywhere near it lands on it); a cursor
    line marks the current ply (moved by replay.js)."""
    decisions = analysis.decisions
    if not decisions:
        return format_html('<p class="empty">{}</p>', _("No decision to chart."))
    values = [d.ev for d in decisions]
    axes = _Axes.fitting(values, plies)

    def href(ply: int) -> str:
        params = query.copy()
        params["ply"] = str(ply)
        return "?" + params.urlencode()

    names = sorted({(d.seat, d.name) for d in decisions})
    title = (_("Expected settlement of each seat after each decision") if view is None else
             _("%(name)s’s expected settlement after each decision") % {"name": names[0][1]})
    return render_to_string("records/_evaluation_chart.html", {
        "w": WIDTH, "h": HEIGHT, "x0": PAD_LEFT, "x1": WIDTH - PAD_RIGHT, "tick_x": PAD_LEFT - 6,
        "top": PAD_TOP, "bottom": HEIGHT - PAD_BOTTOM, "inner_h": HEIGHT - PAD_TOP - PAD_BOTTOM,
        "base": HEIGHT - 8, "plies": plies, "title": title,
        "desc": _("%(count)s decisions from ply %(first)s to %(last)s; values from %(low)s "
                  "to %(high)s points.") % {
            "count": len(decisions), "first": decisions[0].ply, "last": decisions[-1].ply,
            "low": points(min(values), True), "high": points(max(values), True)},
        "ticks": axes.ticks(), "zero": f"{axes.y(0):.1f}", "cursor": f"{axes.x(current):.1f}",
        "bands": [(href(ply), ply, *span) for ply, span in _bands(decisions, axes)],
        "lines": _seat_lines(decisions, axes),
        "dots": [(href(d.ply), d, *_dot(d, axes)) for d in decisions],
        "legend": names if len(names) > 1 else [],
        "marks": [(mark, VERDICT_LABELS[verdict]) for verdict, mark in MARKS.items()],
    })


def _bands(decisions: Sequence[DecisionView], axes: _Axes) -> list[tuple[int, tuple[str, str]]]:
    """(ply, (left, width)): each decision ply owns the stretch halfway to its neighbours."""
    plies = sorted({d.ply for d in decisions})
    edges = [PAD_LEFT, *((axes.x(a) + axes.x(b)) / 2 for a, b in pairwise(plies)),
             WIDTH - PAD_RIGHT]
    return [(ply, (f"{left:.1f}", f"{max(right - left, 1):.1f}"))
            for ply, (left, right) in zip(plies, pairwise(edges), strict=True)]


def _dot(d: DecisionView, axes: _Axes) -> tuple[str, str, str, str]:
    """(marker path, mark's x, mark's y, title) of a decision's point."""
    x, y = axes.x(d.ply), axes.y(d.ev)
    title = _("Ply %(ply)s, %(name)s: %(ev)s (%(verdict)s)") % {
        "ply": d.ply, "name": d.name, "ev": points(d.ev, True), "verdict": d.verdict_label}
    path = _marker(d.seat, x, y, 4 if d.verdict == "good" else 6)
    return path, f"{x:.1f}", f"{y - 10:.1f}", title


def _marker(seat: int, cx: float, cy: float, r: float) -> str:
    """A decision's point as an SVG path, in its seat's shape."""
    shape = SEAT_SHAPES[(seat - 1) % len(SEAT_SHAPES)]
    if shape == "circle":
        return (f"M{cx - r:.1f},{cy:.1f}a{r},{r} 0 1,0 {2 * r},0"
                f"a{r},{r} 0 1,0 {-2 * r},0Z")
    if shape == "square":
        return f"M{cx - r:.1f},{cy - r:.1f}h{2 * r}v{2 * r}h{-2 * r}Z"
    k = 1.3 * r
    if shape == "triangle":
        return f"M{cx:.1f},{cy - k:.1f}L{cx + k:.1f},{cy + r:.1f}L{cx - k:.1f},{cy + r:.1f}Z"
    return (f"M{cx:.1f},{cy - k:.1f}L{cx + k:.1f},{cy:.1f}L{cx:.1f},{cy + k:.1f}"
            f"L{cx - k:.1f},{cy:.1f}Z")


def _seat_lines(decisions: Sequence[DecisionView], axes: _Axes) -> list[dict[str, Any]]:
    """Each seat's line, its dash and the name at its end."""
    out = []
    for seat in sorted({d.seat for d in decisions}):
        mine = [d for d in decisions if d.seat == seat]
        end_x, end_y = axes.x(mine[-1].ply), axes.y(mine[-1].ev)
        anchor, dx = ("end", -10) if end_x > WIDTH - PAD_RIGHT - 120 else ("start", 10)
        out.append({
            "seat": seat, "dash": SEAT_DASHES[(seat - 1) % len(SEAT_DASHES)],
            "points": " ".join(f"{axes.x(d.ply):.1f},{axes.y(d.ev):.1f}" for d in mine),
            "x": f"{end_x + dx:.1f}", "y": f"{end_y + 18:.1f}", "anchor": anchor,
            "name": mine[-1].name})
    return out
