"""The card font subset and its stylesheet agree with each other and stay small."""

from __future__ import annotations

import re
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
FONT = STATIC / "fonts" / "xiangqi-cards.woff2"
CSS = STATIC / "css" / "cards.css"
# The seven ranks of the red/white set, then of the yellow/green set (RULES.md).
CARD_GLYPHS = set("帥仕相俥傌炮兵將士象車馬包卒")
# The game's name, in the brand and the footer of every page.
NAME_GLYPHS = set("四色牌")
SUBSET = CARD_GLYPHS | NAME_GLYPHS | {" "}
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def test_it_has_every_card_glyph_and_nothing_else() -> None:
    font = TTFont(FONT)

    assert font.flavor == "woff2"
    assert {chr(code) for code in font.getBestCmap()} == SUBSET


def test_it_covers_every_cjk_character_the_pages_write_themselves() -> None:
    # A device without a CJK font shows a box for any other: the translations (locale/) and
    # what users write (player names) are the reader's fonts' business, not the site's text.
    written = set()
    for folder, pattern in ((ROOT / "templates", "*.html"), (STATIC / "js", "*.js")):
        for path in folder.rglob(pattern):
            written |= set(CJK.findall(path.read_text("utf-8")))

    assert NAME_GLYPHS <= written
    assert written <= SUBSET


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
    assert declared == SUBSET
    assert 'url("../fonts/xiangqi-cards.woff2")' in css


def test_it_styles_the_four_colours() -> None:
    css = CSS.read_text("utf-8")

    for colour in "rygw":
        assert re.search(rf"\.card--{colour}\s*{{", css), colour
