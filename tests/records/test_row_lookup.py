"""records.row_lookup.RowByPk: the ORM's row, values and deferred fields, from SQL compiled once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from records.models import Game
from records.row_lookup import RowByPk
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts

pytestmark = pytest.mark.django_db

FIELDS = ("pk", "content_hash", "event_count", "players", "engine_version", "validated_at",
          "uploaded_at", "stale", "uploaded_by_id")


def _games(n: int = 2) -> list[Game]:
    report = import_records(fcn_file(good_texts(n, start=500)))
    return list(Game.objects.filter(pk__in=[r.game_id for r in report.results]).order_by("pk"))


def _loaded(game: Game) -> dict[str, object]:
    return {name: getattr(game, name) for name in ("pk", *FIELDS[1:])}


def test_it_gives_what_the_orm_gives() -> None:
    first, second = _games()
    Game.objects.filter(pk=second.pk).update(stale=True, uploaded_by=None)
    rows = RowByPk(Game, FIELDS)
    for pk in (first.pk, second.pk):
        orm = Game.objects.only(*FIELDS).get(pk=pk)
        found = rows.get(pk)
        assert found is not None
        assert _loaded(found) == _loaded(orm)
        # The same Python types: SQLite's 0/1 and text come back as bool and datetime.
        assert {k: type(v) for k, v in _loaded(found).items()} == {
            k: type(v) for k, v in _loaded(orm).items()
        }
        assert found.get_deferred_fields() == orm.get_deferred_fields()
    assert rows.get(second.pk).stale is True  # type: ignore[union-attr]


def test_it_reads_a_datetime_back_aware() -> None:
    (game,) = _games(1)
    moment = timezone.now().replace(microsecond=123456) - timedelta(days=3)
    Game.objects.filter(pk=game.pk).update(validated_at=moment)
    found = RowByPk(Game, ("validated_at",)).get(game.pk)
    assert found is not None
    assert found.validated_at == moment


def test_it_loads_a_deferred_field_when_asked() -> None:
    (game,) = _games(1)
    found = RowByPk(Game, ("content_hash",)).get(game.pk)
    assert found is not None
    assert "canonical_text" in found.get_deferred_fields()
    assert found.canonical_text == game.canonical_text  # one more query, as the ORM's


def test_it_finds_nothing_for_a_missing_or_impossible_key() -> None:
    (game,) = _games(1)
    rows = RowByPk(Game, FIELDS)
    assert rows.get(game.pk + 1000) is None
    assert rows.get(0) is None
    assert rows.get(-1) is None
    # Beyond what the column holds: nothing, as the ORM (no database error).
    assert rows.get(10**30) is None
    assert Game.objects.filter(pk=10**30).first() is None


def test_it_runs_one_query_and_compiles_once() -> None:
    first, second = _games()
    rows = RowByPk(Game, FIELDS)
    rows.get(first.pk)
    with CaptureQueriesContext(connection) as queries:
        assert rows.get(second.pk).pk == second.pk  # type: ignore[union-attr]
    assert len(queries) == 1
    assert str(second.pk) in queries[0]["sql"]
    assert len(rows._compiled) == 1


@pytest.mark.django_db(transaction=True)
def test_it_serves_other_threads_with_their_own_connection() -> None:
    (game,) = _games(1)
    rows = RowByPk(Game, FIELDS)
    assert rows.get(game.pk) is not None  # compiled in this thread
    found: list[object] = []

    def read() -> None:
        try:
            found.append(rows.get(game.pk))
        finally:
            connection.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    assert [getattr(g, "pk", None) for g in found] == [game.pk]
    assert _loaded(found[0]) == _loaded(Game.objects.only(*FIELDS).get(pk=game.pk))  # type: ignore[arg-type]
