"""Signing in and out with Django's auth views, and the header that shows who is signed in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.web.dom import parse

pytestmark = pytest.mark.django_db


def test_it_shows_a_labelled_sign_in_form_with_csrf(client: Client) -> None:
    doc = parse(client.get(reverse("login"), {"next": "/upload/"}).content)
    form = doc.find("main").find("form")
    assert form.attrs["method"] == "post"
    assert form.find_all("input", name="csrfmiddlewaretoken")
    for field in ("id_username", "id_password"):
        assert doc.find("label", **{"for": field})
        assert doc.find("input", id=field)
    assert form.find("input", name="next").attrs["value"] == "/upload/"
    assert doc.find("p", "notice").words() == "Sign in to continue."


def test_it_signs_in_and_returns_to_the_page_asked_for(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {
        "username": "uploader", "password": "a-long-test-password-1", "next": "/upload/"})
    assert response.status_code == 302 and response["Location"] == "/upload/"
    assert client.get("/upload/").status_code == 200


def test_it_explains_a_wrong_password(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {"username": "uploader", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in parse(
        response.content).find("div", "errors").words()


def test_it_shows_the_user_and_signs_out_with_a_post(client: Client, db: None) -> None:
    name = "<i>ana</i>"
    client.force_login(User.objects.create_user(name, password="another-long-password-2"))
    html = client.get(reverse("archive")).content.decode()
    assert name not in html
    doc = parse(html)
    form = doc.find("form", "auth-form")
    assert doc.find("span", "auth-form__user").text() == name
    assert form.attrs["method"] == "post" and form.attrs["action"] == reverse("logout")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("upload")).status_code == 302
    anonymous = parse(client.get(reverse("archive")).content)
    assert anonymous.find("a", href="/accounts/login/?next=/").words() == "Sign in"
