"""The shipped rulesets: sizes, numbers and switches with their meanings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


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
