"""`any_of` (records.lookups.AnyOf): what `__in` selects, sent as one array parameter on
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from records.models import Game, GameSeat, Player
from records.services import import_records
from tests.records.conftest import good_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def games() -> list[Game]:
    report = import_records("".join(good_text(seed) + "\n" for seed in range(1, 7)), None)
    assert report.stored == 6, report.as_dict()
    return list(Game.objects.order_by("pk"))


def selected(queryset: Any, field: str, values: Any) -> tuple[list[Any], list[Any]]:
    """The primary keys `__in` and `__any_of` select, in order."""
    both = []
    for lookup in ("in", "any_of"):
        both.append(sorted(queryset.filter(**{f"{field}__{lookup}": values})
                           .values_list("pk", flat=True)))
    return both[0], both[1]


@pytest.mark.parametrize("pick", [
    lambda g: [g[0].pk, g[3].pk],
    lambda g: [g[5].pk, g[5].pk, g[1].pk],  # repeated
    lambda g: [g[2].pk, 10**9, None],  # a key nobody has, and NULL (equal to nothing)
    lambda g: [],
    lambda g: [None],
])
def test_it_selects_what_in_selects_by_key(games: list[Game], pick: Any) -> None:
    by_in, by_any = selected(Game.objects.all(), "pk", pick(games))
    assert by_in == by_any


def test_it_selects_what_in_selects_through_a_relation(games: list[Game]) -> None:
    ids = [games[1].pk, games[4].pk]
    by_in, by_any = selected(GameSeat.objects.all(), "game_id", ids)
    assert by_in == by_any and len(by_any) >= 4
    players = list(Player.objects.values_list("pk", flat=True)[:2])
    by_in, by_any = selected(GameSeat.objects.all(), "game__seats__player_id", players)
    assert by_in == by_any and by_any


def test_it_selects_what_in_selects_by_text(games: list[Game]) -> None:
    hashes = [games[0].content_hash, games[2].content_hash, "0" * 64]
    by_in, by_any = selected(Game.objects.all(), "content_hash", hashes)
    assert by_in == by_any == sorted([games[0].pk, games[2].pk])


def test_it_sends_one_array_parameter_on_postgresql(games: list[Game]) -> None:
    ids = [game.pk for game in games]
    with CaptureQueriesContext(connection) as queries:
        assert Game.objects.filter(pk__any_of=ids).count() == len(games)
    (sql,) = [q["sql"] for q in queries.captured_queries]
    if connection.vendor == "postgresql":
        assert "= ANY(" in sql and " IN (" not in sql
    else:
        assert " IN (" in sql
