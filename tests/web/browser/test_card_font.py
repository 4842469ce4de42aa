"""The site's own font draws the cards and the game's name, whatever fonts the device has
(Chromium reports the font each text node was drawn with: CSS.getPlatformFontsForNode)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser


def fonts_of(page: Any, selector: str) -> dict[str, int]:
    """Glyph counts by font family for the text inside the first element `selector` finds."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    # The element's own text node carries the font: ask for the element's first text child.
    described = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"]
    counts: dict[str, int] = {}
    for child in described.get("children", []):
        if child["nodeType"] != 3:
            continue
        pushed = cdp.send("DOM.pushNodesByBackendIdsToFrontend",
                          {"backendNodeIds": [child["backendNodeId"]]})["nodeIds"][0]
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": pushed})["fonts"]:
            counts[font["familyName"]] = counts.get(font["familyName"], 0) + font["glyphCount"]
    return counts


def test_it_draws_the_brand_and_the_footer_name_with_its_own_font(
    page: Any, seeded: Archive
) -> None:
    page.goto("/")
    page.evaluate("document.fonts.ready")

    brand = fonts_of(page, ".brand__mark")
    assert brand == {"Xiangqi Cards": 2}, brand  # 四色
    footer = fonts_of(page, ".site-footer p")
    assert footer.get("Xiangqi Cards", 0) >= 3, footer  # 四色牌 (and spaces)
    assert len(footer) >= 2, footer  # the Latin text keeps the page's font


def test_it_draws_the_card_glyphs_with_its_own_font(page: Any, seeded: Archive) -> None:
    page.goto(f"/games/{seeded.four.pk}/?ply=10")
    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    page.evaluate("document.fonts.ready")

    card = fonts_of(page, ".seat .card:not(.card--back) [aria-hidden=true]")
    assert card == {"Xiangqi Cards": 1}, card
