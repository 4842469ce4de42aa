"""API tokens as their owner sees them, and what creating one takes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.common import NO_NUL, ClosedSerializer, PatternText
from records.tokens import MAX_NAME, Scope

MAX_PASSWORD = 4096  # Django's password hashers refuse longer ones (denial of service)
MAX_USERNAME = 150  # django.contrib.auth's User.username
# A token's name: one line of printable text (no control character).
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
SCOPE_HELP = ('"read": GET and HEAD only (a write answers 403 `read_only_token`); '
              '"write": reads and writes, as a signed-in user')


class TokenSerializer(serializers.Serializer[Any]):
    """A token as shown after its creation: never the key itself."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    scope = serializers.ChoiceField(choices=Scope.choices, help_text=SCOPE_HELP)
    username = serializers.CharField(source="user.username")
    last_four = serializers.CharField(help_text="the key's last four characters")
    created = serializers.DateTimeField()


class NewTokenSerializer(TokenSerializer):
    """A token just created: the only answer that shows its key."""

    token = serializers.CharField(
        help_text='the key, shown only this once: send as "Authorization: Token <token>"'
    )


class TokenRequestSerializer(ClosedSerializer):
    """A new token's name and scope."""

    name = PatternText(
        NAME_PATTERN, min_length=1, max_length=MAX_NAME,
        help_text="what the token is for, to tell one's tokens apart (one line)",
    )
    scope = serializers.ChoiceField(choices=Scope.choices, default=Scope.WRITE,
                                    help_text=SCOPE_HELP)


class PasswordSerializer(TokenRequestSerializer):
    """A username and password, and optionally the new token's name and scope."""

    # min_length: the schema says an empty field is refused (400); untrimmed: a name of spaces
    # is a name no user has (401), as the schema's `minLength: 1` lets it be sent.
    # NO_NUL: DRF refuses a NUL in any text; the pattern says so in the schema.
    username = PatternText(NO_NUL, min_length=1, max_length=MAX_USERNAME,
                           trim_whitespace=False)
    password = PatternText(
        NO_NUL, min_length=1, max_length=MAX_PASSWORD, trim_whitespace=False,
        style={"input_type": "password"},
    )
    name = PatternText(
        NAME_PATTERN, min_length=1, max_length=MAX_NAME, default="script",
        help_text='what the token is for (default "script")',
    )
