"""An upload's report: every record's verdict."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import absolute
from api.serializers.errors import RecordErrorDoc
from records.refusal_text import refusal_text
from records.services import ImportReport, RecordResult, RecordStatus
from records.services.report import describe_differences

API_STATUS = {RecordStatus.STORED: "created", RecordStatus.DUPLICATE: "duplicate",
              RecordStatus.REFUSED: "refused", RecordStatus.UNAVAILABLE: "unavailable"}
REFUSAL_KEYS = ("line", "col", "ply", "category", "code", "params", "message", "event", "text",
                "error")


class RefusalDoc(RecordErrorDoc):
    # A record not stored because the database was unavailable has no column, ply nor event.
    col = serializers.IntegerField(allow_null=True, help_text="1-based column (null: unavailable)")
    ply = serializers.IntegerField(
        allow_null=True,
        help_text="the event at fault; 0 for the tags or the deal (null: unavailable)",
    )
    event = serializers.CharField(
        allow_null=True, help_text="the event's text ('' for the tags or the deal)"
    )
    text = serializers.CharField(help_text="the offending line of the file (cut to 300)")
    error = serializers.CharField(help_text='one line: "LINE:COL: error[CATEGORY]: MESSAGE ..."')


class DifferenceDoc(serializers.Serializer[Any]):
    code = serializers.ChoiceField(
        choices=["comments_added", "comments_removed", "comments_changed", "tag_added",
                 "tag_removed", "tag_changed", "name_written"],
        help_text="what differs (the record adds comments, a tag, gives a tag another value...)",
    )
    params = serializers.DictField(help_text="count, tag, value, old, seat: as the code has")
    message = serializers.CharField(help_text="the difference in words, in the request's "
                                    "language: \"adds 3 comments\"")


class UploadResultDoc(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="0-based position of the record in the file")
    line = serializers.IntegerField(help_text="the record's first line in the file")
    status = serializers.ChoiceField(
        choices=["created", "duplicate", "refused", "unavailable"],
        help_text="unavailable: not stored, the database stayed unavailable (upload again later)",
    )
    id = serializers.IntegerField(
        allow_null=True, help_text="the game created, or the one already stored (duplicate)"
    )
    url = serializers.URLField(allow_null=True)
    error = RefusalDoc(allow_null=True, help_text="why the record was refused or not stored")
    differences = DifferenceDoc(
        many=True, help_text="a duplicate's differences from the stored record of its round "
        "(empty: the same record but for layout, or not a duplicate)",
    )


class UploadReportDoc(serializers.Serializer[Any]):
    created = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    refused = serializers.IntegerField()
    total = serializers.IntegerField()
    results = UploadResultDoc(many=True, help_text="every record, in file order (see omitted)")
    results_omitted = serializers.IntegerField(
        help_text="records left out of `results` past the first 1,000 (refusals are kept)"
    )


def result_json(result: RecordResult, context: dict[str, Any]) -> dict[str, Any]:
    error = None
    if result.error is not None:
        error = {key: result.error.get(key) for key in REFUSAL_KEYS}
        error["error"] = str(error["error"])
        # In the request's language; a refusal stored before codes keeps its English.
        error["message"] = refusal_text(result.error)
        error["code"] = error["code"] or "stored"
        error["params"] = error["params"] or {}
    return {
        "index": result.index,
        "line": result.line,
        "status": API_STATUS[result.status],
        "id": result.game_id,
        "url": absolute(context, "game-detail", result.game_id) if result.game_id else None,
        "error": error,
        "differences": [
            {**difference, "message": text} for difference, text
            in zip(result.differences, describe_differences(result.differences), strict=True)
        ],
    }


def report_json(report: ImportReport, context: dict[str, Any]) -> dict[str, Any]:
    results = list(report.results)
    # Past the first MAX_RESULTS records, the service still keeps the first problems: list
    # them too, so that no refusal goes unreported while the first 100 are.
    last = results[-1].index if results else -1
    results += [problem for problem in report.problems if problem.index > last]
    return {
        "created": report.stored,
        "duplicates": report.duplicates,
        "refused": report.refused,
        "total": report.total,
        "results": [result_json(result, context) for result in results],
        "results_omitted": report.total - len(results),
    }
