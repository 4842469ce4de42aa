"""`copy_rows` is COPY on PostgreSQL for the callers that ask for it (the import's games and
seats, the statistics' counted games and rating events); `bulk_create` stays the ORM's INSERT
whoever calls it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import CountedGame
from records.models import Game, GameSeat
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


def test_it_copies_rows_given_as_dicts_with_the_defaults_of_the_fields_left_out() -> None:
    game = _game()
    with CaptureQueriesContext(connection) as queries:
        ids = CountedGame.objects.copy_rows([
            {"game_id": game.pk, "ruleset": "classic", "order_key": "k"},
        ])
    expected = 0 if connection.vendor == "postgresql" else 1
    assert len(_inserts(queries)) == expected
    assert ids == [game.pk]
    entry = CountedGame.objects.get(game=game)
    assert (entry.order_key, entry.rated) == ("k", False)  # rated: its default


def test_it_gives_copied_rows_ids_from_the_sequence_in_order() -> None:
    game = _game()
    player_id = game.seats.first().player_id
    rows = [
        {"game_id": game.pk, "seat": seat, "player_id": player_id, "name": f"Copied {seat}"}
        for seat in (7, 8, 9)
    ]
    ids = GameSeat.objects.copy_rows(rows)
    assert ids == sorted(ids) and len(set(ids)) == 3
    copied = [GameSeat.objects.get(pk=pk) for pk in ids]
    assert [(s.seat, s.name) for s in copied] == [(7, "Copied 7"), (8, "Copied 8"), (9, "Copied 9")]
    # Left out: each field's default, as the ORM writes it (JSON list, zero counts, None).
    assert (copied[0].win_melds, copied[0].pongs, copied[0].win_turn) == ([], 0, None)
