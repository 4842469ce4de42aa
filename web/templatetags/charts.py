"""Small SVG charts drawn on the server: no script, no library, no CDN.

Each chart is a `<figure>` with an `<svg role="img">` whose `<title>`/`<desc>` say what it
shows, and a caption; the numbers it draws are also in the page as text for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
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


@register.simple_tag
def line_chart(values: Sequence[float], title: str, caption: str = "",
               chart_id: str = "chart-line", decimals: int = 0) -> SafeString:
    """A running figure (the net settlement, a rating after each round) as a line with a zero
    rule. `chart_id` tells several charts of one page apart; `decimals` how to write values."""
    if not values:
        return format_html('<p class="empty">{}</p>', _("No rounds yet."))
    points = _downsample(list(values))
    low, high = min(0, min(values)), max(0, max(values))
    span = (high - low) or 1
    last_index = max(len(values) - 1, 1)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + inner_w * i / last_index

    def y(v: float) -> float:
        return PAD_TOP + inner_h * (high - v) / span

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
    ticks = format_html_join(
        "",
        '<line class="chart__grid" x1="{}" x2="{}" y1="{}" y2="{}"></line>'
        '<text class="chart__tick" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (PAD_LEFT, WIDTH - PAD_RIGHT, f"{y(t):.1f}", f"{y(t):.1f}", PAD_LEFT - 6,
             f"{y(t) + 4:.1f}", t)
            for t in _nice_ticks(low, high)
        ),
    )
    desc = _("%(count)s rounds, from %(first)s to %(last)s; lowest %(low)s, highest %(high)s.") % {
        "count": len(values), "first": _number(values[0], decimals),
        "last": _number(values[-1], decimals), "low": _number(min(values), decimals),
        "high": _number(max(values), decimals),
    }
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-t '
        '{id}-d" preserveAspectRatio="xMidYMid meet"><title id="{id}-t">{title}</title>'
        '<desc id="{id}-d">{desc}</desc>{ticks}'
        '<line class="chart__zero" x1="{l}" x2="{r}" y1="{zy}" y2="{zy}"></line>'
        '<polyline class="chart__line" points="{path}"></polyline>'
        '<circle class="chart__dot" cx="{lx}" cy="{ly}" r="3.5"></circle>'
        '<text class="chart__tick" x="{l}" y="{by}">1</text>'
        '<text class="chart__tick" x="{r}" y="{by}" text-anchor="end">{n}</text>'
        "</svg><figcaption>{caption}</figcaption></figure>",
        w=WIDTH, h=HEIGHT, id=chart_id, title=title, desc=desc, ticks=ticks,
        l=PAD_LEFT, r=WIDTH - PAD_RIGHT, zy=f"{y(0):.1f}", path=path,
        lx=f"{x(points[-1][0]):.1f}", ly=f"{y(points[-1][1]):.1f}",
        by=HEIGHT - 8, n=len(values), caption=caption or desc,
    )


@register.simple_tag
def bar_chart(items: Sequence[tuple[str, int, str]], title: str) -> SafeString:
    """Horizontal bars: (label, count, css modifier) per row, with counts written beside."""
    total = sum(count for _label, count, _cls in items)
    if not total:
        return format_html('<p class="empty">{}</p>', _("No rounds yet."))
    row_h, label_w, width = 30, 190, WIDTH
    bar_w = width - label_w - 70
    height = row_h * len(items) + 8
    biggest = max(count for _label, count, _cls in items) or 1
    rows = []
    for index, (label, count, modifier) in enumerate(items):
        top = 4 + index * row_h
        length = bar_w * count / biggest
        share = 100 * count / total
        rows.append(format_html(
            '<text class="chart__label" x="{lx}" y="{ty}" text-anchor="end">{label}</text>'
            '<rect class="chart__bar chart__bar--{mod}" x="{bx}" y="{by}" width="{bw}" '
            'height="{bh}" rx="3"></rect>'
            '<text class="chart__value" x="{vx}" y="{ty}">{count} ({share}%)</text>',
            lx=label_w - 8, ty=top + 18, label=label, mod=modifier, bx=label_w, by=top + 4,
            bw=f"{max(length, 1 if count else 0):.1f}", bh=row_h - 8,
            vx=f"{label_w + length + 6:.1f}",
            count=count, share=f"{share:.0f}",
        ))
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="chart-bars-t">'
        '<title id="chart-bars-t">{title}</title>{rows}</svg></figure>',
        w=width, h=height, title=title, rows=mark_safe("".join(rows)),
    )
