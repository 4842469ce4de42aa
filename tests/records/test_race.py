"""Two uploads of the same file at the same time (PostgreSQL): one stored game per record.

The unique index on the content hash decides, inside each record's transaction; there is no
check-then-insert that both uploads could pass at once."""

from __future__ import annotations

import pytest
from django.db import connection

from records.models import Game, GameSeat, Match, Player
from records.services import ImportReport, import_records
from tests.race import race
from tests.records.conftest import fcn_file, good_texts, match_texts

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL"),
]


def _race(data: str, uploads: int = 2) -> list[ImportReport]:
    reports, errors = race(*[lambda: import_records(data)] * uploads)
    assert not errors, errors
    assert len(reports) == uploads
    return reports


def test_it_stores_one_game_when_two_identical_uploads_race() -> None:
    texts = good_texts(30, start=500) + match_texts("race-match", rounds=4)
    reports = _race(fcn_file(texts))
    assert Game.objects.count() == len(texts)
    assert sum(r.stored for r in reports) == len(texts)
    assert sum(r.duplicates for r in reports) == len(texts)
    assert all(r.refused == 0 for r in reports)
    # Every duplicate names the game the other upload stored for the same record.
    stored = {
        r.index: r.game_id for report in reports for r in report.results if r.status == "stored"
    }
    for report in reports:
        for result in report.results:
            if result.status == "duplicate":
                assert result.game_id == stored[result.index]
    assert Match.objects.count() == 1
    assert GameSeat.objects.count() == sum(g.players for g in Game.objects.all())
    names = set(GameSeat.objects.values_list("player__name_key", flat=True))
    assert Player.objects.count() == len(names)


def test_it_survives_four_uploads_racing_on_one_record_many_times() -> None:
    texts = good_texts(10, start=700)
    for text in texts:
        reports = _race(text, uploads=4)
        assert sorted(r.results[0].status for r in reports) == ["duplicate"] * 3 + ["stored"]
        assert len({r.results[0].game_id for r in reports}) == 1
    assert Game.objects.count() == len(texts)


def test_it_leaves_the_connection_committing_synchronously_after_an_import() -> None:
    import_records(fcn_file(good_texts(3, start=900)))
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone() == ("on",)
    assert Game.objects.count() == 3
