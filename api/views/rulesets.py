"""GET /api/v1/rulesets/: the shipped rulesets, their switches and numbers, the table sizes
they allow and what each switch means, in English, Vietnamese and Traditional Chinese."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.views.base import ApiViewMixin
from records.variants import shipped_rulesets


class MeaningDoc(serializers.Serializer[Any]):
    en = serializers.CharField()
    vi = serializers.CharField()
    zh_Hant = serializers.CharField()


class SwitchDoc(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="as a Switches tag writes it, e.g. steal_generals")
    value = serializers.JSONField(help_text="the ruleset's value: a word, on/off, a number")
    values = serializers.JSONField(
        help_text='the values allowed: a list, or {"minimum": 0, "maximum": 100}'
    )
    meaning = MeaningDoc()


class PlayersDoc(serializers.Serializer[Any]):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class RulesetDoc(serializers.Serializer[Any]):
    name = serializers.CharField()
    description = serializers.CharField()
    players = PlayersDoc(help_text="the table sizes the ruleset allows")
    threshold = serializers.IntegerField(allow_null=True, help_text="bga: the points a win needs")
    base = serializers.IntegerField()
    match_rounds = serializers.IntegerField()
    switches = SwitchDoc(many=True)


class RulesetsDoc(serializers.Serializer[Any]):
    results = RulesetDoc(many=True)


class RulesetsView(ApiViewMixin, APIView):
    allowed_query = {"get": frozenset()}

    @extend_schema(
        summary="The shipped rulesets",
        description=(
            "Each ruleset with its table sizes (`players`), its bga numbers, and every switch a "
            "record's `Switches` tag may set: the ruleset's value, the values allowed (on/off "
            "for the booleans, 0 to 100 for `threshold` and `base`) and what it means in each "
            "language of the site."
        ),
        responses={200: RulesetsDoc},
    )
    def get(self, request: Request) -> Response:
        return Response({"results": shipped_rulesets()})
