"""Every account page, its errors, its messages and its mails in all three languages: allauth
ships no Vietnamese, so the site's own catalogues say everything these pages show. A page in
Vietnamese or Traditional Chinese has none of the English page's sentences left."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.web.dom import Node, parse

# The account pages' queries run on both databases in test_sign_up, test_sign_in and
# test_email_confirm: here only their words are checked.
pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
PASSWORD = "a-long-test-password-1"
LANGUAGES = ["zh-hant", "vi"]


def _texts(node: Node) -> set[str]:
    """Each run of text in <main> and the title that has a letter (English words)."""
    found: set[str] = set()

    def walk(n: Node) -> None:
        for child in n.children:
            if isinstance(child, str):
                words = " ".join(child.split())
                if re.search(r"[A-Za-z]{2}", words):
                    found.add(words)
            elif child.tag not in ("script", "style"):
                walk(child)
    walk(node)
    return found


def _shown(response: Any) -> set[str]:
    doc = parse(response.content)
    return _texts(doc.find("main")) | _texts(doc.find("title"))


def _client(lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    return client


def _signed_in(lang: str) -> Client:
    client = _client(lang)
    client.force_login(User.objects.get(username="ann"))
    return client


def _without_password(lang: str) -> Client:
    """Signed in as an account that has no password yet (made by an operator, say)."""
    bob, _ = User.objects.get_or_create(username="bob")
    bob.set_unusable_password()
    bob.save()
    client = _client(lang)
    client.force_login(bob)
    return client


@pytest.fixture(autouse=True)
def ann(db: None) -> User:
    account = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=account, email="ann@example.org", verified=True,
                                primary=True)
    return account


PAGES: dict[str, Callable[[str], Any]] = {
    "sign-in": lambda lang: _client(lang).get("/accounts/login/?next=/upload/"),
    "sign-in, wrong password": lambda lang: _client(lang).post(
        "/accounts/login/", {"login": "ann", "password": "wrong"}),
    "sign-in, empty": lambda lang: _client(lang).post("/accounts/login/", {}),
    "sign-up": lambda lang: _client(lang).get("/accounts/signup/"),
    "sign-up, errors": lambda lang: _client(lang).post("/accounts/signup/", {
        "username": "ann", "email": "not-an-address", "password1": "123",
        "password2": "1234"}),
    "sign-up, sent": lambda lang: _client(lang).post("/accounts/signup/", {
        "username": "newbie", "email": "new@example.org", "password1": PASSWORD,
        "password2": PASSWORD}, follow=True),
    "confirmation, invalid": lambda lang: _client(lang).get("/accounts/confirm-email/x/"),
    "reset": lambda lang: _client(lang).get("/accounts/password/reset/"),
    "reset, error": lambda lang: _client(lang).post("/accounts/password/reset/",
                                                    {"email": "nope"}),
    "reset, sent": lambda lang: _client(lang).post(
        "/accounts/password/reset/", {"email": "ann@example.org"}, follow=True),
    "reset link, invalid": lambda lang: _client(lang).get(
        "/accounts/password/reset/key/1-x/", follow=True),
    "sign-out": lambda lang: _signed_in(lang).get("/accounts/logout/"),
    "signed out": lambda lang: _signed_in(lang).post("/accounts/logout/", follow=True),
    "signed in": lambda lang: _client(lang).post(
        "/accounts/login/", {"login": "ann", "password": PASSWORD}, follow=True),
    "password change": lambda lang: _signed_in(lang).get("/accounts/password/change/"),
    "password change, errors": lambda lang: _signed_in(lang).post(
        "/accounts/password/change/", {"oldpassword": "x", "password1": "a",
                                       "password2": "b"}),
    "e-mail addresses": lambda lang: _signed_in(lang).get("/accounts/email/"),
    "e-mail address added": lambda lang: _signed_in(lang).post(
        "/accounts/email/", {"action_add": "", "email": "ann2@example.org"}, follow=True),
    "e-mail address, errors": lambda lang: _signed_in(lang).post(
        "/accounts/email/", {"action_add": "", "email": "ann@example.org"}),
    "primary address not removed": lambda lang: _signed_in(lang).post(
        "/accounts/email/", {"action_remove": "", "email": "ann@example.org"}, follow=True),
    "reauthenticate": lambda lang: _signed_in(lang).get("/accounts/reauthenticate/"),
    "reauthenticate, wrong password": lambda lang: _signed_in(lang).post(
        "/accounts/reauthenticate/", {"password": "wrong"}),
    "password set": lambda lang: _without_password(lang).get("/accounts/password/set/"),
    "password set, errors": lambda lang: _without_password(lang).post(
        "/accounts/password/set/", {"password1": "a", "password2": "b"}),
    "account inactive": lambda lang: _client(lang).get("/accounts/inactive/"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_it_leaves_no_english_on_an_account_page(page: str, lang: str) -> None:
    english = _shown(PAGES[page]("en"))
    mail.outbox.clear()
    User.objects.filter(username="newbie").delete()
    EmailAddress.objects.filter(email="ann2@example.org").delete()
    translated = _shown(PAGES[page](lang))
    assert english, page
    # Names and addresses typed by the visitor, and the rulesets' names (on the archive
    # that signing in and out return to), are the same in every language.
    same = {"ann", "ann@example.org", "ann2@example.org", "classic", "bga"}
    left = {text for text in english & translated if text not in same}
    assert left == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_it_sends_mail_in_the_visitors_language(lang: str) -> None:
    client = _client(lang)
    client.post("/accounts/signup/", {"username": "newbie", "email": "new@example.org",
                                      "password1": PASSWORD, "password2": PASSWORD})
    client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    with_english = Client()
    with_english.post("/accounts/password/reset/", {"email": "ann@example.org"})
    confirm, reset, reset_en = mail.outbox
    assert "Confirm your e-mail address" not in confirm.subject
    assert reset.subject != reset_en.subject
    english_lines = {line for line in reset_en.body.splitlines()
                     if re.search(r"[A-Za-z]{3}", line) and "http" not in line}
    assert english_lines and not english_lines & set(reset.body.splitlines())
