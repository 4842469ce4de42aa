"""Password reset by e-mail (allauth's views under /accounts/password/reset/): the same
answer whether or not the address has an account, a link that sets a new password once, and
a plain statement instead of a form on a site that sends no mail."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.web.conftest import mailed_link
from tests.web.dom import parse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-1"
NEW_PASSWORD = "another-long-password-2"
PAGE = "/accounts/password/reset/"


@pytest.fixture
def ann(db: None) -> User:
    account = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=account, email="ann@example.org", verified=True,
                                primary=True)
    return account


def _ask(email: str) -> Any:
    return Client().post(PAGE, {"email": email}, follow=True)


def _without_token(response: Any) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def test_it_shows_a_labelled_form_and_keeps_djangos_old_address(client: Client) -> None:
    assert reverse("account_reset_password") == PAGE
    doc = parse(client.get(PAGE).content)
    assert [label.words() for label in doc.find("main").find_all("label")] == [
        "E-mail address"]
    old = client.get("/accounts/password_reset/")
    assert old.status_code == 301 and old["Location"] == PAGE


def test_it_answers_the_same_for_a_known_and_an_unknown_address(ann: User) -> None:
    known = _ask("ann@example.org")
    unknown = _ask("nobody@example.org")

    assert known.redirect_chain == unknown.redirect_chain == [
        (reverse("account_reset_password_done"), 302)]
    assert _without_token(known) == _without_token(unknown)
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects == {"ann@example.org": "[fourcolor] Reset your password",
                        "nobody@example.org": "[fourcolor] No account with this address"}


def test_its_link_sets_a_new_password_once(ann: User) -> None:
    _ask("ann@example.org")
    link = mailed_link(mail.outbox[0])
    client = Client()
    form_page = client.get(link, follow=True)
    action = parse(form_page.content).find("main").find("form").attrs["action"]

    done = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert done.status_code == 302
    shown = client.get(done["Location"]).content.decode()
    assert shown.count("Your password is changed.") == 1
    assert Client().post(reverse("login"), {"login": "ann", "password": NEW_PASSWORD})[
        "Location"] == "/"
    again = Client().get(link, follow=True)
    assert parse(again.content).find(**{"data-field": "token-fail"})


def test_without_mail_it_says_so_instead_of_a_form(client: Client, no_mail: None) -> None:
    doc = parse(client.get(PAGE).content)
    assert not doc.find("main").find_all("form")
    assert "cannot be reset by e-mail" in doc.find(**{"data-field": "no-mail"}).words()
