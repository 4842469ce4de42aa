"""The OpenAPI schema's conventions, in one AutoSchema used by every API view.

- Every operation documents 400 (an unknown or invalid query parameter: see
  api.views.base), 401 (a bad token: authentication is tried on reads as well; not signed
  in, where the operation needs it), 403 on writes (CSRF, a read-only token), 414 (a query
  string over the limit: config.middleware) and 429 (throttled) with the error body, besides
  what the view declares itself.
- Optional query parameters allow an empty value, which means "not given"; a text one
  without a pattern of its own has the pattern that refuses NUL, as the server does.
- The archive's filters are documented with their real types and bounds
  (`GameFilterExtension`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from rest_framework.permissions import SAFE_METHODS
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from api.filters import IDS_PATTERN, MAX_IDS, ApiGameFilter, IdsField
from api.serializers.common import NO_NUL, ClosedSerializer
from api.serializers.errors import ErrorDoc

T = TypeVar("T")

COMMON_ERRORS = {
    "400": "An invalid or unknown query parameter.",
    "401": "Invalid credentials (a wrong token, or an inactive user).",
    "414": "The query string is longer than QUERY_STRING_MAX_BYTES (4096 by default).",
    "429": "Too many requests: retry after `Retry-After` seconds.",
}
NOT_SIGNED_IN = "Not signed in."
WRITE_REFUSED = "CSRF check failed (session), or a read-only token (`read_only_token`)."

# Sent with every 200 to GET but the streamed export, and with its 304 (api.caching).
CACHE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": "a strong validator of this answer"},
    "Cache-Control": {"schema": {"type": "string"},
                      "description": "public, max-age=60 for a game's own reads; public, "
                      "no-cache for lists and statistics; private, no-cache for one's own "
                      "jobs; no-store for one's tokens"},
}



# The API's words for the archive's filters (their types and bounds come from the filters).
GAME_FILTER_WORDS = {
    "player": "a player's name as typed: each word starts a word of the name, accents and "
              "case ignored (`nguyen` finds `Nguyễn Văn An`)",
    "opponent": "with `player`: games where both sat (matched the same way)",
    "players": "the number of seats (five or more: classic only)",
    "switches": "the house variant: `standard` (the ruleset as shipped), `house` (any house "
                "variant) or a `Switches` tag's value, that exact variant "
                "(`steal_generals=never threshold=8`, in any order)",
    "match": "a match's name (its `Match` tag), matched as `player` is; a whole tag selects "
             "that match alone",
    "min_points": "the finisher's points at least this (games without points are left out)",
    "since": "played on or after (YYYY-MM-DD)",
    "until": "played on or before (YYYY-MM-DD)",
    "uploaded_by": "who uploaded them, matched as `player` is; a whole username selects that "
                   "account alone",
    "analysed": "true: games with a stored analysis (any engine or settings, a stale one "
                "too); false: games without one",
    "ids": f"games by id, comma-separated without spaces (`12,40,7`), at most {MAX_IDS}, all "
           "on one page unless `page_size` says fewer; the answer's `missing` names those no "
           "stored game has",
    "updated_since": "games stored or changed (revalidated, or the uploader's account "
                     "deleted) at or after this time, ISO 8601 (`Z` or an offset; without one, "
                     "UTC): each game's `updated_at`. Deleted games: `/games/deleted/`",
}


class GameFilterExtension(DjangoFilterExtension):
    """The archive's filters (records.filters.GameFilter, api.filters) with their real types
    and bounds, read off each filter's form field: django-filter's own description says
    "number" for whole numbers and leaves out the limits, so schema-driven clients would send
    values the filter refuses."""

    priority = 1

    def resolve_filter_field(self, auto_schema: Any, model: Any, filterset_class: Any,
                             field_name: str, filter_field: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().resolve_filter_field(
            auto_schema, model, filterset_class, field_name, filter_field)
        (parameter,) = parameters
        schema, field = parameter["schema"], filter_field.field
        schema.pop("title", None)  # the model field's, not the parameter's
        if isinstance(field, IdsField):
            parameter["schema"] = {"type": "string", "pattern": IDS_PATTERN}
        elif isinstance(field, forms.IntegerField):
            schema.update(minimum=field.min_value, maximum=field.max_value)
        elif schema.get("type") == "integer" and "enum" in schema:
            parameter["schema"] = {"type": "integer", "enum": [int(n) for n in schema["enum"]]}
        elif isinstance(field, forms.CharField) and field.max_length is not None:
            schema.update(maxLength=field.max_length)
        if field_name in GAME_FILTER_WORDS and issubclass(filterset_class, ApiGameFilter):
            parameter["description"] = GAME_FILTER_WORDS[field_name]
        return parameters

# Streamed text answers: spectacular writes a list action's answer as a JSON array, which a
# client then tries to read as one JSON document. NDJSON is text, a JSON object per line.
STREAMED_TEXT = {"application/x-ndjson": "NDJSON: one JSON object per line, each a {}.",
                 "text/x-fcn": "FCN text: records separated by blank lines."}


def _streams_as_text(content: dict[str, Any]) -> None:
    for media, what in STREAMED_TEXT.items():
        schema = content.get(media, {}).get("schema")
        if schema is not None and schema.get("type") == "array":
            line = schema["items"].get("$ref", "").rsplit("/", 1)[-1] or "string"
            content[media]["schema"] = {"type": "string", "description": what.format(line)}


class ApiAutoSchema(AutoSchema):
    """Adds the common error responses to every operation (see the module doc)."""

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(force_instance(serializer), ClosedSerializer):
            schema["additionalProperties"] = False
        return schema

    def get_override_parameters(self) -> list[Any]:
        # The view's query serializer for this operation (api.views.base: `queries`).
        operation = getattr(self.view, "action", None) or self.method.lower()
        query = getattr(self.view, "queries", {}).get(operation)
        return [*super().get_override_parameters(), *([query] if query else [])]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            # An empty optional query parameter (`?since=`, as the web's forms send them)
            # means "not given" everywhere in the API (django-filter, DRF serializers and
            # pagination all read it so): say so.
            if parameter["in"] == "query" and not parameter.get("required"):
                parameter["allowEmptyValue"] = True
            # Any text: DRF and Django's forms refuse a NUL character in every one.
            schema = parameter["schema"]
            if schema.get("type") == "string" and not {"pattern", "format", "enum"} & set(schema):
                schema["pattern"] = NO_NUL
        ref = self.resolve_serializer(ErrorDoc, "response").ref
        common = dict(COMMON_ERRORS)
        if {} not in operation.get("security", [{}]):
            common["401"] = NOT_SIGNED_IN
        if self.method not in SAFE_METHODS:
            common["403"] = WRITE_REFUSED
        for code, description in common.items():
            operation["responses"].setdefault(
                code, {"content": {"application/json": {"schema": ref}}, "description": description}
            )
        if self.method == "GET" and getattr(self.view, "action", None) != "export":
            ok = operation["responses"].get("200")
            if ok is not None:
                ok.setdefault("headers", {}).update(CACHE_HEADERS)
            operation["responses"]["304"] = {
                "description": "Not modified: the `ETag` sent in `If-None-Match` (or the "
                "date in `If-Modified-Since`, where the answer has a `Last-Modified`) is "
                "still current. No body.",
                "headers": CACHE_HEADERS,
            }
        for response in operation["responses"].values():
            _streams_as_text(response.get("content", {}))
        if {} in operation.get("security", ()):
            # Usable without credentials (public reads, the password exchange): `[]`, which
            # client generators read as "no token needed" (openapi-python-client asks for an
            # authenticated client whenever `security` lists anything, `{}` included). A
            # token sent anyway is still read.
            operation["security"] = []
        return operation

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        # A view's `request_body_required` says whether a request without a body is answered
        # as such: spectacular guesses from the serializer's required fields (or, for a body
        # given as raw schemas or alternatives, leaves it optional), which can be the opposite
        # of the truth.
        body: dict[str, Any] | None = super()._get_request_body(direction)
        required = getattr(self.view, "request_body_required", None)
        if body is not None and required is not None:
            if required:
                body["required"] = True
            else:
                body.pop("required", None)
        return body

    def _is_list_view(self, serializer: Any = None) -> bool:
        # The export takes the list's filters (spectacular documents filters on lists only).
        if getattr(self.view, "action", None) == "export":
            return True
        return bool(super()._is_list_view(serializer))


JSON = "application/json"


def errors(meanings: dict[int, str], media_type: str | None = None) -> dict[Any, Any]:
    """Error answers (the one error body, ErrorDoc) and what each status means; with a media
    type, for an operation whose answers have several."""
    return {(code, media_type) if media_type else code: OpenApiResponse(ErrorDoc, meaning)
            for code, meaning in meanings.items()}


def resource(tag: str, **operations: Any) -> Callable[[T], T]:
    """A resource's schema, declared once beside the others: its tag, and each operation's
    summary, parameters and answers (`name=extend_schema(...)`, the view's method or action)."""

    def decorate(view: T) -> T:
        return extend_schema(tags=[tag])(extend_schema_view(**operations)(view))

    return decorate
