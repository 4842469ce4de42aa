"""Cards written in running text (the analysis's sentences: "letting 炮 go instead of melding
炮炮") carry the tiles' shape cue, as the card tiles do: each glyph is followed by its colour's
mark (a disc, a triangle, a bar or a cross), the same shape as the tile's corner mark, and the
mark stays visible to a reader with deuteranopia (Chromium's own emulation)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from tests.web.browser.test_replay_page import open_replay
from tests.web.conftest import Archive
from tests.web.test_replay_analysis import hand_made

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("few_analysis_samples")]

SHAPE = """(el) => { const s = getComputedStyle(el, '::after');
  return [s.content, s.clipPath, s.borderRadius, s.width !== '0px'].join('|'); }"""


@pytest.mark.parametrize("locale", ["en-GB", "vi-VN", "zh-TW"])
def test_cards_in_the_analysis_text_carry_the_tiles_marks(
    make_page: Any, seeded: Archive, locale: str
) -> None:
    known = hand_made(seeded.four)
    page = make_page(locale=locale)
    page.context.new_cdp_session(page).send(
        "Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
    open_replay(page, f"/games/{seeded.four.pk}/?ply={known['p3']}")
    glyphs = page.locator("[data-analysis-ply]:not([hidden]) .decision__sentence .glyph")
    assert glyphs.count() >= 2
    for i in range(glyphs.count()):
        glyph = glyphs.nth(i)
        colour = next(c[len("glyph--"):] for c in glyph.get_attribute("class").split()
                      if c.startswith("glyph--"))
        tile = page.locator(f'.card-legend li[data-colour="{colour}"] li.card')
        assert glyph.evaluate(SHAPE) == tile.evaluate(SHAPE)
        # the mark is drawn: the right part of the glyph's photograph (where the mark is) has
        # pixels in the glyph's ink, not only the page's background
        image = Image.open(io.BytesIO(glyph.screenshot())).convert("L")
        width, height = image.size
        dark = [image.getpixel((x, y)) for x in range(int(width * 0.62), width)
                for y in range(height)]
        assert sum(p < 160 for p in dark) >= 4, (colour, width)
