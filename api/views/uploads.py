"""Upload: one or many FCN records, validated by the engine and stored one by one.

The answer lists every record's verdict, and its status code sums them up:

- 201 Created: no record refused and at least one stored (`Location` names the game when it is
  the only record);
- 200 OK: no record refused and none stored, all were duplicates of stored games;
- 207 Multi-Status: some records refused, others stored or duplicates (look at each result);
- 400 Bad Request: every record refused, or no record at all; the body is the same report
  with the error body's `error` beside it;
- 503 Service Unavailable: the database stayed unavailable, so the import stopped; the records
  from the first one not stored on have the status "unavailable". The same report with the
  error body beside it, and `Retry-After`: send the file again later (records already stored
  then come back as duplicates).

An upload holds at most UPLOAD_MAX_RECORDS records: the record after them is refused (category
`limit`) and the rest is not read; the records before keep their verdicts (so 207 or 400).

An upload of BACKGROUND_IMPORT_MIN_BYTES or more is imported as a background job instead:
202 Accepted, the job in the body and its address (`/api/v1/jobs/{id}/`) in `Location`; the
job's report lists the same verdicts once it is done.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import PayloadTooLarge, error_body
from api.parsers import FcnTextParser, JsonParser, OctetStreamParser
from api.serializers import (
    ErrorDetailDoc,
    ErrorDoc,
    UploadFormSerializer,
    UploadRefusedDoc,
    UploadReportDoc,
    UploadTextSerializer,
    absolute,
)
from api.throttling import SCOPED_THROTTLES
from api.views.base import ApiViewMixin
from api.views.jobs import JobDetailSerializer, job_accepted
from jobs.queue import is_large, submit_import
from records.services import ImportReport, RecordResult, import_records

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
MAX_RESULTS = 1000
API_STATUS = {"stored": "created", "duplicate": "duplicate", "refused": "refused",
              "unavailable": "unavailable"}
REFUSAL_KEYS = ("line", "col", "ply", "category", "message", "event", "text", "error")
# Seconds a client is asked to wait before sending an upload again after the database stayed
# unavailable (the import itself already retried for several seconds).
UNAVAILABLE_RETRY_SECONDS = 30

# A whole legal round (Swagger's "Try it out" sends it as it is: it must be accepted).
EXAMPLE_FCN = """[Date "2026.01.05"]
[Ruleset "classic"]
[Seat1 "An"]
[Seat2 "Bình"]
[Dealer "1"]
[Result "2:9"]
[Pile "yH rA yC yH rP wA yR rC gP wK rP rR gK wK yC wH rE rC yR gE wC wR rH yC rK gE gC wE gC \
yA gA yE wK rP yK gH gE rA wE rR wC rR wP rR gP rE wR rA gE gA yP gH yE gR yR gR gH gC yH rK \
gA yR wA wR rE rK gP wA wP gK rH"]

1: rK rA rE rP yA yE yE yH gK gK gA gR gR gH gP wA wE wE wR wH wP
2: rH rH rC rC yK yK yK yA yA yC yP yP yP gC wK wH wH wC wC wP

1x wP 2w wP wP
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


class UploadUnavailableDoc(UploadReportDoc):
    """503: the database stayed unavailable and the import stopped. The report so far (records
    not stored have the status `unavailable`) with the error body beside it."""

    unavailable = serializers.IntegerField(help_text="records not stored")
    error = ErrorDetailDoc()


def unavailable_response(report: ImportReport, body: dict[str, Any]) -> Response:
    """503 with `Retry-After`: what was stored stays stored; sending the file again stores the
    rest (the records already stored are then reported as duplicates)."""
    message = (
        f"The database was unavailable: {report.unavailable} records were not stored. Upload "
        "the file again later; records already stored will be reported as duplicates."
    )
    error = error_body(503, "unavailable", message, retry_after=UNAVAILABLE_RETRY_SECONDS)
    return Response(body | {"unavailable": report.unavailable} | error, status=503,
                    headers={"Retry-After": str(UNAVAILABLE_RETRY_SECONDS)})


class UploadView(ApiViewMixin, APIView):
    """Upload FCN records (signed-in users)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [FcnTextParser, OctetStreamParser, MultiPartParser, FormParser, JsonParser]
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
            "were refused and others not, 400 when every record was refused or there was none, "
            "503 (with `Retry-After`) when the database stayed unavailable and the import "
            "stopped: records with the status `unavailable` were not stored, send the file "
            "again later. At most UPLOAD_MAX_RECORDS records (20,000 by default) per upload: "
            "the next one is refused (category `limit`) and the rest is not read. "
            "A body of BACKGROUND_IMPORT_MIN_BYTES or more (256 KiB by default) is imported as "
            "a background job: 202, follow it at `Location` (`/api/v1/jobs/{id}/`)."
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
            202: OpenApiResponse(
                JobDetailSerializer,
                "A large upload: imported as a background job; `Location` is the job.",
            ),
            207: OpenApiResponse(UploadReportDoc, "Some records refused, others not."),
            400: OpenApiResponse(UploadRefusedDoc, "Nothing could be stored."),
            401: OpenApiResponse(ErrorDoc, "Not signed in."),
            403: OpenApiResponse(ErrorDoc, "CSRF check failed (session authentication)."),
            413: OpenApiResponse(ErrorDoc, "The body is larger than the upload limit."),
            415: OpenApiResponse(ErrorDoc, "An unsupported content type."),
            429: ErrorDoc,
            503: OpenApiResponse(
                UploadUnavailableDoc,
                "The database stayed unavailable: the records from the first `unavailable` one "
                "on were not stored; retry after `Retry-After` seconds.",
            ),
        },
        parameters=[
            OpenApiParameter(
                "Retry-After", OpenApiTypes.INT, OpenApiParameter.HEADER, response=[503],
                description="seconds to wait before sending the file again",
            ),
        ],
        examples=[OpenApiExample("a file", value=EXAMPLE_FCN, media_type="text/x-fcn",
                                 request_only=True)],
    )
    def post(self, request: Request) -> Response:
        self._check_size(request)
        source = self._source(request)
        if is_large(self._size(request, source)):
            name = getattr(source, "name", "")
            job = submit_import(source, request.user, name if isinstance(name, str) else "")
            return job_accepted(job, {"request": request})
        report = import_records(source, request.user, max_results=MAX_RESULTS,
                                max_records=settings.UPLOAD_MAX_RECORDS)
        context = {"request": request}
        body = report_json(report, context)
        if report.unavailable:
            return unavailable_response(report, body)
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
    def _size(request: Request, source: Any) -> int:
        """The upload's size in bytes: the text's, the file's, or the raw body's."""
        if isinstance(source, str):
            return len(source.encode("utf-8", "surrogatepass"))
        size = getattr(source, "size", None)  # an uploaded file
        if isinstance(size, int):
            return size
        try:
            return int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return 0

    @staticmethod
    def _source(request: Request) -> Any:
        data = request.data
        if hasattr(data, "read"):
            return data  # raw FCN text: the service reads the stream itself
        files = request.FILES.getlist("file")
        if len(files) > 1:
            raise exceptions.ValidationError({"file": ["Send one file per upload."]})
        text = data.get("text") if hasattr(data, "get") else None
        if files and text is not None:
            # Which one did the client mean? Storing one and dropping the other is a guess.
            raise exceptions.ValidationError(
                {"non_field_errors": ["Send a `file` or a `text` field, not both."]})
        if files:
            return files[0]
        if isinstance(text, str) and text:
            return text
        if text is not None and not isinstance(text, str):
            raise exceptions.ValidationError({"text": ["Must be a string."]})
        raise exceptions.ValidationError(
            {"text": ["Send FCN text as the body, a `file` or a `text` field."]}
        )
