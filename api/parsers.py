"""Request body parsers for uploads: raw FCN text, streamed straight into the import service,
and an NDJSON export sent back."""

from __future__ import annotations

import json
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from records.services import ndjson_texts


def content_length(request: Any) -> int:
    """The body's declared length (0 when missing or not a number, as Django reads it)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class FcnTextParser(BaseParser):
    """A body of FCN text (`text/x-fcn`; `text/plain` and `application/octet-stream` below).
    Other text types (`text/html`, `text/csv`) are not FCN: a 415, not an upload of refusals.

    Returns the request stream itself, unread: `records.services.import_records` reads it in
    chunks and decodes it strictly as UTF-8, so a large file is never held in memory whole and
    a bad byte is refused with its line and column like any other error."""

    media_type = "text/x-fcn"

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> IO[bytes]:
        return stream


class PlainTextParser(FcnTextParser):
    media_type = "text/plain"


class OctetStreamParser(FcnTextParser):
    media_type = "application/octet-stream"


class JsonParser(JSONParser):
    """DRF's JSON parser, with two more refusals, each a 400 like any malformed body:
    - a body nested deeper than Python's JSON reader goes (about a thousand levels: `[` ×
      100,000, say), instead of a RecursionError and a 500. No request of this API nests
      deeper than a few levels;
    - a body that is not a JSON object (`1.5`, `[]`, `"text"`, `null`): every JSON body of
      this API is an object, and the views read its fields by name."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        try:
            body = super().parse(stream, media_type, parser_context)
        except RecursionError:
            reason = _("the body is nested too deeply to read")
        except ParseError as exc:  # DRF's, in English only: said again with its reason
            reason = str(exc.__context__ or exc.detail)
        else:
            if isinstance(body, dict):
                return body
            reason = _("the body must be a JSON object, not %(kind)s") % {"kind": _json_kind(body)}
        raise ParseError(_("JSON parse error - %(reason)s") % {"reason": reason}) from None


def _json_kind(value: Any) -> str:
    """JSON's name for a value's kind (the words of the JSON standard, not Python's)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return {list: _("an array"), str: _("a string")}.get(type(value), _("a number"))


class NdjsonParser(BaseParser):
    """An export sent back (`application/x-ndjson`: one export object a line, as the API's
    export with `with_text=true` and `manage.py export_games --format ndjson` write it): its
    records, each as it was uploaded, read by the import service's NDJSON reader
    (records.services.ndjson_texts) and joined as one FCN text, blank-line separated, which
    the upload then takes as any other. A line that is not such an object is a 400 naming it."""

    media_type = "application/x-ndjson"

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> dict[str, str]:
        try:
            texts = list(ndjson_texts(line.decode("utf-8") for line in stream))
        except UnicodeDecodeError as exc:
            raise ParseError(_("NDJSON parse error - not UTF-8: %(reason)s")
                             % {"reason": exc}) from None
        except ValueError as exc:
            raise ParseError(_("NDJSON parse error - %(reason)s") % {"reason": exc}) from None
        if not texts:
            raise ParseError(_("NDJSON parse error - no record: one export object a line."))
        # Each record as it came, a blank line after it: FCN's separator.
        return {"text": "\n".join(text if text.endswith("\n") else text + "\n"
                                  for text in texts)}
