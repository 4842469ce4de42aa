"""The import report: `from_dict` is the exact inverse of `as_dict`, and `merge` joins the
reports of consecutive parts of one file (a job resumed after a lost database) associatively,
into the report the whole file gives in one run."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from records.services import ImportReport, RecordResult, RecordStatus

STATUSES = st.sampled_from(list(RecordStatus))
MAX_RESULTS, MAX_PROBLEMS = 4, 2


def _result(index: int, status: RecordStatus) -> RecordResult:
    if status in (RecordStatus.STORED, RecordStatus.DUPLICATE):
        return RecordResult(index, 3 * index + 1, status, game_id=100 + index)
    error = {"line": 3 * index + 1, "col": 2, "ply": None, "category": "syntax",
             "message": "bad", "event": None, "text": "x", "error": f"{index}: bad"}
    return RecordResult(index, 3 * index + 1, status, error=error)


def _report(results: list[RecordResult], *, limit: RecordResult | None = None,
            stopped: str = "") -> ImportReport:
    """A report built as the import builds one: every result added in file order."""
    report = ImportReport(max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS)
    for result in results:
        report.add(result)
    if limit is not None:
        report.limit_refusal = limit
        report.add(limit, keep=True)
    report.stopped = stopped
    last = limit if limit is not None else (results[-1] if results else None)
    report.next_index = last.index + 1 if last is not None else 0
    return report


@st.composite
def files(draw: st.DrawFn) -> tuple[list[RecordResult], bool]:
    statuses = draw(st.lists(STATUSES.filter(lambda s: s is not RecordStatus.UNAVAILABLE),
                             max_size=14))
    return [_result(i, s) for i, s in enumerate(statuses)], draw(st.booleans())


def _limit_after(results: list[RecordResult]) -> RecordResult:
    return _result(len(results), RecordStatus.REFUSED)


@given(st.lists(STATUSES, max_size=12), st.booleans(), st.text(max_size=5))
def test_it_reads_back_every_saved_field(statuses: list[RecordStatus], limited: bool,
                                         stopped: str) -> None:
    results = [_result(i, s) for i, s in enumerate(statuses)]
    report = _report(results, limit=_limit_after(results) if limited else None, stopped=stopped)
    saved = json.loads(json.dumps(report.as_dict()))  # as a job's JSON column keeps it

    again = ImportReport.from_dict(saved, max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS)

    assert again == report
    assert again.as_dict() == report.as_dict()
    assert all(type(r.status) is RecordStatus for r in again.results + again.problems)


@given(files(), st.integers(0, 14), st.integers(0, 14))
def test_it_merges_the_parts_of_a_file_associatively_into_the_whole_files_report(
    file: tuple[list[RecordResult], bool], cut1: int, cut2: int
) -> None:
    results, limited = file
    first, second = sorted((min(cut1, len(results)), min(cut2, len(results))))
    limit = _limit_after(results) if limited else None
    message = "too many records" if limited else ""
    a = _report(results[:first])
    b = _report(results[first:second])
    c = _report(results[second:], limit=limit, stopped=message)
    for part, end in ((a, first), (b, second), (c, len(results) + limited)):
        part.next_index = end  # where each run stopped: where the next one resumes

    left = a.merge(b).merge(c)
    right = a.merge(b.merge(c))

    assert left == right
    assert left == _report(results, limit=limit, stopped=message)


def test_it_keeps_only_the_settled_records_of_a_run_the_database_stopped() -> None:
    results = [_result(0, RecordStatus.STORED), _result(1, RecordStatus.REFUSED),
               _result(2, RecordStatus.UNAVAILABLE), _result(3, RecordStatus.UNAVAILABLE)]
    run = _report(results, stopped="database unavailable")
    run.next_index = 2

    settled = run.settled()

    assert [r.index for r in settled.results] == [0, 1]
    assert [r.index for r in settled.problems] == [1]
    assert (settled.unavailable, settled.stopped, settled.next_index) == (0, "", 2)
    assert (settled.results_omitted, settled.problems_omitted) == (0, 0)


def test_it_says_status_as_the_plain_word() -> None:
    data = _result(0, RecordStatus.DUPLICATE).as_dict()

    assert data["status"] == "duplicate" and type(data["status"]) is str
    assert RecordStatus.STORED == "stored"
