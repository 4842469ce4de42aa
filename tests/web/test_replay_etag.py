"""The replay page's ETag: built from the game, its validation, the engine,
the address, the language and the viewer, never from the body (which carries a new CSRF token
each time). The same page for the same viewer is a 304; anything the page shows differently
is a new ETag."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from jobs.models import Job
from records.models import Game
from tests.web.conftest import SHARED, Archive
from web.views import replay as replay_views

pytestmark = pytest.mark.usefixtures(SHARED)


def url(game: Game, query: str = "") -> str:
    return f"/games/{game.pk}/{query}"


def etag(client: Client, address: str, **headers: Any) -> str:
    response = client.get(address, **headers)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-cache"
    return str(response["ETag"])


@pytest.mark.django_db
def test_it_answers_304_to_the_same_viewer_without_drawing_the_page(
    client: Client, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    tag = etag(client, url(archive.long, "?ply=5"))
    drawn = []
    monkeypatch.setattr(replay_views, "_replay_page", lambda *a: drawn.append(a))

    again = client.get(url(archive.long, "?ply=5"), HTTP_IF_NONE_MATCH=tag)

    assert again.status_code == 304 and not again.content
    assert again["ETag"] == tag and drawn == []


@pytest.mark.django_db
def test_a_gzipped_page_s_weak_etag_is_a_304_too(client: Client, archive: Archive) -> None:
    first = client.get(url(archive.long), HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')

    again = client.get(url(archive.long), HTTP_ACCEPT_ENCODING="gzip",
                       HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304


@pytest.mark.django_db
def test_a_revalidated_game_is_a_new_etag(client: Client, archive: Archive) -> None:
    before = etag(client, url(archive.four))
    Game.objects.filter(pk=archive.four.pk).update(validated_at=timezone.now())

    response = client.get(url(archive.four), HTTP_IF_NONE_MATCH=before)

    assert response.status_code == 200 and response["ETag"] != before


@pytest.mark.django_db
def test_another_language_is_a_new_etag(client: Client, archive: Archive) -> None:
    english = etag(client, url(archive.four))
    client.cookies["django_language"] = "vi"

    response = client.get(url(archive.four), HTTP_IF_NONE_MATCH=english)

    assert response.status_code == 200 and response["ETag"] != english
    assert response["Content-Language"] == "vi"


@pytest.mark.django_db
def test_another_ply_or_seat_is_a_new_etag(client: Client, archive: Archive) -> None:
    tags = {etag(client, url(archive.four, q)) for q in ("", "?ply=3", "?ply=3&seat=2")}

    assert len(tags) == 3


@pytest.mark.django_db
def test_a_signed_in_viewer_gets_their_own_etag(
    client: Client, archive: Archive, user: User
) -> None:
    anonymous = etag(client, url(archive.four))
    client.force_login(user)
    signed_in = client.get(url(archive.four), HTTP_IF_NONE_MATCH=anonymous)
    other = Client()
    other.force_login(User.objects.create_user("someone-else"))

    assert signed_in.status_code == 200 and signed_in["ETag"] != anonymous
    assert etag(other, url(archive.four)) not in (anonymous, signed_in["ETag"])
    # The same signed-in viewer again: 304.
    assert client.get(url(archive.four),
                      HTTP_IF_NONE_MATCH=signed_in["ETag"]).status_code == 304


@pytest.mark.django_db
def test_a_running_analysis_is_drawn_every_time(client: Client, archive: Archive) -> None:
    Job.objects.create(kind=Job.Kind.ANALYSIS, status=Job.Status.RUNNING,
                       options={"game": archive.four.pk})

    response = client.get(url(archive.four))

    assert response.status_code == 200 and not response.has_header("ETag")
