"""records.services.import_records / import_texts with `max_records` (UPLOAD_MAX_RECORDS for the
web, the API and their background jobs): the records before the limit keep their verdicts, the
next one is refused once for all the rest (category `limit`, at its first line), and the rest
is never read. On either database."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from records.services import importing
from records.models import Game, GameSeat
from records.services import import_records, import_texts
from tests.records.conftest import bad_record, fcn_file, first_line_of, good_texts
from tests.records.db_down import database_down_after

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 2 records, so that the limit falls across batches."""
    monkeypatch.setattr(importing, "BATCH_RECORDS", 2)
    monkeypatch.setattr(importing, "BATCH_SECONDS", 3600.0)


def _message(limit: int) -> str:
    return f"too many records in one upload: at most {limit} (split the file)"


def test_it_stores_the_first_records_and_refuses_the_rest_once() -> None:
    texts = good_texts(5, start=4300)

    report = import_records(fcn_file(texts), max_records=3)

    assert [r.status for r in report.results] == ["stored"] * 3 + ["refused"]
    assert (report.stored, report.refused, report.total, report.unavailable) == (3, 1, 4, 0)
    refusal = report.results[3]
    assert refusal.index == 3 and refusal.line == first_line_of(texts, 3)
    assert refusal.error is not None
    assert (refusal.error["line"], refusal.error["col"], refusal.error["category"]) == (
        first_line_of(texts, 3), 1, "limit")
    assert refusal.error["message"] == _message(3)
    assert refusal.error["text"] == texts[3].splitlines()[0]
    assert report.problems == [refusal]
    assert report.stopped == _message(3)
    assert report.next_index == 4
    stored = [r.game_id for r in report.results[:3]]
    assert sorted(Game.objects.values_list("pk", flat=True)) == sorted(stored)
    assert GameSeat.objects.count() == sum(Game.objects.values_list("players", flat=True))


@dataclass(frozen=True)
class Row:
    name: str
    records: list[str]  # "good", "bad" or "repeat" (of the first good one), in file order
    limit: int | None
    statuses: list[str]


ROWS = [
    Row("no limit", ["good"] * 5, None, ["stored"] * 5),
    Row("exactly at the limit", ["good"] * 5, 5, ["stored"] * 5),
    Row("one over", ["good"] * 5, 4, ["stored"] * 4 + ["refused"]),
    Row("a limit of one", ["good"] * 3, 1, ["stored", "refused"]),
    Row("verdicts before the limit stand", ["good", "bad", "repeat", "good", "good"], 4,
        ["stored", "refused", "duplicate", "stored", "refused"]),
    Row("the record at the limit is refused even if valid", ["bad", "good", "good"], 1,
        ["refused", "refused"]),
]


def _texts(kinds: list[str], start: int) -> list[str]:
    goods = iter(good_texts(len(kinds), start=start))
    first: list[str] = []
    texts = []
    for kind in kinds:
        if kind == "bad":
            texts.append(bad_record().text)
        elif kind == "repeat":
            texts.append(first[0])
        else:
            texts.append(next(goods))
            first = first or [texts[-1]]
    return texts


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
@pytest.mark.parametrize("as_texts", [False, True], ids=["file", "texts"])
def test_it_applies_the_limit_whatever_the_records(row: Row, as_texts: bool) -> None:
    texts = _texts(row.records, start=4310)

    if as_texts:
        report = import_texts(texts, max_records=row.limit)
    else:
        report = import_records(fcn_file(texts), max_records=row.limit)

    assert [r.status for r in report.results] == row.statuses
    over = row.limit is not None and len(texts) > row.limit
    assert report.stopped == (_message(row.limit) if over and row.limit else "")
    categories = [r.error["category"] for r in report.results if r.error is not None]
    assert categories.count("limit") == int(over)
    assert Game.objects.count() == row.statuses.count("stored")


def test_it_never_reads_past_the_record_after_the_limit() -> None:
    # The third record ends where a fourth starts; the line after that must stay unread.
    texts = good_texts(3, start=4330) + ['[Event "four"]\n', "never read\n"]

    def lines() -> Iterator[str]:
        for line in fcn_file(texts).splitlines(keepends=True):
            if line == "never read\n":
                raise AssertionError("the import read past the record after the limit")
            yield line

    report = import_records(lines(), max_records=2)

    assert [r.status for r in report.results] == ["stored", "stored", "refused"]
    assert Game.objects.count() == 2


def test_it_counts_the_limit_from_the_start_of_the_file_when_resuming() -> None:
    texts = good_texts(5, start=4340)
    first = import_records(fcn_file(texts[:2]))
    assert first.stored == 2

    report = import_records(fcn_file(texts), start_at=2, max_records=3)

    assert [(r.index, r.status) for r in report.results] == [(2, "stored"), (3, "refused")]
    assert report.results[1].error is not None
    assert report.results[1].error["line"] == first_line_of(texts, 3)
    assert Game.objects.count() == 3


@pytest.mark.django_db(transaction=True)  # the import's retries need autocommit
@pytest.mark.parametrize(
    ("batches", "statuses", "resume"),
    [
        (1, ["stored", "stored", "unavailable", "refused"], 2),  # down storing the last batch
        (0, ["unavailable"] * 3 + ["refused"], 0),  # down from the start
    ],
    ids=["down-at-the-end", "down-from-the-start"],
)
def test_it_lets_a_database_failure_decide_how_the_import_stopped(
    monkeypatch: pytest.MonkeyPatch, batches: int, statuses: list[str], resume: int
) -> None:
    database_down_after(monkeypatch, batches=batches)

    report = import_records(fcn_file(good_texts(5, start=4350)), max_records=3)

    assert [r.status for r in report.results] == statuses
    assert report.results[3].error is not None
    assert report.results[3].error["category"] == "limit"
    # Resumable: a resumed import (start_at=next_index) stores the records left unavailable.
    assert report.stopped.startswith("database unavailable")
    assert report.next_index == resume
    assert Game.objects.count() == statuses.count("stored")


@pytest.mark.parametrize("how", ["file", "texts"])
def test_it_lists_the_limit_refusal_after_more_refusals_than_the_report_keeps(how: str) -> None:
    texts = [bad_record(seed).text for seed in (1, 3, 5, 7, 9)] + good_texts(2, start=1500)
    if how == "file":
        report = import_records(fcn_file(texts), max_problems=2, max_results=3, max_records=6)
    else:
        report = import_texts(texts, max_problems=2, max_results=3, max_records=6)

    assert (report.refused, report.stored, report.next_index) == (6, 1, 7)
    assert report.stopped == _message(6)
    for listed in (report.problems, report.results):
        assert listed[-1].error is not None and listed[-1].error["category"] == "limit"
        assert listed[-1].index == 6
    assert report.problems_omitted == 3 and len(report.problems) == 3
