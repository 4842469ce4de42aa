"""A game's answers kept on the server: the detail under its ETag
(api.caching.cached_answer), a game's ply states beside its replay (records.replay_cache).
A second client is answered from them, byte for byte what the first got, with fewer queries;
a revalidation is a new answer."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from api import plies as api_plies
from records.models import Game
from tests.conftest import SHARED_CACHES

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def _two_clients(url: str) -> tuple[Any, Any, int]:
    first = APIClient().get(url)
    with CaptureQueriesContext(connection) as queries:
        second = APIClient().get(url)
    return first, second, len(queries.captured_queries)


@pytest.mark.django_db
def test_it_answers_a_second_client_s_detail_from_the_kept_answer(archive: Archive) -> None:
    first, second, queries = _two_clients(f"/api/v1/games/{archive.anonymous}/")

    assert first.status_code == second.status_code == 200
    assert second.content == first.content and second["ETag"] == first["ETag"]
    # The game's validators alone: no seats, players or uploader read.
    assert queries == 1


@pytest.mark.django_db
def test_it_replays_a_game_once_for_all_its_plies(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays = []
    load = api_plies.load_replay
    monkeypatch.setattr(api_plies, "load_replay", lambda g: replays.append(g.pk) or load(g))
    game = archive.match[0]

    answers = [APIClient().get(f"/api/v1/games/{game}/plies/{n}/?seat=2") for n in (0, 5, 2)]
    whole = APIClient().get(f"/api/v1/games/{game}/plies/?seat=2&from=0&to=5").json()

    assert [a.status_code for a in answers] == [200, 200, 200]
    assert replays == [game]
    assert [answers[0].json(), answers[1].json()] == [whole["states"][0], whole["states"][5]]
    assert answers[1].json()["links"]["previous"].endswith(f"/games/{game}/plies/4/?seat=2")


@pytest.mark.django_db
def test_it_keeps_a_ply_state_per_view(archive: Archive) -> None:
    game = archive.match[0]
    everyone = APIClient().get(f"/api/v1/games/{game}/plies/1/").json()
    seat_one = APIClient().get(f"/api/v1/games/{game}/plies/1/?seat=1").json()

    assert seat_one["view"] == 1 and everyone["view"] is None
    assert [s["hand"] is None for s in seat_one["seats"]] == [False, True, True]
    assert all(s["hand"] is not None for s in everyone["seats"])


@pytest.mark.django_db
def test_a_revalidated_game_is_a_new_kept_answer(api: APIClient, archive: Archive) -> None:
    url = f"/api/v1/games/{archive.anonymous}/"
    before = api.get(url)
    moment = timezone.now()
    Game.objects.filter(pk=archive.anonymous).update(validated_at=moment)

    after = api.get(url)

    assert after["ETag"] != before["ETag"]
    assert after.json()["validated_at"] != before.json()["validated_at"]


@pytest.mark.django_db
def test_a_deleted_game_is_not_answered_from_the_kept_answer(
    api: APIClient, archive: Archive
) -> None:
    url = f"/api/v1/games/{archive.anonymous}/"
    assert api.get(url).status_code == 200
    Game.objects.filter(pk=archive.anonymous).delete()

    assert api.get(url).status_code == 404


@pytest.mark.django_db
def test_it_answers_again_from_one_read_of_the_shared_cache(
    archive: Archive, settings: Any
) -> None:
    """On the database cache: a game's answer and a ply state built once are read back by any
    worker in one query of the cache table, the same bytes."""
    settings.CACHES = SHARED_CACHES
    cache.clear()
    table = SHARED_CACHES["default"]["LOCATION"]  # type: ignore[index]
    game = archive.match[0]
    for url in (f"/api/v1/games/{game}/", f"/api/v1/games/{game}/plies/3/"):
        first = APIClient().get(url)
        with CaptureQueriesContext(connection) as queries:
            again = APIClient().get(url)

        reads = sum(q["sql"].lstrip().upper().startswith("SELECT") and table in q["sql"]
                    for q in queries.captured_queries)
        assert first.status_code == again.status_code == 200
        assert again.content == first.content
        assert reads == 1
    cache.clear()
