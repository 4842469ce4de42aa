"""Players: lists and one player with its links."""

from __future__ import annotations

from urllib.parse import urlencode

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import absolute
from records.models import Player


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
