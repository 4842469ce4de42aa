"""Upload: one or many FCN records, validated by the engine and stored one by one.

The answer lists every record's verdict, and its status code sums them up:

- 201 Created: no record refused and at least one stored (`Location` names the game when it is
  the only record);
- 200 OK: no record refused and none stored, all were duplicates of stored games;
- 207 Multi-Status: some records refused, others stored or duplicates (look at each result);
- 400 Bad Request: every record refused, or no record at all; the body is the same report
  with the error body's `error` beside it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import PayloadTooLarge, error_body
from api.parsers import FcnTextParser, OctetStreamParser
from api.serializers import (
    ErrorDoc,
    UploadFormSerializer,
    UploadRefusedDoc,
    UploadReportDoc,
    UploadTextSerializer,
    absolute,
)
from api.throttling import SCOPED_THROTTLES
from api.views.base import ApiViewMixin
from records.services import ImportReport, RecordResult, import_records

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
MAX_RESULTS = 1000
API_STATUS = {"stored": "created", "duplicate": "duplicate", "refused": "refused"}
REFUSAL_KEYS = ("line", "col", "ply", "category", "message", "event", "text", "error")

EXAMPLE_FCN = """[Ruleset "classic"]
[Seat1 "An"]
...
"""


def max_upload_bytes() -> int:
    return int(getattr(settings, "API_UPLOAD_MAX_BYTES", DEFAULT_MAX_BYTES))


def result_json(result: RecordResult, context: dict[str, Any]) -> dict[str, Any]:
    error = None
    if result.error is not None:
        error = {key: result.error.get(key) for key in REFUSAL_KEYS}
        error["error"] = str(error["error"])
    return {
        "index": result.index,
        "line": result.line,
        "status": API_STATUS[result.status],
        "id": result.game_id,
        "url": absolute(context, "game-detail", result.game_id) if result.game_id else None,
        "error": error,
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


class UploadView(ApiViewMixin, APIView):
    """Upload FCN records (signed-in users)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [FcnTextParser, OctetStreamParser, MultiPartParser, FormParser, JSONParser]
    throttle_classes = SCOPED_THROTTLES
    throttle_scope = "upload"

    @extend_schema(
        tags=["uploads"],
        summary="Upload records",
        description=(
            "The body is FCN text (`Content-Type: text/x-fcn` or `text/plain`, UTF-8), a "
            "multipart form with a `file` (or a `text` field), or JSON `{\"text\": ...}`. "
            "Every record is validated by the engine and stored on its own. Status: 201 when "
            "everything was stored, 200 when everything was a duplicate, 207 when some records "
            "were refused and others not, 400 when every record was refused or there was none."
        ),
        request={
            "text/x-fcn": OpenApiTypes.STR,
            "text/plain": OpenApiTypes.STR,
            "multipart/form-data": UploadFormSerializer,
            "application/json": UploadTextSerializer,
        },
        responses={
            200: OpenApiResponse(UploadReportDoc, "Every record was already stored."),
            201: OpenApiResponse(UploadReportDoc, "Stored; no record was refused."),
            207: OpenApiResponse(UploadReportDoc, "Some records refused, others not."),
            400: OpenApiResponse(UploadRefusedDoc, "Nothing could be stored."),
            401: OpenApiResponse(ErrorDoc, "Not signed in."),
            403: OpenApiResponse(ErrorDoc, "CSRF check failed (session authentication)."),
            413: OpenApiResponse(ErrorDoc, "The body is larger than the upload limit."),
            415: OpenApiResponse(ErrorDoc, "An unsupported content type."),
            429: ErrorDoc,
        },
        examples=[OpenApiExample("a file", value=EXAMPLE_FCN, media_type="text/x-fcn",
                                 request_only=True)],
    )
    def post(self, request: Request) -> Response:
        self._check_size(request)
        source = self._source(request)
        report = import_records(source, request.user, max_results=MAX_RESULTS)
        context = {"request": request}
        body = report_json(report, context)
        if report.total == 0:
            message = "The upload holds no record."
            return Response(body | error_body(400, "no_records", message), status=400)
        if report.refused == report.total:
            message = f"Every record was refused ({report.refused})."
            return Response(body | error_body(400, "refused", message), status=400)
        if report.refused:
            return Response(body, status=207)
        if report.stored:
            headers = {}
            if report.total == 1:
                headers["Location"] = body["results"][0]["url"]
            return Response(body, status=201, headers=headers)
        return Response(body, status=200)

    @staticmethod
    def _check_size(request: Request) -> None:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = max_upload_bytes()
        if length > limit:
            raise PayloadTooLarge(f"The body has {length} bytes; the limit is {limit}.")

    @staticmethod
    def _source(request: Request) -> Any:
        data = request.data
        if hasattr(data, "read"):
            return data  # raw FCN text: the service reads the stream itself
        files = request.FILES.getlist("file")
        if len(files) > 1:
            raise exceptions.ValidationError({"file": ["Send one file per upload."]})
        if files:
            return files[0]
        text = data.get("text") if hasattr(data, "get") else None
        if isinstance(text, str) and text:
            return text
        if text is not None and not isinstance(text, str):
            raise exceptions.ValidationError({"text": ["Must be a string."]})
        raise exceptions.ValidationError(
            {"text": ["Send FCN text as the body, a `file` or a `text` field."]}
        )
