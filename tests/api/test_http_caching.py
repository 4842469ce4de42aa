"""HTTP caching: strong ETags, Last-Modified and Cache-Control on every read; 304 for
If-None-Match and If-Modified-Since (api.caching)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from django.utils.http import http_date
from rest_framework.test import APIClient

from records.models import Game

from .conftest import SHARED, Archive, round_text, store

pytestmark = pytest.mark.usefixtures(SHARED)

# A game's own reads: {game} is replaced by a game id.
GAME_READS = [
    "/api/v1/games/{game}/",
    "/api/v1/games/{game}/record/?format=fcn",
    "/api/v1/games/{game}/record/?format=canonical",
    "/api/v1/games/{game}/record/",
    "/api/v1/games/{game}/plies/0/",
    "/api/v1/games/{game}/plies/3/?seat=1",
    "/api/v1/games/{game}/plies/?from=1&to=3",
    "/api/v1/games/{game}/review/",
]
# Lists and statistics: ETags from their bodies.
LIST_READS = [
    "/api/v1/games/",
    "/api/v1/games/?player=An",
    "/api/v1/players/",
    "/api/v1/players/{player}/",
    "/api/v1/players/{player}/stats/",
    "/api/v1/players/{player}/games/",
    "/api/v1/players/{player}/ratings/",
    "/api/v1/stats/global/",
    "/api/v1/stats/leaderboard/?min_rounds=1",
    "/api/v1/stats/ratings/?ruleset=classic&min_rounds=1",
]


def fill(path: str, archive: Archive) -> str:
    player = Game.objects.get(pk=archive.match[0]).seats.get(seat=1).player_id
    return path.format(game=archive.match[0], player=player)


@pytest.mark.django_db
@pytest.mark.parametrize("path", GAME_READS + LIST_READS)
def test_it_answers_a_matching_if_none_match_with_304(
    api: APIClient, archive: Archive, path: str
) -> None:
    url = fill(path, archive)
    first = api.get(url)
    etag = first["ETag"]

    again = api.get(url, HTTP_IF_NONE_MATCH=etag)
    other = api.get(url, HTTP_IF_NONE_MATCH='"not-this-one"')
    listed = api.get(url, HTTP_IF_NONE_MATCH=f'"x", W/{etag}')

    assert first.status_code == 200 and etag.startswith('"') and not etag.startswith("W/")
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert again["Cache-Control"] == first["Cache-Control"]
    assert other.status_code == 200 and other.content == first.content
    assert listed.status_code == 304


@pytest.mark.django_db
@pytest.mark.parametrize("path", GAME_READS)
def test_a_games_reads_can_be_kept_a_minute_and_checked_by_date(
    api: APIClient, archive: Archive, path: str
) -> None:
    url = fill(path, archive)
    game = Game.objects.get(pk=archive.match[0])

    response = api.get(url)

    assert response["Cache-Control"] == "public, max-age=60"
    assert response["Last-Modified"] == http_date(game.validated_at.timestamp())
    since_then = api.get(url, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    before = api.get(url, HTTP_IF_MODIFIED_SINCE=http_date(game.validated_at.timestamp() - 60))
    assert since_then.status_code == 304
    assert before.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", LIST_READS)
def test_lists_and_statistics_are_revalidated_every_time(
    api: APIClient, archive: Archive, path: str
) -> None:
    response = api.get(fill(path, archive))

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, no-cache"


@pytest.mark.django_db
def test_each_representation_has_its_own_etag(api: APIClient, archive: Archive) -> None:
    urls = [fill(path, archive) for path in GAME_READS] + [
        f"/api/v1/games/{archive.match[1]}/", f"/api/v1/games/{archive.match[0]}/plies/3/",
        f"/api/v1/games/{archive.match[0]}/plies/3/?seat=2",
    ]

    etags = [api.get(url)["ETag"] for url in urls]

    assert len(set(etags)) == len(urls)
    assert api.get(urls[0])["ETag"] == etags[0]  # and stable


@pytest.mark.django_db
def test_a_revalidated_game_gets_a_new_etag(api: APIClient, archive: Archive) -> None:
    url = f"/api/v1/games/{archive.match[0]}/"
    before = api.get(url)["ETag"]

    Game.objects.filter(pk=archive.match[0]).update(validated_at=timezone.now())

    response = api.get(url, HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before


@pytest.mark.django_db
def test_a_new_game_changes_the_lists_etag(api: APIClient, archive: Archive) -> None:
    before = api.get("/api/v1/games/")["ETag"]

    store([round_text(77)])

    response = api.get("/api/v1/games/", HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before


@pytest.mark.django_db
def test_a_304_replays_nothing(
    api: APIClient, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/api/v1/games/{archive.match[0]}/plies/5/"
    detail = f"/api/v1/games/{archive.match[0]}/"
    etag, detail_etag = api.get(url)["ETag"], api.get(detail)["ETag"]

    def boom(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("replayed")

    monkeypatch.setattr("api.plies.load_replay", boom)
    monkeypatch.setattr("api.views.games.fourcolor.check_record", boom)

    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api.get(detail, HTTP_IF_NONE_MATCH=detail_etag).status_code == 304


@pytest.mark.django_db
def test_errors_and_streams_carry_no_etag(api: APIClient, archive: Archive) -> None:
    assert "ETag" not in api.get("/api/v1/games/999999/")
    assert "ETag" not in api.get("/api/v1/games/", {"players": "9"})
    assert "ETag" not in api.get("/api/v1/games/export/")


@pytest.mark.django_db
def test_private_answers_are_not_kept_by_shared_caches(client_for: Any, user: Any) -> None:
    client = client_for(user)

    assert client.get("/api/v1/auth/token/")["Cache-Control"] == "no-store"
    assert client.get("/api/v1/jobs/")["Cache-Control"] == "private, no-cache"
