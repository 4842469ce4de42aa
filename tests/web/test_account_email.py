"""allauth's e-mail addresses page (/accounts/email/), its re-authentication and the
set-password page, in the site's frame: the addresses and their state, adding one (a
confirmation mail), the primary one kept, a password for an account without one."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.web.dom import Node, parse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-1"
PAGE = "/accounts/email/"


@pytest.fixture
def ann() -> User:
    user = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email="ann@example.org", verified=True,
                                primary=True)
    return user


@pytest.fixture
def signed_in(ann: User) -> Client:
    client = Client()
    client.force_login(ann)
    return client


def main(response: object) -> Node:
    return parse(response.content).find("main")  # type: ignore[attr-defined]


def rows(doc: Node) -> list[str]:
    return [" ".join(label.text().split())
            for label in doc.find("fieldset", "address-list").find_all("label")]


def test_it_lists_the_addresses_with_their_state(signed_in: Client) -> None:
    doc = main(signed_in.get(PAGE))
    assert doc.find("h1").text() == "E-mail addresses"
    assert rows(doc) == ["ann@example.org confirmed primary"]
    assert parse(signed_in.get("/account/").content).find("a", href=PAGE)  # linked


def test_it_adds_an_address_and_sends_its_confirmation(signed_in: Client, ann: User) -> None:
    response = signed_in.post(PAGE, {"action_add": "", "email": "ann@work.example"},
                              follow=True)
    doc = main(response)
    assert rows(doc) == ["ann@example.org confirmed primary", "ann@work.example not confirmed"]
    assert [m.to for m in mail.outbox] == [["ann@work.example"]]
    assert "A confirmation mail was sent to ann@work.example." in response.content.decode()


def test_it_refuses_an_address_the_account_has(signed_in: Client) -> None:
    response = signed_in.post(PAGE, {"action_add": "", "email": "ann@example.org"})
    assert response.status_code == 200
    assert "Your account has this address already." in main(response).text()
    assert EmailAddress.objects.count() == 1


def test_it_keeps_the_primary_address_and_moves_it_to_a_confirmed_one(
    signed_in: Client, ann: User
) -> None:
    EmailAddress.objects.create(user=ann, email="ann@work.example", verified=True)
    kept = signed_in.post(PAGE, {"action_remove": "", "email": "ann@example.org"}, follow=True)
    assert "ann@example.org is your primary address" in main(kept).text()
    assert EmailAddress.objects.count() == 2

    signed_in.post(PAGE, {"action_primary": "", "email": "ann@work.example"})
    removed = signed_in.post(PAGE, {"action_remove": "", "email": "ann@example.org"},
                             follow=True)
    assert "ann@example.org was removed from your account." in main(removed).text()
    assert rows(main(removed)) == ["ann@work.example confirmed primary"]


def test_it_asks_for_the_password_again_in_the_sites_form(signed_in: Client) -> None:
    doc = main(signed_in.get("/accounts/reauthenticate/"))
    assert doc.find("h1").text() == "Confirm it is you"
    assert doc.find("label", **{"for": "id_password"}).text().strip() == "Password"
    wrong = main(signed_in.post("/accounts/reauthenticate/", {"password": "wrong"}))
    assert "That is not your current password." in wrong.text()
    right = signed_in.post("/accounts/reauthenticate/?next=/account/", {"password": PASSWORD,
                                                                        "next": "/account/"})
    assert right.status_code == 302


def test_it_sets_a_password_for_an_account_without_one() -> None:
    bob = User.objects.create_user("bob")
    bob.set_unusable_password()
    bob.save()
    client = Client()
    client.force_login(bob)
    doc = main(client.get("/accounts/password/set/"))
    assert doc.find("h1").text() == "Set a password"
    client.post("/accounts/password/set/", {"password1": PASSWORD, "password2": PASSWORD})
    bob.refresh_from_db()
    assert bob.check_password(PASSWORD)
