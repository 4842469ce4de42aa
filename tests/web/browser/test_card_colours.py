"""Every card colour has a second cue that survives colour-vision deficiencies and greyscale
(red and yellow inks are about ΔE 6 apart under deuteranopia).

The replay page's legend draws the four colours of one rank. Each card is photographed in
Chromium, the photographs are passed through a simulation of deuteranopia, protanopia
(Machado, Oliveira & Fernandes 2009, severity 1) and greyscale, and every pair of colours must
stay distinguishable: their inks at least ΔE 20 apart (CIE76, in CIELAB), or their corner
marks different shapes (the marks' pixels overlap by less than 65%, intersection over union).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

# Linear-RGB matrices (Machado et al. 2009, severity 1.0).
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
              (-0.003882, -0.048116, 1.051998))
GREY = ((0.2126, 0.7152, 0.0722),) * 3
SIMULATIONS = {"deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA, "greyscale": GREY}
MIN_DELTA_E = 20.0
MAX_MARK_OVERLAP = 0.65

Rgb = tuple[float, float, float]


def to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: Rgb, matrix: tuple[tuple[float, float, float], ...]) -> Rgb:
    lin = [to_linear(c) for c in rgb]
    out = [sum(m * v for m, v in zip(row, lin, strict=True)) for row in matrix]
    return (to_srgb(out[0]), to_srgb(out[1]), to_srgb(out[2]))


def lab(rgb: Rgb) -> Rgb:
    r, g, b = (to_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a: Rgb, b: Rgb) -> float:
    la, lb = lab(a), lab(b)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)


def parse_rgb(css: str) -> Rgb:
    inside = css[css.index("(") + 1: css.index(")")].replace(",", " ").split()
    return (float(inside[0]), float(inside[1]), float(inside[2]))


def mark_mask(png: bytes, scale: int, matrix: Any) -> set[tuple[int, int]]:
    """The pixels of the corner mark in a card's photograph as a reader with this vision
    sees it: in the lower right of the card inside its border, the pixels far (ΔE > 25) from
    the card's face."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    face = simulate(image.getpixel((width // 2, int(height * 0.14))), matrix)
    left, top, border = int(width * 0.6), int(height * 0.7), 3 * scale
    mask = set()
    for x in range(left, width - border):
        for y in range(top, height - border):
            if delta_e(simulate(image.getpixel((x, y)), matrix), face) > 25:
                mask.add((x - left, y - top))
    return mask


def overlap(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


SCALE = 4  # device pixels per CSS pixel: a small card's mark is about 22 pixels wide


@pytest.fixture
def legend(browser: Any, live_server: Any, seeded: Archive) -> Iterator[dict[str, Any]]:
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  device_scale_factor=SCALE, base_url=live_server.url)
    page = context.new_page()
    page.goto(f"/games/{seeded.four.pk}/")
    cards = {}
    for colour in "rygw":
        card = page.locator(f'.card-legend li[data-colour="{colour}"] li.card')
        cards[colour] = {
            "ink": parse_rgb(card.evaluate("(el) => getComputedStyle(el).color")),
            "png": card.screenshot(scale="device"),
        }
    yield cards
    context.close()


@pytest.mark.parametrize("vision", sorted(SIMULATIONS))
def test_it_keeps_every_pair_of_colours_apart(
    legend: dict[str, dict[str, Any]], vision: str
) -> None:
    matrix = SIMULATIONS[vision]
    masks = {c: mark_mask(card["png"], SCALE, matrix) for c, card in legend.items()}
    sizes = {c: len(m) for c, m in masks.items()}
    assert all(size > 100 for size in sizes.values()), sizes  # each card has its mark
    failures = []
    for a, b in combinations("rygw", 2):
        ink = delta_e(simulate(legend[a]["ink"], matrix), simulate(legend[b]["ink"], matrix))
        shared = overlap(masks[a], masks[b])
        if ink < MIN_DELTA_E and shared >= MAX_MARK_OVERLAP:
            failures.append(f"{a}/{b}: ink ΔE {ink:.1f}, marks overlap {shared:.2f}")
    assert failures == []


def test_the_inks_alone_would_not_do_under_deuteranopia(
    legend: dict[str, dict[str, Any]]
) -> None:
    """Why the marks are needed: red and yellow ink fall close together for a deuteranope,
    so the test above passes through the marks, not through the colours."""
    red, yellow = (simulate(legend[c]["ink"], DEUTERANOPIA) for c in "ry")
    assert delta_e(red, yellow) < MIN_DELTA_E
    masks = {c: mark_mask(legend[c]["png"], SCALE, DEUTERANOPIA) for c in "ry"}
    assert overlap(masks["r"], masks["y"]) < MAX_MARK_OVERLAP


def test_it_names_each_colour_and_its_mark_in_the_legend(make_page: Any, seeded: Archive) -> None:
    page = make_page()
    page.goto(f"/games/{seeded.four.pk}/")
    items = page.locator(".card-legend > li").all_inner_texts()
    assert [" ".join(t.split()) for t in items] == [
        "red chariot 俥 red (disc)", "yellow chariot 俥 yellow (triangle)",
        "green chariot 車 green (bar)", "white chariot 車 white (cross)"]
