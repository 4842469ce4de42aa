"""A game's API ply states kept a state a cache entry (records.replay_cache.cached_pieces):
a ply's request reads and decodes its own state, not the game's every state; a range reads
its states together; a missing entry is built again; a revalidation is a new set of entries
and a deleted game is answered 404, as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from api import plies as api_plies
from records.models import Game
from records import replay_cache
from records.replay_cache import game_key

from tests.conftest import SHARED_CACHES

from .conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def _state_key(game: Game, ply: int, seat: int = 0) -> str:
    return (f"{game_key(game)}:api-plies:{api_plies.PLY_STATES_VERSION}:{seat}:en:{ply}")


class _Reading:
    """The cache, noting every key the replay cache asks it for, with what it answered."""

    def __init__(self, seen: list[tuple[str, Any]]) -> None:
        self.seen = seen

    def get(self, key: str, default: Any = None) -> Any:
        value = cache.get(key, default)
        self.seen.append((key, value))
        return value

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        found: dict[str, Any] = cache.get_many(keys)
        self.seen.extend((key, found.get(key)) for key in keys)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(cache, name)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    seen: list[tuple[str, Any]] = []
    monkeypatch.setattr(replay_cache, "cache", _Reading(seen))
    return seen


def test_it_keeps_each_ply_state_as_its_own_entry(archive: Archive) -> None:
    game = Game.objects.get(pk=archive.match[0])

    first = APIClient().get(f"/api/v1/games/{game.pk}/plies/3/")

    assert first.status_code == 200
    for ply in range(game.event_count + 1):
        kept = json.loads(cache.get(_state_key(game, ply)))
        assert kept["ply"] == ply


def test_a_ply_s_request_reads_its_state_alone(
    archive: Archive, reads: list[tuple[str, Any]]
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    url = f"/api/v1/games/{game.pk}/plies/5/"
    whole = APIClient().get(f"/api/v1/games/{game.pk}/plies/").json()["states"]
    reads.clear()

    answer = APIClient().get(url)

    plies = [(key, value) for key, value in reads if ":api-plies:" in key]
    assert plies == [(_state_key(game, 5), plies[0][1])]
    assert json.loads(plies[0][1])["ply"] == 5
    assert answer.json() == whole[5]


def test_a_range_reads_its_states_together_and_answers_as_the_plies_do(
    archive: Archive, reads: list[tuple[str, Any]]
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    singles = [APIClient().get(f"/api/v1/games/{game.pk}/plies/{n}/?seat=2").json()
               for n in (2, 3, 4)]
    reads.clear()

    ranged = APIClient().get(f"/api/v1/games/{game.pk}/plies/?seat=2&from=2&to=4").json()

    assert [key for key, _ in reads if ":api-plies:" in key] == [
        _state_key(game, n, seat=2) for n in (2, 3, 4)]
    assert ranged["states"] == singles


def test_a_missing_state_is_built_again(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    before = APIClient().get(f"/api/v1/games/{game.pk}/plies/7/").json()
    cache.delete(_state_key(game, 7))  # culled, or expired before the others
    replays = []
    load = api_plies.load_replay
    monkeypatch.setattr(api_plies, "load_replay", lambda g: replays.append(g.pk) or load(g))

    again = APIClient().get(f"/api/v1/games/{game.pk}/plies/7/").json()

    assert again == before and replays == [game.pk]
    assert json.loads(cache.get(_state_key(game, 7)))["ply"] == 7


def test_a_revalidated_game_s_states_are_new_entries(archive: Archive) -> None:
    game = Game.objects.get(pk=archive.match[0])
    APIClient().get(f"/api/v1/games/{game.pk}/plies/1/")
    old_key = _state_key(game, 1)
    Game.objects.filter(pk=game.pk).update(validated_at=timezone.now())
    game.refresh_from_db()

    answer = APIClient().get(f"/api/v1/games/{game.pk}/plies/1/")

    assert answer.status_code == 200
    assert _state_key(game, 1) != old_key and cache.get(_state_key(game, 1)) is not None


def test_a_deleted_game_s_ply_is_not_answered_from_its_kept_state(
    api: APIClient, archive: Archive
) -> None:
    game = archive.match[0]
    assert api.get(f"/api/v1/games/{game}/plies/2/").status_code == 200
    Game.objects.filter(pk=game).delete()

    assert api.get(f"/api/v1/games/{game}/plies/2/").status_code == 404


def test_it_keeps_the_states_in_the_site_s_database_cache(
    archive: Archive, settings: Any
) -> None:
    settings.CACHES = SHARED_CACHES
    cache.clear()
    game = Game.objects.get(pk=archive.match[0])

    first = APIClient().get(f"/api/v1/games/{game.pk}/plies/4/").json()
    again = APIClient().get(f"/api/v1/games/{game.pk}/plies/4/").json()
    ranged = APIClient().get(f"/api/v1/games/{game.pk}/plies/?from=3&to=5").json()

    assert again == first == ranged["states"][1]
    assert json.loads(cache.get(_state_key(game, game.event_count)))["ply"] == game.event_count
    cache.clear()
