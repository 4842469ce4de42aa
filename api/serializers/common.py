"""What every resource's serializers share: absolute links, a player named in passing."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from records.models import Player


def absolute(context: dict[str, Any], name: str, *args: Any) -> str:
    """An absolute URL when the serializer has a request (or, outside one, a `base_url` such
    as `https://fourcolor.example`: `manage.py export_games --base-url`), else a path."""
    path = reverse(f"api:{name}", args=args)
    request = context.get("request")
    if request is not None:
        return str(request.build_absolute_uri(path))
    base = context.get("base_url")
    return f"{str(base).rstrip('/')}{path}" if base else path


class PlayerRefSerializer(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the name as first seen in the archive")
