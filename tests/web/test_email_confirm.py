"""The page an e-mail confirmation link opens (allauth's confirm_email view): a button that
confirms (a GET alone never does, so mail scanners that follow links confirm nothing), and a
clear message for a link that is not valid."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from tests.web.conftest import mailed_link
from tests.web.dom import parse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-1"


def test_it_confirms_only_with_the_button(client: Client) -> None:
    client.post("/accounts/signup/", {"username": "newbie", "email": "n@example.org",
                                      "password1": PASSWORD, "password2": PASSWORD})
    link = mailed_link(mail.outbox[0])

    page = parse(client.get(link).content)

    assert page.find("main").find("form").attrs["method"] == "post"
    assert not EmailAddress.objects.get(email="n@example.org").verified
    client.post(link)
    assert EmailAddress.objects.get(email="n@example.org").verified


def test_it_explains_a_link_that_is_not_valid(client: Client) -> None:
    response = client.get("/accounts/confirm-email/not-a-real-key/")
    assert response.status_code == 200
    assert "not valid" in parse(response.content).find(
        **{"data-field": "confirmation-invalid"}).words()
