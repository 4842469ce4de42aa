"""Upload: one or many FCN records, validated by the engine and stored one by one; the answer
is the upload's job (201 done within the request, 202 running), whose answers are described
once, in api/schema/uploads.py (and docs/api.md, "Uploads")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import PayloadTooLarge
from api.parsers import (
    FcnTextParser,
    JsonParser,
    NdjsonParser,
    OctetStreamParser,
    PlainTextParser,
    content_length,
)
from api.schema.uploads import UPLOADS
from api.views.analysis import POLL_SECONDS
from api.views.base import ApiViewMixin
from api.serializers.jobs import JobDetailSerializer
from jobs.queue import submit_upload, upload_size
from records.variants import PickError, picked_tags

FRAMED_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded", "application/json")
# A form's or JSON's fields beside the records: the ruleset and house rules for the records
# whose own tags do not say, as the upload page picks them.
PICKED = ("ruleset", "switches")


@UPLOADS
class UploadView(ApiViewMixin, APIView):
    """Upload FCN records (signed-in users)."""

    request_body_required = True  # nothing sent is a 400 (api.schema.ApiAutoSchema)
    permission_classes = [IsAuthenticated]
    parser_classes = [FcnTextParser, PlainTextParser, OctetStreamParser, MultiPartParser,
                      FormParser, JsonParser, NdjsonParser]
    throttle_scope = "upload"

    def post(self, request: Request) -> Response:
        self._check_length(request)
        source = self._source(request)
        given = self._given(request)
        size = upload_size(source, content_length(request))
        if size > settings.API_UPLOAD_MAX_BYTES:
            raise PayloadTooLarge(_("The upload has %(size)s bytes; the limit is %(limit)s.")
                                  % {"size": size, "limit": settings.API_UPLOAD_MAX_BYTES})
        name = getattr(source, "name", "")
        submitted = submit_upload(source, request.user, name if isinstance(name, str) else "",
                                  size=size, given=given)
        job = submitted.job
        body = JobDetailSerializer(job, context={"request": request}).data
        headers = {"Location": body["url"]}
        if not submitted.finished:
            headers["Retry-After"] = str(POLL_SECONDS)
        return Response(body, status=201 if submitted.finished else 202, headers=headers)

    @staticmethod
    def _check_length(request: Request) -> None:
        """A body far over the limit is refused before it is read (a form's or JSON's with
        room for its framing: the file or the text inside is measured once parsed)."""
        length = content_length(request)
        limit = settings.API_UPLOAD_MAX_BYTES
        framed = request.content_type.split(";")[0].strip().lower() in FRAMED_TYPES
        if length > limit + (settings.UPLOAD_FRAMING_BYTES if framed else 0):
            raise PayloadTooLarge(_("The body has %(size)s bytes; the limit is %(limit)s.")
                                  % {"size": length, "limit": limit})

    @staticmethod
    def _source(request: Request) -> Any:
        data = request.data
        if hasattr(data, "read"):
            return data  # raw FCN text: the service reads the stream itself
        known = {"file", "text", *PICKED}
        unknown = sorted(set(data.keys() if hasattr(data, "keys") else ()) - known)
        if unknown:
            # As every endpoint's unknown parameters: a misspelt field is not silently dropped.
            raise exceptions.ValidationError(
                {name: [_("Unknown field: send a `file` or a `text`, and if you wish a "
                          "`ruleset` and `switches`.")] for name in unknown})
        files = request.FILES.getlist("file")
        if not files and "file" in data:
            # A `file` that is not a file (a JSON key, a form's text field): not dropped.
            raise exceptions.ValidationError(
                {"file": [_("Send a file as multipart/form-data, or the records as `text`.")]})
        if len(files) > 1:
            raise exceptions.ValidationError({"file": [_("Send one file per upload.")]})
        text = data.get("text") if hasattr(data, "get") else None
        if files and text is not None:
            # Which one did the client mean? Storing one and dropping the other is a guess.
            raise exceptions.ValidationError(
                {"non_field_errors": [_("Send a `file` or a `text` field, not both.")]})
        if files:
            return files[0]
        if isinstance(text, str) and text:
            return text
        if text is not None and not isinstance(text, str):
            raise exceptions.ValidationError({"text": [_("Must be a string.")]})
        raise exceptions.ValidationError(
            {"text": [_("Send FCN text as the body, a `file` or a `text` field.")]}
        )

    @staticmethod
    def _given(request: Request) -> dict[str, str]:
        """The tags picked for the records that lack them (records.variants.picked_tags):
        added to each such record as a line above its first, so that a refusal's line is
        still the sender's."""
        data = request.data
        if hasattr(data, "read") or not hasattr(data, "get"):
            return {}  # raw FCN text says everything itself
        picked = {}
        for name in PICKED:
            values = data.getlist(name) if hasattr(data, "getlist") else (
                [data[name]] if name in data else [])
            if len(values) > 1:
                raise exceptions.ValidationError({name: [_("Send this field once.")]})
            if values and not isinstance(values[0], str):
                raise exceptions.ValidationError({name: [_("Must be a string.")]})
            picked[name] = values[0] if values else ""
        try:
            return picked_tags(picked["ruleset"], picked["switches"])
        except PickError as error:
            raise exceptions.ValidationError({error.field: [error.text]}) from None
