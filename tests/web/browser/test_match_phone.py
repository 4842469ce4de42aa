"""The match page on a phone (390 px): every credit column on screen without scrolling
sideways, and the site's header a small part of the screen, in the three languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

MEASURE = """() => {
  const rect = (el) => el.getBoundingClientRect();
  const cells = [...document.querySelectorAll('table.credits thead th')].map(rect);
  const lastShown = (row) => [...document.querySelectorAll(`table.credits ${row} tr`)].map(
    (tr) => [...tr.children].filter((c) => c.offsetParent !== null).map(rect).at(-1));
  const wrap = document.querySelector('table.credits').parentElement;
  return {
    header: rect(document.querySelector('.site-header')).height,
    rightmost: Math.max(...cells.map((r) => r.right)),
    scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
    page: document.documentElement.scrollWidth,
    // the last player's column: its header, its rounds and its total one above the other
    lastColumn: ['thead', 'tbody', 'tfoot'].flatMap(lastShown)
      .map((r) => Math.round(r.right)),
  };
}"""


@pytest.mark.parametrize("locale", ["en-GB", "vi-VN", "zh-TW"])
def test_it_fits_the_credits_and_keeps_the_header_small_on_a_phone(
    make_page: Any, seeded: Archive, locale: str
) -> None:
    page = make_page(viewport=PHONE, locale=locale)
    assert seeded.match is not None
    page.goto(f"/matches/{seeded.match.pk}/")
    shown = page.evaluate(MEASURE)
    assert shown["rightmost"] <= PHONE["width"], shown
    assert not shown["scrolls"] and shown["page"] <= PHONE["width"], shown
    assert len(set(shown["lastColumn"])) == 1, shown
    assert shown["header"] <= PHONE["height"] / 8, shown
    assert page.locator("nav.site-nav").is_hidden()
    page.click(".menu-toggle")
    assert page.locator(".menu-toggle").get_attribute("aria-expanded") == "true"
    page.click('nav.site-nav a[href="/players/"]')
    page.wait_for_url("**/players/")
