"""The account page's API tokens in Chromium, in the three languages: a person makes two named
tokens (one that may only read), sees each key once, finds both listed by name, scope and last
four characters, and revokes one by its button; the other key keeps working. The page, with a
new key shown and two tokens listed, has no accessibility violation of any impact."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.web.browser.conftest import PHONE, sign_in
from tests.web.browser.test_axe import scan

pytestmark = pytest.mark.browser
LANGUAGES = [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")]


def said(language: str, text: str, **values: str) -> str:
    with translation.override(language):
        shown = translation.gettext(text) % values
    assert language == "en" or shown != text % values, f"{text!r} untranslated in {language}"
    return shown


def make_token(page: Any, name: str, scope: str) -> str:
    page.fill("#token-name", name)
    page.select_option("#token-scope", scope)
    with page.expect_navigation():
        page.click("form.token-actions button[type=submit]")
    key: str = page.input_value("#new-token")
    assert re.fullmatch(r"[0-9a-f]{40}", key), key
    return key


def listed(page: Any) -> list[list[str]]:
    """The token table's rows, each as its name, scope and key ending."""
    rows = (row.locator("td").all_text_contents()
            for row in page.locator("table.token-list tbody tr").all())
    return [[cells[0].strip(), cells[1].strip(), cells[3].strip()] for cells in rows]


def carried(key: str) -> int:
    """The status of the API's answer to a request made with the key alone (no session)."""
    status: int = Client().get("/api/v1/auth/token/", HTTP_AUTHORIZATION=f"Token {key}"
                               ).status_code
    return status


@pytest.mark.parametrize(("locale", "language"), LANGUAGES)
def test_a_person_makes_lists_and_revokes_named_tokens(
    make_page: Any, account: Any, locale: str, language: str
) -> None:
    page = make_page(viewport=PHONE, locale=locale)
    sign_in(page, "uploader", "/account/")
    assert page.locator("[data-token-state=none]").text_content() == said(
        language, "You have no token.")

    laptop = make_token(page, "laptop", "read")
    created = said(language, "A new API token was created. Copy it now: it is shown only once.")
    assert page.locator(".messages .message--success").text_content() == created
    phone = make_token(page, "phone script", "write")
    assert listed(page) == [
        ["phone script", said(language, "read and write"), f"…{phone[-4:]}"],
        ["laptop", said(language, "read"), f"…{laptop[-4:]}"],
    ]
    assert scan(page) == []  # with the new key shown and two tokens listed
    assert carried(laptop) == carried(phone) == 200  # the second did not revoke the first

    page.reload()
    assert page.locator("#new-token").count() == 0  # a key is shown once
    assert laptop not in page.content() and phone not in page.content()

    revoke = page.get_by_role("button", name=said(language, "Revoke the token %(name)s",
                                                  name="laptop"))
    with page.expect_navigation():
        revoke.click()
    assert page.locator(".messages .message--success").text_content() == said(
        language, "The token was revoked: it no longer works.")
    assert [row[0] for row in listed(page)] == ["phone script"]
    assert carried(laptop) == 401
    assert carried(phone) == 200
    assert scan(page) == []
