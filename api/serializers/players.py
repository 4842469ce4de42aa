"""Players: lists and one player with its links."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import fourcolor
from api.serializers.common import absolute
from api.serializers.stats import StatsQuery
from ratings import stats
from records.models import MAX_PLAYER_NAME, Player


class PlayerSerializer(serializers.ModelSerializer[Player]):
    url = serializers.SerializerMethodField()
    rounds = serializers.IntegerField(read_only=True, help_text="rounds played (seats taken)")

    class Meta:
        model = Player
        fields = ["id", "url", "name", "rounds", "created_at"]

    def get_url(self, player: Player) -> str:
        return absolute(self.context, "player-detail", player.pk)


class PlayerDetailSerializer(PlayerSerializer):
    links = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = PlayerSerializer.Meta.fields + ["links"]

    @extend_schema_field(
        {"type": "object", "properties": {
            "games": {"type": "string", "format": "uri"},
            "stats": {"type": "string", "format": "uri"},
            "ratings": {"type": "string", "format": "uri"},
            "export": {"type": "string", "format": "uri"},
        }, "required": ["games", "stats", "ratings", "export"]}
    )
    def get_links(self, player: Player) -> dict[str, str]:
        return {
            "games": absolute(self.context, "player-games", player.pk),
            "stats": absolute(self.context, "player-stats", player.pk),
            "ratings": absolute(self.context, "player-ratings", player.pk),
            # By name, as Lichess exports by user: the archive's `player` filter.
            "export": absolute(self.context, "game-export") + "?" + urlencode(
                {"player": player.name}),
        }


# ----------------------------------------------------------------------------- queries

PLAYER_ORDERING = {
    "name": ("name_key", "pk"),
    "-name": ("-name_key", "-pk"),
    "rounds": ("rounds", "name_key", "pk"),
    "-rounds": ("-rounds", "name_key", "pk"),
}
class PlayerStatsQuery(StatsQuery):
    opponents = serializers.IntegerField(
        default=10, min_value=0, max_value=stats.MAX_LIMIT,
        help_text="how many frequent opponents to list",
    )


class PlayerQuery(serializers.Serializer[Any]):
    name = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_PLAYER_NAME,
        help_text="the whole name (case, accents' composition and blanks ignored): at most "
        "one player",
    )
    search = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_PLAYER_NAME,
        help_text="the name as typed: each word starts a word of the name, accents and case "
        "ignored (`nguyen` finds `Nguyễn Văn An`)",
    )
    ordering = serializers.ChoiceField(
        required=False, choices=list(PLAYER_ORDERING), help_text="default: name"
    )


class RatingHistoryQuery(serializers.Serializer[Any]):
    ruleset = serializers.ChoiceField(
        required=False, choices=sorted(fourcolor.RULESETS), help_text="only this ruleset"
    )
