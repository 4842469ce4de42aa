"""API tokens as their owner sees them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


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
