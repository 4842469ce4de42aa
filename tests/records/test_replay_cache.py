"""records.replay_cache: one replay per game, shared through Django's cache, never stale."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.core.management import call_command

import fourcolor
from records.models import Game
from records import replay_cache
from records.replay_cache import cached, cached_pieces, clear_local, kept, load_replay, replay_key
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


def test_it_answers_again_from_this_process_s_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    first = kept("test:answer", lambda: built.append(1) or {"seats": [1, 2]}, 60)
    first["seats"].append(3)  # a caller changing its answer changes no one else's
    monkeypatch.setattr("records.replay_cache.cache", None)  # any use of it would fail

    again = kept("test:answer", lambda: built.append(1) or {}, 60)

    assert again == {"seats": [1, 2]} and built == [1]


def test_it_copies_what_another_process_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    cache.set("test:shared", "kept by another worker", 60)
    assert kept("test:shared", lambda: "built", 60) == "kept by another worker"
    cache.delete("test:shared")
    assert kept("test:shared", lambda: "built", 60) == "kept by another worker"


def test_a_copy_lasts_no_longer_than_its_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(replay_cache.time, "monotonic", lambda: now[0])
    kept("test:short", lambda: "old", 10)
    cache.delete("test:short")  # expired there
    now[0] += 11

    assert kept("test:short", lambda: "new", 10) == "new"


def test_it_keeps_no_copy_of_a_large_entry() -> None:
    large = "x" * (replay_cache.LOCAL_ENTRY_CHARS + 1)
    kept("test:large", lambda: large, 60)
    cache.set("test:large", "changed in the shared cache", 60)

    assert kept("test:large", lambda: large, 60) == "changed in the shared cache"


def test_it_keeps_at_most_local_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_cache, "LOCAL_ENTRIES", 3)
    for n in range(5):
        kept(f"test:many:{n}", lambda n=n: f"value {n}", 60)
    cache.clear()

    assert [kept(f"test:many:{n}", lambda: "built", 60) for n in (4, 3, 2, 1, 0)] == [
        "value 4", "value 3", "value 2", "built", "built"
    ]


def test_it_reads_pieces_from_this_process_s_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    builds: list[int] = []

    def build() -> list[str]:
        builds.append(1)
        return [f"state {n}" for n in range(5)]

    assert cached_pieces(game, "test-states:1", [2], build) == ["state 2"]
    monkeypatch.setattr("records.replay_cache.cache", None)
    assert cached_pieces(game, "test-states:1", [2], build) == ["state 2"]
    assert builds == [1]


def test_it_keeps_copies_within_local_chars(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_cache, "LOCAL_CHARS", 250)
    for n in range(4):
        kept(f"test:chars:{n}", lambda n=n: str(n) * 100, 60)
    cache.clear()

    assert [kept(f"test:chars:{n}", lambda: "built", 60)[:1] for n in (3, 2, 1)] == [
        "3", "2", "b"
    ]
