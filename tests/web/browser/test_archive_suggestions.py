"""The archive's player input suggests names as one types, accents and case ignored (most
Vietnamese players type without diacritics)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser


def test_it_suggests_players_as_one_types_and_finds_their_games(
    page: Any, seeded: Archive
) -> None:
    page.goto("/")
    box = page.locator("#id_player")
    box.press_sequentially("thi", delay=30)
    page.wait_for_function(
        "() => document.querySelectorAll('#player-suggestions option').length > 0")
    options = page.eval_on_selector_all(
        "#player-suggestions option", "els => els.map((e) => e.value)")
    assert options == ["Nguyễn Thị Bình"]
    box.fill("NGUYEN")
    page.locator("form.form--filters button[type=submit]").click()
    page.wait_for_selector("[data-field=matching-players]")
    assert page.locator("[data-field=matching-players] a").all_text_contents() == [
        "Nguyễn Thị Bình"]
    rows = page.locator("table.games tbody tr").count()
    assert rows == len(seeded.rounds) + 1  # the four-seat round and the match's rounds
