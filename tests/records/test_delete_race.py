"""Deletions racing imports and each other (PostgreSQL): the locks make them take turns, no
deletion is lost or doubled, and the statistics still equal a rebuild from scratch."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from ratings.models import PlayerRating
from ratings.services import recompute_stats
from records.deletion import delete_game
from records.models import AuditEntry, Game, Match
from records.services import import_records
from tests.race import race
from tests.stats.conftest import club_texts, totals_snapshot

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL"),
]


def imported(*labels: str) -> list[int]:
    report = import_records("\n".join(club_texts()[label] for label in labels))
    assert report.stored == len(labels), report.as_dict()
    return [r.game_id for r in report.results if r.game_id is not None]


def test_it_deletes_while_games_of_the_same_players_and_match_come_in() -> None:
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    # B1 and B2 are rounds of match club-1, whose round B3 arrives while they are deleted.
    doomed = imported("B1", "B2", "A")

    def delete_all() -> None:
        for pk in doomed:
            delete_game(pk, by=staff)

    _, errors = race(delete_all, lambda: imported("B3", "C", "D"))

    assert not errors, errors
    assert not Game.objects.filter(pk__in=doomed).exists()
    assert sorted(AuditEntry.objects.values_list("game_id", flat=True)) == sorted(doomed)
    assert Game.objects.count() == 3
    assert Match.objects.filter(tag="club-1").count() == 1  # B3's, whichever way the race went
    incremental = totals_snapshot()
    ratings = sorted(PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma"))
    recompute_stats()
    assert totals_snapshot() == incremental
    assert sorted(
        PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma")
    ) == ratings


def test_it_deletes_a_game_once_when_two_ask_at_the_same_time() -> None:
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    (pk,) = imported("C")

    _, errors = race(lambda: delete_game(pk, by=staff), lambda: delete_game(pk, by=staff))

    assert [type(e) for e in errors] == [Game.DoesNotExist]
    assert AuditEntry.objects.filter(game_id=pk).count() == 1
    assert not Game.objects.exists()
