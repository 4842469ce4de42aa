"""The upload's operation as the OpenAPI schema documents it (api.views.uploads)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from api.schema import CSRF_FAILED, NOT_SIGNED_IN, errors, resource
from api.serializers.jobs import JobDetailSerializer

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


# The request bodies exactly as the server takes them (schemathesis holds the server to it):
# any non-empty text is an upload, whose records the job's report lists one by one (text with
# no record at all is an upload of none: `total` 0); nothing sent, or both a file and a text,
# is a 400.
UPLOAD_FIELD = {"type": "string", "minLength": 1,
                "description": "one or more FCN records, as in a .fcn file"}
UPLOAD_FORM = {
    "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
    "properties": {
        "file": {"type": "string", "format": "binary",
                 "description": "a UTF-8 .fcn file (many records)"},
        "text": UPLOAD_FIELD,
    },
    "description": "A form upload: a .fcn `file`, or the text in a `text` field (one of them).",
}

UPLOADS = resource(
    "uploads",
    post=extend_schema(
        summary="Upload records",
        description=(
            "The body is FCN text (`Content-Type: text/x-fcn` or `text/plain`, UTF-8), a "
            "multipart form with a `file` (or a `text` field), JSON `{\"text\": ...}`, or an "
            "export sent back as NDJSON (`application/x-ndjson`, one export object with its "
            "`text` a line, as the export with `with_text=true` writes it). "
            "Every record is validated by the engine and stored on its own. The answer is "
            "always the upload's job, with its address in `Location`: 201 when it finished "
            "within the request (bodies under BACKGROUND_IMPORT_MIN_BYTES, 256 KiB by "
            "default), 202 while it runs in the background (follow `Location` until "
            "`finished`). Every record's verdict is in `import_report` (created, duplicate "
            "or refused with the line, column, ply and rule). At most UPLOAD_MAX_RECORDS "
            "records (20,000 by default) per upload: the next one is refused (category "
            "`limit`) and the rest is not read. Sending the same file again is safe: its "
            "records come back as duplicates, never stored twice."
        ),
        # One body type in the schema, the form (a file or a text): openapi-python-client
        # 0.29 writes a function it cannot import for an operation of several required body
        # types. Raw FCN text and JSON are still taken, as the description says.
        request={"multipart/form-data": UPLOAD_FORM},
        responses={
            201: OpenApiResponse(JobDetailSerializer,
                                 "Done within the request: the job with its whole report."),
            202: OpenApiResponse(JobDetailSerializer,
                                 "Running in the background: follow `Location`."),
            **errors({400: "A malformed request: nothing sent, both a `file` and a `text`, a "
                           "body that is not what its type says.",
                      401: NOT_SIGNED_IN, 403: CSRF_FAILED,
                      413: "The body is larger than the upload limit.",
                      415: "An unsupported content type."}),
        },
        examples=[OpenApiExample("a record", value={"text": EXAMPLE_FCN},
                                 media_type="multipart/form-data", request_only=True)],
    ),
)
