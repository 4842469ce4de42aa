"""A job's saved import report (`ImportReport.as_dict()`) as a report object again, for the
upload result templates and the API's upload answer."""

from __future__ import annotations

from typing import Any

from records.services import ImportReport, RecordResult

_RESULT_FIELDS = ("index", "line", "status", "game_id", "error")


def _result(data: dict[str, Any]) -> RecordResult:
    return RecordResult(**{key: data.get(key) for key in _RESULT_FIELDS})


def stored_report(data: dict[str, Any]) -> ImportReport:
    report = ImportReport(
        stored=int(data.get("stored", 0)),
        duplicates=int(data.get("duplicates", 0)),
        refused=int(data.get("refused", 0)),
    )
    report.results = [_result(r) for r in data.get("results", [])]
    report.problems = [_result(r) for r in data.get("problems", [])]
    report.results_omitted = int(data.get("results_omitted", 0))
    report.problems_omitted = int(data.get("problems_omitted", 0))
    return report
