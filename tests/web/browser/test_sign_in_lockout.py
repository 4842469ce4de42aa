"""The sign-in lock in Chromium, in the three languages: one try before it the form warns and
links the password reset; the lock page links it too, and the link leads there."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tests.web.browser.conftest import PHONE

pytestmark = pytest.mark.browser
LIMIT = 5
LANGUAGES = [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")]


def said(language: str, text: str) -> str:
    with translation.override(language):
        shown = translation.gettext(text)
    assert language == "en" or shown != text
    return shown


def try_password(page: Any, password: str) -> None:
    page.fill("#id_login", "uploader")
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.parametrize(("locale", "language"), LANGUAGES)
def test_it_warns_before_the_lock_and_leads_to_the_password_reset(
    make_page: Any, account: Any, settings: Any, locale: str, language: str
) -> None:
    settings.AXES_FAILURE_LIMIT = LIMIT
    page = make_page(PHONE, locale=locale)
    make_page.allow("429 (Too Many Requests)")  # the lock page's own status
    page.goto("/accounts/login/")
    warning = page.locator('[data-field="last-try"]')
    for attempt in range(1, LIMIT):
        try_password(page, "not-the-password")
        assert warning.is_visible() == (attempt == LIMIT - 1), attempt
    assert said(language, "One more failed sign-in locks signing in for a while. If you forgot "
                          "your password, reset it instead.") in warning.text_content()
    assert warning.locator("a").get_attribute("href") == "/accounts/password/reset/"

    try_password(page, "not-the-password")
    assert page.locator('[data-field="lockout"]').is_visible()
    with page.expect_navigation():
        page.get_by_role("link", name=said(language, "Reset your password")).click()
    assert page.url.endswith("/accounts/password/reset/")
    assert page.locator("#id_email").is_visible()
