"""A house-variant round in Chromium, on /check/ and on the upload page: the same record, with
no Switches tag of its own, refused under one picked house rule and accepted under the other,
the refusal at the user's own line and the acceptance naming the variant in words."""

from __future__ import annotations

from typing import Any

import pytest

from records.models import Game
from tests.web.browser.conftest import PHONE, sign_in
from tests.web.conftest import HOUSE_SWITCH, house_text

pytestmark = pytest.mark.browser
REFUSING = "color_groups=soldiers"
VARIANT = "bga, colour groups of any rank, 4 players"


def send(page: Any, path: str, text: str, switches: str) -> Any:
    page.goto(path)
    page.fill("#id_text", text)
    page.locator("details.house-rules summary").click()  # what each switch does
    assert page.locator(".house-rules__list dt", has_text="color_groups").is_visible()
    page.fill("#id_switches", switches)
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    return page.locator("li.result")


def test_it_checks_a_house_round_under_the_picked_switch(make_page: Any, db: None) -> None:
    page = make_page(PHONE)
    text, line = house_text()
    [refused] = send(page, "/check/", text, REFUSING).all()
    assert refused.get_attribute("data-status") == "refused"
    assert refused.locator('[data-field="line"]').text_content() == str(line)
    assert "not a meld" in refused.locator('[data-field="message"]').text_content()
    [valid] = send(page, "/check/", text, HOUSE_SWITCH).all()
    assert valid.get_attribute("data-status") == "valid"
    assert valid.locator('[data-field="variant"]').text_content() == f"({VARIANT})"
    assert page.locator('[data-field="given"] code').text_content() == (
        f'[Switches "{HOUSE_SWITCH}"]')
    assert page.locator("#replay-heading").is_visible()  # its replay, under that variant
    assert Game.objects.count() == 0


def test_it_uploads_a_house_round_under_the_picked_switch(
    page: Any, transactional_db: None, account: Any
) -> None:
    sign_in(page, "uploader", "/upload/")
    text, line = house_text()
    [refused] = send(page, "/upload/", text, REFUSING).all()
    assert refused.get_attribute("data-status") == "refused"
    assert refused.locator('[data-field="line"]').text_content() == str(line)
    assert Game.objects.count() == 0
    [stored] = send(page, "/upload/", text, HOUSE_SWITCH).all()
    assert stored.get_attribute("data-status") == "stored"
    assert VARIANT in stored.locator('[data-field="variant"]').text_content()
    game = Game.objects.get()
    # The browser sends the pasted text with CRLF line ends: the added line has them too.
    assert game.original_text == f'[Switches "{HOUSE_SWITCH}"]\n{text}'.replace("\n", "\r\n")
    stored.locator("a").click()
    assert VARIANT in page.locator("main").text_content()  # the replay says it too
