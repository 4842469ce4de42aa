"""The leaderboard's first view in Chromium, in the three languages: its menu shows the
statistic the board ranks by, and that statistic is the board's one value column."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser
LANGUAGES = ["en-GB", "vi-VN", "zh-TW"]


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_first_view_names_what_it_ranks_by(
    make_page: Any, seeded: Archive, locale: str
) -> None:
    page = make_page(locale=locale)
    page.goto("/leaderboard/")
    menu = page.locator('select[name="metric"]')
    assert menu.input_value() == "rounds"
    shown = menu.evaluate("(select) => select.selectedOptions[0].textContent.trim()")
    headers = [text.strip() for text in page.locator("table.leaderboard thead th")
               .all_text_contents()]
    assert len(headers) == 3 and headers[-1] == shown  # rank, player, the statistic once
    assert page.locator("table.leaderboard").get_attribute("data-metric") == "rounds"
    page.goto("/leaderboard/?min_rounds=1")  # the seeded players have fewer than ten rounds
    counts = [int(text) for text in page.locator("table.leaderboard tbody tr td:last-child")
              .all_text_contents()]
    assert counts and counts == sorted(counts, reverse=True)  # ranked by it
