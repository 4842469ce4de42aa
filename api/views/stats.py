"""Statistics: thin views over `ratings.stats` (the same definitions as the web pages).

Parameters are checked here (a bad one is a 400 naming it); the figures come from the stats
module unchanged. A player's own statistics and head-to-head are actions of the players
viewset (api.views.players); this module holds the archive-wide ones and the shared pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django_filters.utils import translate_validation
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema.stats import GLOBAL_STATS, LEADERBOARD, RATINGS
from api.serializers.stats import LeaderboardQuery, RatingsQuery, StatsQuery
from api.views.base import ApiViewMixin
from ratings import global_stats, leaderboards
from ratings.services import ratings_updating
from records.filters import STATISTICS_FIELDS, StatisticsFilter



def parse(view: ApiViewMixin) -> dict[str, Any]:
    """A statistic's checked parameters (every problem at once, a 400): its filters as one
    `GameFilters`, `filters`, from the archive's parser (records.filters.StatisticsFilter);
    the view's query (a StatsQuery) checks the rest (metric, limit, ...)."""
    request = view.request  # type: ignore[attr-defined]
    query_class = view.queries[view.operation]
    filterset = StatisticsFilter(request.query_params)
    rest = request.query_params.copy()
    for name in STATISTICS_FIELDS:
        rest.pop(name, None)
    query = query_class(data=rest)
    errors = {} if filterset.is_valid() else dict(translate_validation(filterset.errors).detail)
    if not query.is_valid():
        errors |= query.errors
    if errors:
        raise exceptions.ValidationError(errors)
    return {**query.validated_data, "filters": filterset.value}


def call(function: Callable[..., dict[str, Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """A stats function's answer, with whether the statistics are still catching up with
    recent uploads; its ValueError (a combination of parameters it refuses) becomes a 400 with
    its message."""
    try:
        answer = function(*args, **kwargs)
    except ValueError as exc:
        raise exceptions.ValidationError({"non_field_errors": [str(exc)]}) from exc
    return answer | {"ratings_updating": ratings_updating()}


@LEADERBOARD
class LeaderboardView(ApiViewMixin, APIView):
    queries = {"get": LeaderboardQuery}

    def get(self, request: Request) -> Response:
        params = parse(self)
        return Response(call(leaderboards.leaderboard, params.pop("metric"), **params))


@RATINGS
class RatingsView(ApiViewMixin, APIView):
    queries = {"get": RatingsQuery}

    def get(self, request: Request) -> Response:
        return Response(call(leaderboards.leaderboard, "rating", **self.query()))


@GLOBAL_STATS
class GlobalStatsView(ApiViewMixin, APIView):
    queries = {"get": StatsQuery}

    def get(self, request: Request) -> Response:
        return Response(call(global_stats.global_stats, **parse(self)))
