"""The card font subset and its stylesheet agree with each other and stay small."""

from __future__ import annotations

import re
from pathlib import Path

from fontTools.ttLib import TTFont

STATIC = Path(__file__).resolve().parents[2] / "static"
FONT = STATIC / "fonts" / "xiangqi-cards.woff2"
CSS = STATIC / "css" / "cards.css"
# The seven ranks of the red/white set, then of the yellow/green set (RULES.md).
CARD_GLYPHS = set("帥仕相俥傌炮兵將士象車馬包卒")


def test_it_has_every_card_glyph_and_nothing_else() -> None:
    font = TTFont(FONT)

    assert font.flavor == "woff2"
    assert {chr(code) for code in font.getBestCmap()} == CARD_GLYPHS | {" "}


def test_it_keeps_the_font_tiny() -> None:
    assert FONT.stat().st_size < 30 * 1024


def test_it_renames_the_subset_and_ships_the_licence() -> None:
    names = TTFont(FONT)["name"]

    assert names.getDebugName(1) == "Xiangqi Cards"
    assert "Open Font License" in (names.getDebugName(13) or "")
    assert "SIL OPEN FONT LICENSE Version 1.1" in (STATIC / "fonts" / "OFL.txt").read_text("utf-8")


def test_it_declares_the_font_for_exactly_its_glyphs() -> None:
    css = CSS.read_text("utf-8")
    ranges = re.search(r"unicode-range:([^;]*);", css)

    assert ranges is not None
    declared = {chr(int(code, 16)) for code in re.findall(r"U\+([0-9A-Fa-f]+)", ranges.group(1))}
    assert declared == CARD_GLYPHS | {" "}
    assert 'url("../fonts/xiangqi-cards.woff2")' in css


def test_it_styles_the_four_colours() -> None:
    css = CSS.read_text("utf-8")

    for colour in "rygw":
        assert re.search(rf"\.card--{colour}\s*{{", css), colour
