"""Sign-up (allauth's signup view, /accounts/signup/): an account with a confirmed e-mail
address, an answer that does not tell whether an address already has an account, and sign-up
without mail on a site that sends none."""

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
PAGE = "/accounts/signup/"


def _sign_up(client: Client, username: str, email: str) -> Any:
    return client.post(PAGE, {"username": username, "email": email,
                              "password1": PASSWORD, "password2": PASSWORD}, follow=True)


def _page_text(response: Any, typed: str) -> str:
    """The page without what differs between any two answers: the CSRF token, and the
    address the visitor typed where the page repeats it."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())
    return text.replace(typed, "ADDRESS")


def test_it_shows_a_labelled_form(client: Client) -> None:
    assert reverse("account_signup") == PAGE
    doc = parse(client.get(PAGE).content)
    form = doc.find("main").find("form")
    assert form.attrs["method"] == "post"
    labels = [label.words() for label in form.find_all("label")]
    assert labels == ["E-mail address", "Username", "Password", "Password (again)"]
    assert not doc.find_all(**{"data-field": "no-mail"})


def test_it_sends_a_confirmation_mail_and_signs_in_only_once_confirmed(client: Client) -> None:
    response = _sign_up(client, "newbie", "newbie@example.org")
    assert response.redirect_chain[-1][0] == reverse("account_email_verification_sent")
    assert parse(response.content).find(**{"data-field": "verification-sent"})
    account = User.objects.get(username="newbie")
    assert account.email == "newbie@example.org"
    assert "_auth_user_id" not in client.session
    assert [m.to for m in mail.outbox] == [["newbie@example.org"]]
    assert mail.outbox[0].subject == "[fourcolor] Confirm your e-mail address"
    # Not confirmed yet: the password alone does not sign in.
    signed = Client().post(reverse("login"), {"login": "newbie", "password": PASSWORD})
    assert signed["Location"] == reverse("account_email_verification_sent")

    link = mailed_link(mail.outbox[0])
    page = parse(client.get(link).content)
    assert "newbie@example.org" in page.find("main").words()
    confirmed = client.post(link)

    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(user=account).verified
    assert Client().post(reverse("login"), {"login": "newbie@example.org",
                                            "password": PASSWORD})["Location"] == "/"


def test_it_answers_the_same_for_a_known_and_an_unknown_address(client: Client) -> None:
    ann = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=ann, email="ann@example.org", verified=True, primary=True)

    known = _sign_up(Client(), "someone", "ann@example.org")
    unknown = _sign_up(Client(), "someone2", "nobody@example.org")

    assert known.redirect_chain == unknown.redirect_chain
    assert _page_text(known, "ann@example.org") == _page_text(unknown, "nobody@example.org")
    # Each address got one mail: the known one says it already has an account.
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "nobody@example.org"]
    to_ann = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    assert to_ann.subject == "[fourcolor] You already have an account"
    assert not User.objects.filter(username="someone").exists()


def test_it_refuses_a_taken_username_and_mismatched_passwords(client: Client, user: User) -> None:
    response = client.post(PAGE, {"username": "uploader", "email": "x@example.org",
                                  "password1": PASSWORD, "password2": PASSWORD + "x"})
    assert response.status_code == 200
    errors = [p.words() for p in parse(response.content).find_all("p", "field__error")]
    assert "A user with that username already exists." in errors
    assert "You must type the same password each time." in errors
    assert User.objects.count() == 1 and not mail.outbox


def test_without_mail_it_signs_up_without_an_address_and_says_why(
    client: Client, no_mail: None
) -> None:
    doc = parse(client.get(PAGE).content)
    assert [label.words() for label in doc.find("main").find_all("label")] == [
        "Username", "Password", "Password (again)"]
    assert "not set up to send e-mail" in doc.find(**{"data-field": "no-mail"}).words()

    response = client.post(PAGE, {"username": "newbie", "password1": PASSWORD,
                                  "password2": PASSWORD})

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="newbie").pk)
    assert not mail.outbox
