"""'Your password is changed.' once, in Chromium in the three languages: after setting a new
password from the mailed link, and after changing it while signed in; and not again on the
next page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.utils import translation

from tests.web.browser.conftest import PASSWORD, sign_in

pytestmark = pytest.mark.browser
NEW_PASSWORD = "another-long-password-2"
CHANGED = "Your password is changed."
LANGUAGES = [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")]


@pytest.fixture
def ann(transactional_db: None, settings: Any) -> User:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    account = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=account, email="ann@example.org", verified=True,
                                primary=True)
    return account


def changed(language: str) -> str:
    with translation.override(language):
        text = translation.gettext(CHANGED)
    assert language == "en" or text != CHANGED
    return text


def assert_once(page: Any, text: str) -> None:
    assert page.locator("body").text_content().count(text) == 1
    assert page.locator(".messages .message", has_text=text).is_visible()


@pytest.mark.parametrize(("locale", "language"), LANGUAGES)
def test_it_says_so_once_after_a_reset_by_mail(
    make_page: Any, ann: User, locale: str, language: str
) -> None:
    page = make_page(locale=locale)
    page.goto("/accounts/password/reset/")
    page.fill("#id_email", "ann@example.org")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    [link] = re.findall(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    page.goto(link)
    page.fill("#id_password1", NEW_PASSWORD)
    page.fill("#id_password2", NEW_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert_once(page, changed(language))
    page.reload()
    assert changed(language) not in page.locator("body").text_content()


@pytest.mark.parametrize(("locale", "language"), LANGUAGES)
def test_it_says_so_once_after_a_change_while_signed_in(
    make_page: Any, ann: User, locale: str, language: str
) -> None:
    page = make_page(locale=locale)
    sign_in(page, "ann", "/accounts/password/change/")
    page.fill("#id_oldpassword", PASSWORD)
    page.fill("#id_password1", NEW_PASSWORD)
    page.fill("#id_password2", NEW_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert_once(page, changed(language))
    page.goto("/")
    assert changed(language) not in page.locator("body").text_content()
