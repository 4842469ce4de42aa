"""Concurrent imports each calling the stats hook (PostgreSQL): the lock makes them update the
derived tables in turn, and the result equals a rebuild."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ratings.models import PlayerRating
from ratings.services import on_games_stored, recompute_stats
from records.services import import_records
from tests.stats.conftest import (
    PLAY_ORDER,
    club_texts,
    one_player_may_hold_two_seats,
    totals_snapshot,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL"),
]


def test_it_updates_totals_and_ratings_in_turn_when_imports_race() -> None:
    files = [
        "\n".join(club_texts()[label] for label in PLAY_ORDER[part::3]) for part in range(3)
    ]
    barrier = threading.Barrier(len(files))
    errors: list[BaseException] = []

    def upload(text: str) -> None:
        try:
            barrier.wait(timeout=30)
            for result in import_records(text).results:
                on_games_stored([result.game_id])
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=upload, args=(text,)) for text in files]
    with one_player_may_hold_two_seats():  # A2 (see the conftest), for every thread
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not errors, errors
    incremental = totals_snapshot()
    ratings = sorted(PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma"))
    assert recompute_stats().games == len(PLAY_ORDER)
    assert totals_snapshot() == incremental
    assert sorted(
        PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma")
    ) == ratings
