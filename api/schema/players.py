"""The players' operations as the OpenAPI schema documents them (api.views.players)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema

from api.schema import errors, resource
from api.schema.stats import BAD_FILTER
from api.serializers.games import GameSerializer
from api.serializers.players import (
    PlayerDetailSerializer,
    PlayerSerializer,
)
from api.serializers.stats import HeadToHeadDoc, PlayerRatingsDoc, PlayerStatsDoc

ERRORS_READ = errors({404: "No such player."})

PLAYERS = resource(
    "players",
    list=extend_schema(
        summary="List or search players",
        description=(
            "Every player of the archive with their number of rounds; `search` finds names as "
            "people type them (each word starts a word of the name; accents and case "
            "ignored), `name` the one player of that name (case, accents' composition and "
            "blanks ignored)."
        ),
        responses={200: PlayerSerializer(many=True),
                   **errors({400: "An invalid parameter.", 404: "No such page."})},
    ),
    retrieve=extend_schema(
        summary="A player",
        description="Their name, rounds played, and links to their games, statistics, rating "
        "history and export.",
        responses={200: PlayerDetailSerializer, **ERRORS_READ},
    ),
    stats=extend_schema(
        summary="A player's statistics",
        description=(
            "Every figure of docs/stats.md for one player (the player page's), within the "
            "filters: wins and how, deal-ins, settlement, claims, dealer rounds, meld mix, "
            "missed wins, frequent opponents and current ratings."
        ),
        responses={200: PlayerStatsDoc, 400: BAD_FILTER, **ERRORS_READ},
    ),
    head_to_head=extend_schema(
        summary="Head-to-head between two players",
        description=(
            "The rounds both played within the filters, the wins of each, the rounds neither "
            "won, and the net points between them (what `other` paid `id`, net)."
        ),
        parameters=[OpenApiParameter("other", OpenApiTypes.INT, OpenApiParameter.PATH,
                                     description="the other player's id")],
        responses={200: HeadToHeadDoc, **errors({
            400: "An invalid parameter.",
            404: "No such player, or `other` is the player (there is no head-to-head with "
                 "oneself)."})},
    ),
    ratings=extend_schema(
        summary="A player's rating history",
        description=(
            "Per ruleset the player is rated in: their rating after each rated round, in play "
            "order (docs/stats.md, Rating). The last point of each ruleset is the current "
            "rating that `/players/{id}/stats/` shows."
        ),
        responses={200: PlayerRatingsDoc, **errors({400: "An invalid ruleset."}),
                   **ERRORS_READ},
    ),

)

PLAYER_GAMES = resource(
    "players",
    get=extend_schema(
        summary="A player's games, newest first (the archive's filters apply)",
        description=(
            "The games where the player held a seat, with the game list's filters, ordering "
            "and pages."
        ),
        responses={200: GameSerializer(many=True),
                   **errors({400: "An invalid filter value.", 404: "No such player or page."})},
    ),
)
