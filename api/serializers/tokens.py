"""API tokens as their owner sees them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import NO_NUL, ClosedSerializer


class TokenSerializer(serializers.Serializer[Any]):
    """A token as shown after its creation: never the key itself."""

    username = serializers.CharField()
    last_four = serializers.CharField(help_text="the key's last four characters")
    created = serializers.DateTimeField()


class NewTokenSerializer(TokenSerializer):
    """A token just created: the only answer that shows its key."""

    token = serializers.CharField(
        help_text='the key, shown only this once: send as "Authorization: Token <token>"'
    )


MAX_PASSWORD = 4096  # Django's password hashers refuse longer ones (denial of service)
MAX_USERNAME = 150  # django.contrib.auth's User.username
class PasswordSerializer(ClosedSerializer):
    # min_length: the schema says an empty field is refused (400); untrimmed: a name of spaces
    # is a name no user has (401), as the schema's `minLength: 1` lets it be sent.
    # NO_NUL: DRF refuses a NUL in any text; the pattern says so in the schema.
    username = serializers.RegexField(NO_NUL, min_length=1, max_length=MAX_USERNAME,
                                      trim_whitespace=False)
    password = serializers.RegexField(
        NO_NUL, min_length=1, max_length=MAX_PASSWORD, trim_whitespace=False,
        style={"input_type": "password"},
    )
