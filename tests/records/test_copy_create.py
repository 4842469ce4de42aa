"""`copy_create` is COPY on PostgreSQL for the callers that ask for it (the import's games and
seats, the statistics' counted games and rating events); `bulk_create` stays the ORM's INSERT
whoever calls it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import CountedGame
from records.models import Game
from records.services import import_records
from tests.records.conftest import good_text

pytestmark = pytest.mark.django_db


def _game() -> Game:
    import_records(good_text(1), announce=False)
    return Game.objects.get()


def _inserts(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]


def test_it_inserts_with_bulk_create_on_a_copying_manager() -> None:
    game = _game()
    with CaptureQueriesContext(connection) as queries:
        CountedGame.objects.bulk_create([CountedGame(game=game, ruleset="classic", order_key="k")])
    assert len(_inserts(queries)) == 1
    assert CountedGame.objects.filter(game=game).exists()


def test_it_copies_with_copy_create_on_postgresql_and_inserts_elsewhere() -> None:
    game = _game()
    with CaptureQueriesContext(connection) as queries:
        made = CountedGame.objects.copy_create(
            [CountedGame(game=game, ruleset="classic", order_key="k")]
        )
    expected = 0 if connection.vendor == "postgresql" else 1
    assert len(_inserts(queries)) == expected
    assert [entry.game_id for entry in made] == [game.pk]
    assert CountedGame.objects.get(game=game).order_key == "k"
