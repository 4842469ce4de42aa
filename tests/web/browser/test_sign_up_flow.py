"""A new player in Chromium: sign up, open the confirmation link from the mail (the locmem
backend's outbox), sign in, upload a record, and find it on their own page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from records.models import Game
from tests.web.conftest import FOUR, record_text

pytestmark = pytest.mark.browser
PASSWORD = "a-long-test-password-1"


def test_it_signs_up_confirms_signs_in_uploads_and_shows_the_users_page(
    page: Any, transactional_db: None, live_server: Any
) -> None:
    page.goto("/")
    page.click("text=Sign up")
    page.fill("#id_email", "mai@example.org")
    page.fill("#id_username", "mai")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.locator('[data-field="verification-sent"]').is_visible()
    (message,) = mail.outbox
    assert message.to == ["mai@example.org"]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body)
    assert link, message.body

    page.goto(link.group(0))
    assert "mai@example.org" in page.locator("main").text_content()
    with page.expect_navigation():
        page.click("main button[type=submit]")
    # Confirming signs in (ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION): sign out, then in by name.
    assert page.locator(".auth-form__user").text_content().strip() == "mai"
    with page.expect_navigation():
        page.click(".auth-form button[type=submit]")
    page.goto("/accounts/login/?next=/upload/")
    page.fill("#id_login", "mai@example.org")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.endswith("/upload/")

    page.fill("#id_text", record_text("classic", 4, 31, FOUR))
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    game = Game.objects.get(uploaded_by__username="mai")

    page.goto("/account/")
    with page.expect_navigation():
        page.click("text=Your public page")
    assert page.url.endswith("/users/mai/")
    assert page.locator("main h1").text_content().strip() == "mai"
    assert page.locator(f'table.games a[href="/games/{game.pk}/"]').count() == 1
