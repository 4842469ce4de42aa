"""records.services.import_records stores valid records in batches: duplicates inside a batch,
against stored games and against a look-up that missed a concurrent upload; `start_at` and
`progress` for resumable background imports. On either database."""

from __future__ import annotations

import pytest

from records.services import importing, storing
from records.models import Game, GameSeat
from records.services import ImportReport, import_records, import_texts
from tests.records.conftest import bad_record, fcn_file, good_texts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importing, "BATCH_RECORDS", 3)
    monkeypatch.setattr(importing, "BATCH_SECONDS", 3600.0)


def _seats_complete() -> bool:
    return GameSeat.objects.count() == sum(Game.objects.values_list("players", flat=True))


def test_it_reports_a_repeat_inside_one_batch_as_a_duplicate_of_the_first() -> None:
    a, b = good_texts(2, start=1100)
    report = import_records(fcn_file([a, b, a]))
    first, second, third = report.results
    assert [r.status for r in report.results] == ["stored", "stored", "duplicate"]
    assert third.game_id == first.game_id != second.game_id
    assert Game.objects.count() == 2 and _seats_complete()


def test_it_keeps_file_order_and_verdicts_across_batches() -> None:
    texts = good_texts(7, start=1110)
    texts.insert(2, bad_record().text)
    texts.append(texts[0])
    report = import_records(fcn_file(texts))
    assert [r.index for r in report.results] == list(range(len(texts)))
    statuses = [r.status for r in report.results]
    assert statuses == ["stored"] * 2 + ["refused"] + ["stored"] * 5 + ["duplicate"]
    ids = [r.game_id for r in report.results if r.status == "stored"]
    assert ids == sorted(ids)  # games are numbered in file order
    assert report.next_index == len(texts)
    assert Game.objects.count() == 7 and _seats_complete()


def test_it_stores_a_batch_record_by_record_when_the_unique_index_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = good_texts(2, start=1120)
    ids = [r.game_id for r in import_records(fcn_file(stored)).results]
    # As if a concurrent upload stored them after the batch looked its hashes up.
    monkeypatch.setattr(storing, "_stored_hashes", lambda hashes: {})
    new = good_texts(2, start=1130)
    texts = [new[0], stored[1], new[0], stored[0], new[1]]
    report = import_records(fcn_file(texts))
    results = [(r.status, r.game_id) for r in report.results]
    assert results[1:4] == [
        ("duplicate", ids[1]), ("duplicate", results[0][1]), ("duplicate", ids[0]),
    ]
    assert [r.status for r in report.results] == ["stored"] + ["duplicate"] * 3 + ["stored"]
    assert Game.objects.count() == 4 and _seats_complete()


def test_it_skips_the_first_start_at_records_without_counting_them() -> None:
    texts = good_texts(6, start=1140)
    texts.insert(1, bad_record().text)
    report = import_records(fcn_file(texts), start_at=2)
    assert [r.index for r in report.results] == [2, 3, 4, 5, 6]
    assert (report.stored, report.refused, report.total) == (5, 0, 5)
    assert report.results[0].line == 1 + sum(t.count("\n") + 1 for t in texts[:2])
    assert report.next_index == 7
    again = import_texts(texts, start_at=5)
    assert [(r.index, r.status) for r in again.results] == [(5, "duplicate"), (6, "duplicate")]


def test_it_reports_progress_after_each_committed_batch_and_at_the_end() -> None:
    texts = good_texts(7, start=1150)
    seen: list[tuple[int, int, int]] = []

    def progress(report: ImportReport) -> None:
        # What the report says is committed: a resumed import starts at next_index.
        assert Game.objects.count() == report.stored
        seen.append((report.stored, report.total, report.next_index))

    import_records(fcn_file(texts), progress=progress)
    assert seen == [(3, 3, 3), (6, 6, 6), (7, 7, 7), (7, 7, 7)]


def test_it_reports_progress_once_for_an_empty_input_or_one_fully_skipped() -> None:
    seen: list[int] = []
    import_records("", progress=lambda report: seen.append(report.next_index))
    import_records(fcn_file(good_texts(2, start=1160)), start_at=5,
                   progress=lambda report: seen.append(report.next_index))
    assert seen == [0, 5]
    assert not Game.objects.exists()
