"""A game `revalidate --update` rewrites is due again: its old data leaves the totals and its
ruleset's ratings wait, and the statistics job's catch-up counts it with its new data, so the
totals equal a rebuild without anyone running `recompute_stats`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from jobs.models import Job

from ratings.models import PlayerRating
from ratings.services import catch_up, games_due, pending_ratings, recompute_stats
from records.models import GameSeat
from tests.stats.conftest import club_texts, one_player_may_hold_two_seats, totals_snapshot

pytestmark = pytest.mark.django_db


def _ratings() -> dict[tuple[int, str], tuple[float, float, int]]:
    return {(r.player_id, r.ruleset): (r.mu, r.sigma, r.rounds)
            for r in PlayerRating.objects.all()}


def test_it_counts_a_rewritten_game_again_with_its_new_data(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    from records.services import import_records

    with one_player_may_hold_two_seats():
        report = import_records("\n".join(club_texts().values()))
    game_id = report.results[0].game_id
    # Stored data that drifted from the engine's (as after an engine fix): the statistics,
    # rebuilt from it, count the drifted values.
    seat = GameSeat.objects.filter(game_id=game_id).order_by("seat").first()
    assert seat is not None
    GameSeat.objects.filter(pk=seat.pk).update(delta=seat.delta + 7, dealt_in=not seat.dealt_in)
    recompute_stats()
    drifted = totals_snapshot()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("revalidate", "--update", stdout=open("/dev/null", "w"))

    assert games_due() == 1
    assert pending_ratings()
    assert Job.objects.filter(kind=Job.Kind.STATS, status=Job.Status.QUEUED).exists()
    catch_up()
    caught_up, ratings = totals_snapshot(), _ratings()
    assert caught_up != drifted
    recompute_stats()
    assert totals_snapshot() == caught_up
    assert _ratings() == ratings
    assert games_due() == 0 and not pending_ratings()


def test_it_says_ratings_are_updating_as_soon_as_a_game_is_due_again(
    club: dict[str, int], django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    from django.core.cache import cache

    from ratings.deletion import mark_due
    from ratings.services import ratings_updating

    cache.clear()
    assert ratings_updating() is False  # and kept so for UPDATING_CACHE_SECONDS
    with django_capture_on_commit_callbacks(execute=True):
        mark_due(club["C"])
    assert ratings_updating() is True  # the kept answer was forgotten at the change
    with django_capture_on_commit_callbacks(execute=True):
        catch_up()
    assert ratings_updating() is False
