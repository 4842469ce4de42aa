"""A user's page (/users/NAME/): the games the account uploaded, newest upload first, with
links to the same list in the archive (?uploaded_by=) and the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from records.models import Game
from tests.web.conftest import Archive
from tests.web.dom import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(archive: Archive) -> User:
    account = User.objects.create_user("ann.k@home", password="a-long-test-password-1")
    Game.objects.filter(pk__in=[archive.four.pk, archive.bga.pk]).update(uploaded_by=account)
    return account


def test_it_lists_the_games_the_user_uploaded(client: Client, archive: Archive, ann: User) -> None:
    url = reverse("user", args=[ann.username])
    assert url == "/users/ann.k@home/"
    doc = parse(client.get(url).content)
    assert doc.find("h1").words() == "ann.k@home"
    assert doc.find(**{"data-field": "upload-count"}).words().startswith("2 games uploaded.")
    games = {a.attrs["href"] for a in doc.find("table", "games").find_all("a")
             if a.attrs["href"].startswith("/games/")}
    assert games == {f"/games/{archive.four.pk}/", f"/games/{archive.bga.pk}/"}
    links = {a.words(): a.attrs["href"] for a in doc.find("main").find_all("a")}
    assert links["Filter them in the archive"] == "/?uploaded_by=ann.k%40home"
    assert links["The same in the API"] == "/api/v1/games/?uploaded_by=ann.k%40home"


def test_the_archive_keeps_only_the_users_uploads(
    client: Client, archive: Archive, ann: User
) -> None:
    html = client.get(reverse("archive"), {"uploaded_by": ann.username}).content.decode()
    doc = parse(html)
    listed = {a.attrs["href"] for a in doc.find("table", "games").find_all("a")
              if a.attrs["href"].startswith("/games/")}
    assert listed == {f"/games/{archive.four.pk}/", f"/games/{archive.bga.pk}/"}
    assert doc.find("input", id="id_uploaded_by").attrs["value"] == ann.username


def test_it_says_when_nothing_was_uploaded_and_404s_an_unknown_user(
    client: Client, user: User
) -> None:
    doc = parse(client.get(reverse("user", args=[user.username])).content)
    assert doc.find(**{"data-field": "upload-count"}).words() == "No game uploaded yet."
    assert client.get("/users/nobody/").status_code == 404
