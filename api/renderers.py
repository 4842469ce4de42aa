"""Renderers for the record formats: FCN as uploaded (`?format=fcn`, `text/x-fcn`) or as the
engine writes it (`?format=canonical`, `text/x-fcn; variant=canonical`), and the export's NDJSON
(`?format=ndjson`, `application/x-ndjson`); docs/api.md, "The record" and "Export", says which
endpoint takes which.

The views hand these renderers text already (the stored record, or a generator for the
streamed export); errors are always answered in JSON (see `api.views.base`).
"""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer


class TextRenderer(BaseRenderer):
    """Text the view has ready (FCN, NDJSON lines); errors never come here (api.views.base)."""

    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if isinstance(data, bytes):
            return data
        return str(data).encode(self.charset)


class FcnRenderer(TextRenderer):
    """The original text of a record (or of many, for the export)."""

    media_type = "text/x-fcn"
    format = "fcn"


class CanonicalFcnRenderer(TextRenderer):
    """The canonical text of a record. List it before FcnRenderer: DRF lets a renderer without
    parameters match an Accept header with more, so `text/x-fcn; variant=canonical` would pick
    FcnRenderer if that came first."""

    media_type = "text/x-fcn; variant=canonical"
    format = "canonical"


class NdjsonRenderer(TextRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"
