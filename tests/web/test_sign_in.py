"""Signing in (allauth's login view at /accounts/login/, by username or e-mail address) and
out, and the header that shows who is signed in."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.web.dom import parse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-1"


def test_it_shows_a_labelled_sign_in_form_with_csrf(client: Client) -> None:
    assert reverse("login") == "/accounts/login/"
    doc = parse(client.get(reverse("login"), {"next": "/upload/"}).content)
    form = doc.find("main").find("form")
    assert form.attrs["method"] == "post"
    assert form.find_all("input", name="csrfmiddlewaretoken")
    labels = {field: doc.find("label", **{"for": field}).words()
              for field in ("id_login", "id_password")}
    assert labels == {"id_login": "Username or e-mail address", "id_password": "Password"}
    assert form.find("input", name="next").attrs["value"] == "/upload/"
    assert doc.find("p", "notice").words() == "Sign in to continue."
    links = {a.words(): a.attrs["href"] for a in doc.find("main").find_all("a")}
    assert links["Sign up"].startswith(reverse("account_signup"))
    assert links["Forgot your password?"] == reverse("account_reset_password")


def test_it_signs_in_and_returns_to_the_page_asked_for(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {
        "login": "uploader", "password": PASSWORD, "next": "/upload/"})
    assert response.status_code == 302 and response["Location"] == "/upload/"
    assert client.get("/upload/").status_code == 200


def test_it_signs_in_with_the_e_mail_address_of_a_confirmed_account(client: Client) -> None:
    ann = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=ann, email="ann@example.org", verified=True, primary=True)
    response = client.post(reverse("login"), {"login": "ANN@example.org", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(ann.pk)


def test_it_reads_djangos_field_name_posted_by_older_scripts(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {"username": "uploader", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_explains_a_wrong_password(client: Client, user: User) -> None:
    response = client.post(reverse("login"), {"login": "uploader", "password": "nope"})
    assert response.status_code == 200
    assert parse(response.content).find("div", "errors").words() == (
        "The username or the password is not right.")
    assert "_auth_user_id" not in client.session


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
    assert anonymous.find("a", href=reverse("account_signup")).words() == "Sign up"


def test_it_asks_before_signing_out_on_a_get(client: Client, user: User) -> None:
    client.force_login(user)
    doc = parse(client.get(reverse("logout")).content)
    assert doc.find("main").find("form").attrs["method"] == "post"
    assert "_auth_user_id" in client.session


def test_it_takes_a_username_in_any_case_and_an_exact_one_first(client: Client) -> None:
    """Sign-up refuses a name that differs from a taken one only in case (allauth), so one
    account answers to every case; two older accounts that differ only in case each sign in
    with their exact name."""
    ana = User.objects.create_user("ana", password=PASSWORD)
    assert client.post(reverse("login"), {"login": "ANA", "password": PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(ana.pk)
    big = User.objects.create_user("Ana", password=PASSWORD + "x")
    other = Client()
    other.post(reverse("login"), {"login": "Ana", "password": PASSWORD + "x"})
    assert other.session["_auth_user_id"] == str(big.pk)
