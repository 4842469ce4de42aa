"""The statistics' operations as the OpenAPI schema documents them (api.views.stats and the
players' statistics)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema

from api.schema import resource
from api.serializers.errors import ErrorDoc
from api.serializers.stats import (
    GlobalStatsDoc,
    LeaderboardDoc,
)

BAD_FILTER = OpenApiResponse(ErrorDoc, "An invalid parameter (e.g. a date that is not one).")



def _statistic(summary: str, description: str, answer: type) -> Any:
    """A statistic's one operation: its answer, and a 400 for a bad filter."""
    return resource("statistics", get=extend_schema(
        summary=summary, description=description, responses={200: answer, 400: BAD_FILTER}))


LEADERBOARD = _statistic(
    "Leaderboard by a statistic",
    "The best players by `metric` within the filters, among those with at least `min_rounds` "
    "rounds (rates where lower is better are sorted lowest first).",
    LeaderboardDoc)
RATINGS = _statistic(
    "Leaderboard by skill rating (one ruleset)",
    "The players of one ruleset by their rating's ordinal (mu - 3 sigma), among those with at "
    "least `min_rounds` rated rounds.",
    LeaderboardDoc)
GLOBAL_STATS = _statistic(
    "Archive-wide figures",
    "Per ruleset and number of players: the outcome mix, the dealer's and each seat's win rate "
    "and settlement per round, and the meld kinds of winning hands.",
    GlobalStatsDoc)
