"""The home page's short introduction in Chromium, in the three languages, on a phone and a
desktop: what the site is and the three things to do first, each a link that goes there, at
the top of the page; gone once the archive is filtered (the reader is past the first visit)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tests.web.browser.conftest import DESKTOP, PHONE
from tests.web.conftest import Archive

pytestmark = pytest.mark.browser
WHAT = ("Four Color Cards (四色牌, tứ sắc) is a rummy-like game played with 112 xiangqi cards. "
        "This site keeps players' rounds, checks each one with its rules engine, replays them "
        "move by move and rates every decision.")
STEPS = ("Replay a game from the list below", "Upload your records: each round is checked first",
         "Record a round in the editor as you play")


@pytest.mark.parametrize(("locale", "language"), [
    ("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_it_says_what_the_site_is_and_what_to_do_first(
    make_page: Any, seeded: Archive, locale: str, language: str, viewport: dict[str, int]
) -> None:
    with translation.override(language):
        what, steps = translation.gettext(WHAT), [translation.gettext(s) for s in STEPS]
    if language != "en":
        assert what != WHAT and all(s not in STEPS for s in steps)  # translated, not English
    page = make_page(viewport, locale=locale)
    page.goto("/")
    intro = page.locator('[data-field="intro"]')
    assert intro.locator("p").first.text_content() == what
    links = intro.locator(".intro__steps li a")
    assert links.all_text_contents() == steps
    # At the top: the introduction starts within the first screen, the heading above it.
    box = intro.bounding_box()
    assert box is not None and box["y"] < viewport["height"] / 2
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    # Each step goes where it says: the list of games, the upload (sign in first), the editor.
    assert links.nth(0).get_attribute("href") == "#results-heading"
    with page.expect_navigation():
        links.nth(1).click()
    assert "/accounts/login/?next=/upload/" in page.url
    page.go_back()
    with page.expect_navigation():
        page.locator('[data-field="intro"] .intro__steps li a').nth(2).click()
    assert "next=/record/" in page.url
    page.goto("/?players=4")
    assert page.locator('[data-field="intro"]').count() == 0
