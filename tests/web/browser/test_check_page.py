"""The check page in Chromium, signed out: a pasted record with an error and a legal one; the
error located at its line and column, and the legal one's replay stepped through."""

from __future__ import annotations

from typing import Any

import pytest

from records.models import Game
from tests.web.conftest import FOUR, illegal_text, record_text

pytestmark = pytest.mark.browser


def test_it_locates_the_error_and_steps_through_the_legal_records_replay(
    page: Any, transactional_db: None
) -> None:
    bad, bad_line, quoted = illegal_text()
    good = record_text("classic", 4, 9, FOUR)
    page.goto("/")
    with page.expect_navigation():
        page.click('nav.site-nav a[href="/check/"]')
    page.fill("#id_text", bad + "\n" + good)
    with page.expect_navigation():
        page.click("#check-form button[type=submit]")

    results = page.locator("li.result")
    assert [results.nth(i).get_attribute("data-status") for i in range(2)] == [
        "refused", "valid"]
    refused = results.nth(0)
    field = lambda name: refused.locator(f'[data-field="{name}"]').text_content().strip()  # noqa: E731
    assert (field("line"), field("col")) == (str(bad_line), "1")
    assert refused.locator("pre mark").text_content() == quoted[0]

    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    ply_of = page.locator('[data-field="ply-of"]')
    plies = int(page.locator("#replay").get_attribute("data-plies"))
    assert ply_of.text_content().strip() == f"Ply 0 of {plies}"
    page.click('a[data-step="next"]')
    assert ply_of.text_content().strip() == f"Ply 1 of {plies}"
    assert page.locator('[data-field="event"]').text_content().strip()
    page.click('a[data-step="next"]')
    assert ply_of.text_content().strip() == f"Ply 2 of {plies}"
    page.click('a[data-step="last"]')
    assert ply_of.text_content().strip() == f"Ply {plies} of {plies}"
    assert page.locator("#end").is_visible()
    assert not Game.objects.exists()
