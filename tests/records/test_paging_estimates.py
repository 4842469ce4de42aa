"""records.paging's estimate on PostgreSQL stays close to the truth after a bulk import, which
ANALYZEs the tables at its end (the other paging tests share an archive: tests/web/test_paging.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from records import paging
from records.models import Game, GameSeat
from records.paging import EstimatingPaginator


@pytest.fixture
def empty_statistics(db: None) -> None:
    """The games' tables' statistics say what the table holds now: nothing. ANALYZE writes a
    table's row count in place, outside any transaction, so an archive another test stored
    and rolled back in this test database can leave it at a thousand rows, and an import of 40
    is then too small a part of the table to ANALYZE it again."""
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Game._meta.db_table}, {GameSeat._meta.db_table}")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite counts exactly")
def test_it_estimates_close_to_the_truth_after_a_bulk_import(
    empty_statistics: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Statistics that have not seen the imported games: the planner guessed 173,500 for 76,041
    # games. An import that changed a good part of the table ANALYZEs it at its end.
    monkeypatch.setattr(paging, "EXACT_UP_TO", 1)
    monkeypatch.setattr(paging, "ANALYZE_AFTER_ROWS", 5)
    from tests.web.conftest import record_text, FOUR
    from records.services import import_records

    report = import_records("\n".join(record_text("classic", 4, seed, FOUR)
                                      for seed in range(1, 41)), None)
    assert report.stored == 40
    for queryset in (Game.objects.order_by("pk"), Game.objects.filter(players=4)):
        paginator = EstimatingPaginator(queryset, 7)
        assert 36 <= paginator.count <= 44, paginator.count  # within 10 %
        assert paginator.estimated
        assert paginator.num_pages == 6


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite counts exactly")
@pytest.mark.parametrize("parts", [1, 2])
def test_it_estimates_close_to_the_truth_after_a_bulk_upload_run_as_a_job(
    empty_statistics: None, monkeypatch: pytest.MonkeyPatch, settings: Any, parts: int
) -> None:
    # Every upload over BACKGROUND_IMPORT_MIN_BYTES is a job, which imports without announcing
    # its games one batch at a time: its end ANALYZEs the tables all the same.
    monkeypatch.setattr(paging, "EXACT_UP_TO", 1)
    monkeypatch.setattr(paging, "ANALYZE_AFTER_ROWS", 5)
    from jobs.queue import create_import_job
    from tests.web.conftest import record_text, FOUR
    from tests.worker import run_worker

    settings.JOB_PARTS, settings.JOB_PART_MIN_SIZE = parts, 20
    job = create_import_job("\n".join(record_text("classic", 4, seed, FOUR)
                                      for seed in range(1, 41)).encode(), None, "bulk.fcn")
    run_worker()
    job.refresh_from_db()
    assert (job.status, job.stored, job.parts.count()) == ("done", 40, parts if parts > 1 else 0)
    for queryset in (Game.objects.order_by("pk"), Game.objects.filter(players=4)):
        paginator = EstimatingPaginator(queryset, 7)
        assert 36 <= paginator.count <= 44, paginator.count  # within 10 %
