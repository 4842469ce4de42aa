"""Small SVG charts drawn on the server by templates (records/_line_chart.html, _bar_chart.html):
no script, no library, no CDN.

Each chart is a `<figure>` with an `<svg role="img">` whose `<title>`/`<desc>` say what it
shows, and a caption; the numbers it draws are also in the page as text for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from typing import Any

from django import template
from django.utils.translation import gettext as _

register = template.Library()

WIDTH, HEIGHT = 640, 220
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 48, 12, 12, 28
# Drawing more points than the chart has pixels only makes the page heavier.
MAX_POINTS = 400


def _downsample(values: Sequence[float], limit: int = MAX_POINTS) -> list[tuple[int, float]]:
    """(index, value) pairs, at most `limit`, always keeping the first and last value."""
    n = len(values)
    if n <= limit:
        return list(enumerate(values))
    step = (n - 1) / (limit - 1)
    indexes = sorted({round(i * step) for i in range(limit)})
    return [(i, values[i]) for i in indexes]


def _nice_ticks(low: float, high: float, count: int = 4) -> list[int]:
    low, high = math.floor(low), math.ceil(high)
    if low == high:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** (len(str(int(abs(raw)))) - 1) if raw >= 1 else 1
    step = max(1, int(round(raw / magnitude)) * magnitude)
    start = (low // step) * step
    return [v for v in range(start, high + step, step) if low <= v <= high] or [low, high]


def _number(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}" if decimals else str(int(round(value)))


@register.inclusion_tag("records/_line_chart.html")
def line_chart(values: Sequence[float], title: str, caption: str = "",
               chart_id: str = "chart-line", decimals: int = 0) -> dict[str, Any]:
    """A running figure (the net settlement, a rating after each round) as a line with a zero
    rule. `chart_id` tells several charts of one page apart; `decimals` how to write values."""
    if not values:
        return {"empty": True}
    points = _downsample(list(values))
    low, high = min(0, min(values)), max(0, max(values))
    last_index = max(len(values) - 1, 1)

    def x(i: int) -> str:
        return f"{PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) * i / last_index:.1f}"

    def y(v: float, shift: int = 0) -> str:
        inner = HEIGHT - PAD_TOP - PAD_BOTTOM
        return f"{PAD_TOP + inner * (high - v) / ((high - low) or 1) + shift:.1f}"

    desc = _("%(count)s rounds, from %(first)s to %(last)s; lowest %(low)s, highest %(high)s.") % {
        "count": len(values), "first": _number(values[0], decimals),
        "last": _number(values[-1], decimals), "low": _number(min(values), decimals),
        "high": _number(max(values), decimals),
    }
    return {
        "w": WIDTH, "h": HEIGHT, "id": chart_id, "title": title, "desc": desc,
        "ticks": [(y(t), y(t, 4), t) for t in _nice_ticks(low, high)], "tick_x": PAD_LEFT - 6,
        "left": PAD_LEFT, "right": WIDTH - PAD_RIGHT, "zero": y(0), "base": HEIGHT - 8,
        "path": " ".join(f"{x(i)},{y(v)}" for i, v in points),
        "last": (x(points[-1][0]), y(points[-1][1])), "n": len(values),
        "caption": caption or desc,
    }


@register.inclusion_tag("records/_bar_chart.html")
def bar_chart(items: Sequence[tuple[str, int, str]], title: str) -> dict[str, Any]:
    """Horizontal bars: (label, count, css modifier) per row, with counts written beside."""
    total = sum(count for _label, count, _cls in items)
    if not total:
        return {"empty": True}
    row_h, label_w = 30, 190
    bar_w = WIDTH - label_w - 70
    biggest = max(count for _label, count, _cls in items) or 1
    rows = []
    for index, (label, count, modifier) in enumerate(items):
        top = 4 + index * row_h
        length = bar_w * count / biggest
        rows.append({
            "label": label, "count": count, "modifier": modifier, "y": top + 4,
            "text_y": top + 18, "width": f"{max(length, 1 if count else 0):.1f}",
            "value_x": f"{label_w + length + 6:.1f}", "share": f"{100 * count / total:.0f}",
        })
    return {"w": WIDTH, "h": row_h * len(items) + 8, "title": title, "rows": rows,
            "label_x": label_w - 8, "bar_x": label_w, "bar_h": row_h - 8}
