"""What every resource's serializers share: absolute links, a player named in passing."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.urls import reverse
from rest_framework import serializers

from records.models import Player

# DRF refuses a NUL character in any text; a field's pattern says so in the schema.
NO_NUL = r"^[^\x00]*$"


def absolute(context: dict[str, Any], name: str, *args: Any, page: bool = False) -> str:
    """The API's URL `name` (with `page`, a web page's): absolute when the serializer has a
    request (or, outside one, a `base_url` such as `https://fourcolor.example`: `manage.py
    export_games --base-url`), else a path."""
    path = reverse(name if page else f"api:{name}", args=args)
    request = context.get("request")
    if request is not None:
        return str(request.build_absolute_uri(path))
    base = context.get("base_url")
    return f"{str(base).rstrip('/')}{path}" if base else path


# A request body of exactly the documented fields: another one (a misspelt `sample`, a field
# of another operation) is refused with a 400 naming it, not silently dropped; the schema says
# `additionalProperties: false` (api.schema.ApiAutoSchema). A comment, not a docstring: the
# schema takes a component's description from its serializer's docstring, which a subclass
# without one would inherit.
class ClosedSerializer(serializers.Serializer[Any]):
    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "keys"):
            # A form's CSRF token (the browsable API's forms) is the request's, not a field.
            unknown = sorted(set(data.keys()) - set(self.fields) - {"csrfmiddlewaretoken"})
            if unknown:
                raise serializers.ValidationError({name: [_("Unknown field.")] for name in unknown})
        return super().to_internal_value(data)


class PlayerRefSerializer(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the name as first seen in the archive")


class PatternText(serializers.RegexField):
    """A RegexField that takes only text (DRF's would take the number 0 as "0", which the
    schema calls a wrong type), and "" when its pattern does, without `allow_blank` (whose
    schema is a oneOf); trimmed, only spaces is "" too."""

    blank_ok = False

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if data is not serializers.empty and data is not None and not isinstance(data, str):
            self.fail("invalid")  # not a number written as text: the schema says string
        if self.blank_ok and isinstance(data, str) and (
                data == "" or self.trim_whitespace and not data.strip()):
            return ""
        return super().run_validation(data)


class BlankablePatternText(PatternText):
    blank_ok = True
