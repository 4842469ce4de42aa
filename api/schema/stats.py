"""The statistics' operations as the OpenAPI schema documents them (api.views.stats and the
players' statistics)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema

from api.schema import resource
from api.serializers.errors import ErrorDoc
from api.serializers.stats import (
    GlobalStatsDoc,
    LeaderboardDoc,
    LeaderboardQuery,
    RatingsQuery,
    StatsQuery,
)

BAD_FILTER = OpenApiResponse(ErrorDoc, "An invalid parameter (e.g. a date that is not one).")

LEADERBOARD = resource(
    "statistics",
    get=extend_schema(
        summary="Leaderboard by a statistic",
        description=(
            "The best players by `metric` within the filters, among those with at least "
            "`min_rounds` rounds (rates where lower is better are sorted lowest first)."
        ),
        parameters=[LeaderboardQuery],
        responses={200: LeaderboardDoc, 400: BAD_FILTER},
    ),
)

RATINGS = resource(
    "statistics",
    get=extend_schema(
        summary="Leaderboard by skill rating (one ruleset)",
        description=(
            "The players of one ruleset by their rating's ordinal (mu - 3 sigma), among those "
            "with at least `min_rounds` rated rounds."
        ),
        parameters=[RatingsQuery],
        responses={200: LeaderboardDoc, 400: BAD_FILTER},
    ),
)

GLOBAL_STATS = resource(
    "statistics",
    get=extend_schema(
        summary="Archive-wide figures",
        description=(
            "Per ruleset and number of players: the outcome mix, the dealer's and each seat's "
            "win rate and settlement per round, and the meld kinds of winning hands."
        ),
        parameters=[StatsQuery],
        responses={200: GlobalStatsDoc, 400: BAD_FILTER},
    ),
)
