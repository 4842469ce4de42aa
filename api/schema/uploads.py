"""The upload's operation as the OpenAPI schema documents it (api.views.uploads)."""

from __future__ import annotations

import re

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from api.schema import errors, resource
from api.serializers.jobs import JobDetailSerializer
from fourcolor.rulesets import RULESETS, SWITCH_NAMES, SWITCH_VALUES

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


# The request bodies as the server takes them (schemathesis holds the server to it): any
# non-empty text is an upload, whose records the job's report lists one by one (text with no
# record at all is an upload of none: `total` 0); nothing sent is a 400. Two refusals are said
# in words only (scripts/schemathesis.toml lets the upload answer a valid form 400): a file and
# a text both, which schemathesis cannot judge as a oneOf over a form holding a binary file;
# a switch named twice, which no pattern can say.
UPLOAD_FIELD = {"type": "string", "minLength": 1,
                "description": "one or more FCN records, as in a .fcn file"}


def _switch_values(name: str) -> str:
    if name not in SWITCH_VALUES:
        return "0|[1-9][0-9]?|100"  # the numbers, 0 to 100 written plainly
    return "|".join(("on" if value else "off") if isinstance(value, bool) else re.escape(value)
                    for value in SWITCH_VALUES[name])


# A Switches tag's value: `name=value` items apart, as the engine reads them.
SWITCHES_PATTERN = "^\\s*(?:(?:{})(?:\\s+|$))*$".format(
    "|".join(f"{name}=(?:{_switch_values(name)})" for name in SWITCH_NAMES))
UPLOAD_FORM = {
    "type": "object", "minProperties": 1, "additionalProperties": False,
    "properties": {
        "file": {"type": "string", "format": "binary",
                 "description": "a UTF-8 .fcn file (many records)"},
        "text": UPLOAD_FIELD,
        "ruleset": {"type": "string", "enum": list(RULESETS),
                    "description": "the ruleset of the records without a `Ruleset` tag"},
        "switches": {"type": "string", "pattern": SWITCHES_PATTERN,
                     "description": "the house rules of the records without a `Switches` tag, "
                                    "as that tag's value (`steal_generals=never threshold=8`)"},
    },
    "description": (
        "A form upload: a .fcn `file`, or the text in a `text` field (one of them); and, for the "
        "records whose own tags do not say, the `ruleset` and the house rules (`switches`) they "
        "were played under. Each is added to such a record as a tag line above its first line "
        "(a refusal's line is still the sender's; the stored text is the record with that "
        "line). JSON takes the same fields."),
}

UPLOADS = resource(
    "uploads",
    post=extend_schema(
        summary="Upload records",
        description=(
            "The body is FCN text (`Content-Type: text/x-fcn` or `text/plain`, UTF-8), a "
            "multipart form with a `file` (or a `text` field), JSON `{\"text\": ...}`, or an "
            "export sent back as NDJSON (`application/x-ndjson`, one export object with its "
            "`text` a line, as the export with `with_text=true` writes it). A form or JSON may "
            "add the `ruleset` and house rules (`switches`) of the records whose tags do not "
            "say. "
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
                           "body that is not what its type says, a `switches` the engine "
                           "refuses (a name given twice).",
                      413: "The body is larger than the upload limit.",
                      415: "An unsupported content type."}),
        },
        examples=[OpenApiExample("a record", value={"text": EXAMPLE_FCN},
                                 media_type="multipart/form-data", request_only=True)],
    ),
)
