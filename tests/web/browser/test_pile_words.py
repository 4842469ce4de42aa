"""The replay's pile count in Chromium, in the three languages, as the script rewrites it ply
by ply down to a pile that ran out: "1 card left", never "1 cards left"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

import fourcolor
from records.services import import_records

pytestmark = pytest.mark.browser
VALID = Path(__file__).resolve().parents[2] / "data" / "corpus" / "valid.fcn"
EXHAUSTED = 14  # a bga round that ends with the pile out
LANGUAGES = [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")]


@pytest.mark.parametrize(("locale", "language"), LANGUAGES)
def test_the_pile_is_counted_in_words_that_agree_with_its_number(
    make_page: Any, transactional_db: None, locale: str, language: str
) -> None:
    with VALID.open(encoding="utf-8") as lines:
        record = list(fourcolor.iter_records(lines))[EXHAUSTED]
    game_id = import_records(record.text).results[0].game_id
    plies = len(fourcolor.parse_record(record.text).events)
    page = make_page(locale=locale)
    page.goto(f"/games/{game_id}/?ply={plies - 12}")  # the pile's last cards
    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    seen = {}
    for _ in range(13):
        count = int(page.locator('[data-field="pile"]').text_content())
        seen[count] = page.locator('[data-field="pile-words"]').text_content()
        page.keyboard.press("ArrowRight")
    with translation.override(language):
        assert {n: seen[n] for n in (0, 1, 2)} == {
            n: translation.ngettext("card left", "cards left", n) for n in (0, 1, 2)}
    if language == "en":
        assert seen[1] == "card left"
