"""The body of every error answer, and where a record is wrong."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class RecordErrorDoc(serializers.Serializer[Any]):
    """Where and what is wrong with a record (fourcolor.FcnError.as_dict)."""

    line = serializers.IntegerField(help_text="1-based line in the uploaded file")
    col = serializers.IntegerField(help_text="1-based column")
    ply = serializers.IntegerField(help_text="the event at fault; 0 for the tags or the deal")
    category = serializers.CharField(help_text="syntax, tags, deal, turn, claim-right, ...")
    code = serializers.CharField(
        help_text="what is wrong, stable across versions and languages: claim.own_discard, "
        "turn.drawer, tags.date, ... (`stored` for a refusal stored before codes)"
    )
    params = serializers.DictField(
        child=serializers.JSONField(),
        help_text="the code's parameters: seat numbers (seat, seat2), card tokens (card, card2, "
        "cards), meld kinds (meld), numbers (n, m), the record's text (value, value2), ...",
    )
    message = serializers.CharField(
        help_text="what is wrong, in the request's language (Accept-Language)"
    )
    event = serializers.CharField(help_text="the event's text ('' for the tags or the deal)")


class ErrorDetailDoc(serializers.Serializer[Any]):
    status = serializers.IntegerField()
    code = serializers.CharField(help_text="not_found, invalid, not_authenticated, throttled, ...")
    message = serializers.CharField()
    fields = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text="invalid parameters or body fields, each with its messages",
    )
    record = RecordErrorDoc(required=False, help_text="for an engine or notation error")
    retry_after = serializers.IntegerField(
        required=False, help_text="429 and 503: seconds to wait before trying again"
    )


class ErrorDoc(serializers.Serializer[Any]):
    """The body of every error response."""

    error = ErrorDetailDoc()
