"""records.replay_cache: one replay per game, shared through Django's cache, never stale."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.core.management import call_command

import fourcolor
from records.models import Game
from records.replay_cache import cached, clear_local, load_replay, replay_key
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    cache.clear()
    clear_local()
    yield
    cache.clear()
    clear_local()


def _game() -> Game:
    report = import_records(fcn_file(good_texts(2, start=300)))
    return Game.objects.get(pk=report.results[0].game_id)


def test_it_keeps_the_replay_in_the_shared_cache_for_other_processes() -> None:
    game = _game()
    replay = load_replay(game)
    assert replay.plies == game.event_count
    clear_local()  # as another worker would start
    shared = cache.get(replay_key(game))
    assert shared is not None and shared.record == replay.record
    assert load_replay(game).state(game.event_count) == replay.state(game.event_count)


def test_it_builds_nothing_twice_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    first = load_replay(game)
    monkeypatch.setattr("records.replay_cache.cache", None)  # any use of it would fail
    assert load_replay(game) is first


def test_it_serves_a_new_replay_after_a_revalidation() -> None:
    game = _game()
    before = replay_key(game)
    load_replay(game)
    cached(game, "payload:1:0", lambda: "old page")
    Game.objects.filter(pk=game.pk).update(engine_version="0.1")
    call_command("revalidate", "--update", stdout=io.StringIO(), stderr=io.StringIO())
    game.refresh_from_db()
    assert replay_key(game) != before
    assert cached(game, "payload:1:0", lambda: "new page") == "new page"
    assert load_replay(game).plies == game.event_count


def test_it_keys_by_game_and_running_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    other = Game.objects.exclude(pk=game.pk).get()
    assert replay_key(game) != replay_key(other)
    key = replay_key(game)
    monkeypatch.setattr(fourcolor, "__version__", "99.0")
    assert replay_key(game) != key and "99.0" in replay_key(game)


def test_it_raises_the_engines_error_for_a_record_it_refuses() -> None:
    game = _game()
    Game.objects.filter(pk=game.pk).update(canonical_text="[Ruleset \"nope\"]\n")
    game.refresh_from_db()
    with pytest.raises(fourcolor.FcnError):
        load_replay(game)
