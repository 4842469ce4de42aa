"""records.replay_cache: what is derived from a game, kept in Django's cache, never stale."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.core.management import call_command

import fourcolor
from records.models import Game
from records.replay_cache import cached, cached_pieces, game_key, load_replay
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _game() -> Game:
    report = import_records(fcn_file(good_texts(2, start=300)))
    return Game.objects.get(pk=report.results[0].game_id)


def test_it_keeps_what_is_built_in_the_shared_cache_for_other_processes() -> None:
    game = _game()
    built: list[int] = []
    first = cached(game, "test:1", lambda: built.append(1) or {"plies": game.event_count})
    assert cache.get(f"{game_key(game)}:test:1") == first == {"plies": game.event_count}
    assert cached(game, "test:1", lambda: built.append(1) or {}) == first
    assert built == [1]


def test_it_keeps_pieces_an_entry_each_and_builds_the_list_again_when_one_is_missing() -> None:
    game = _game()
    builds: list[int] = []

    def build() -> list[str]:
        builds.append(1)
        return [f"state {n}" for n in range(5)]

    assert cached_pieces(game, "test-states:1", [2], build) == ["state 2"]
    assert cache.get(f"{game_key(game)}:test-states:1:4") == "state 4"
    assert cached_pieces(game, "test-states:1", [4, 0], build) == ["state 4", "state 0"]
    assert builds == [1]
    cache.delete(f"{game_key(game)}:test-states:1:3")
    assert cached_pieces(game, "test-states:1", [3], build) == ["state 3"]
    assert builds == [1, 1]


def test_it_replays_the_stored_text() -> None:
    game = _game()
    assert load_replay(game).plies == game.event_count


def test_it_serves_a_new_replay_after_a_revalidation() -> None:
    game = _game()
    before = game_key(game)
    cached(game, "payload:1:0", lambda: "old page")
    Game.objects.filter(pk=game.pk).update(engine_version="0.1")
    call_command("revalidate", "--update", stdout=io.StringIO(), stderr=io.StringIO())
    game.refresh_from_db()
    assert game_key(game) != before
    assert cached(game, "payload:1:0", lambda: "new page") == "new page"
    assert load_replay(game).plies == game.event_count


def test_it_keys_by_game_and_running_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    other = Game.objects.exclude(pk=game.pk).get()
    assert game_key(game) != game_key(other)
    key = game_key(game)
    monkeypatch.setattr(fourcolor, "__version__", "99.0")
    assert game_key(game) != key and "99.0" in game_key(game)


def test_it_raises_the_engines_error_for_a_record_it_refuses() -> None:
    game = _game()
    Game.objects.filter(pk=game.pk).update(canonical_text="[Ruleset \"nope\"]\n")
    game.refresh_from_db()
    with pytest.raises(fourcolor.FcnError):
        load_replay(game)
