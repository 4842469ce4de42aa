"""Statistics: thin views over `ratings.stats` (the same definitions as the web pages).

Parameters are checked here (a bad one is a 400 naming it); the figures come from the stats
module unchanged. A player's own statistics and head-to-head are actions of the players
viewset (api.views.players); this module holds the archive-wide ones and the shared pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django_filters.utils import translate_validation
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.errors import ErrorDoc
from api.serializers.stats import LeaderboardQuery, RatingsQuery, StatsQuery
from api.serializers.stats import GlobalStatsDoc, LeaderboardDoc
from api.views.base import ApiViewMixin, names
from ratings import global_stats, leaderboards
from ratings.services import ratings_updating
from records.filters import STATISTICS_FIELDS, StatisticsFilter

BAD_FILTER = OpenApiResponse(ErrorDoc, "An invalid parameter (e.g. a date that is not one).")


def parse(query_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    """The checked parameters (every problem at once, a 400). A statistic's filters are one
    `GameFilters`, `filters`, from the archive's parser (records.filters.StatisticsFilter);
    the serializer checks the rest (metric, limit, ...)."""
    if not issubclass(query_class, StatsQuery):
        query = query_class(data=request.query_params)
        query.is_valid(raise_exception=True)
        return dict(query.validated_data)
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


@extend_schema(tags=["statistics"])
class LeaderboardView(ApiViewMixin, APIView):
    allowed_query = {"get": names(LeaderboardQuery)}

    @extend_schema(
        summary="Leaderboard by a statistic",
        description=(
            "The best players by `metric` within the filters, among those with at least "
            "`min_rounds` rounds (rates where lower is better are sorted lowest first)."
        ),
        parameters=[LeaderboardQuery],
        responses={200: LeaderboardDoc, 400: BAD_FILTER},
    )
    def get(self, request: Request) -> Response:
        params = parse(LeaderboardQuery, request)
        return Response(call(leaderboards.leaderboard, params.pop("metric"), **params))


@extend_schema(tags=["statistics"])
class RatingsView(ApiViewMixin, APIView):
    allowed_query = {"get": names(RatingsQuery)}

    @extend_schema(
        summary="Leaderboard by skill rating (one ruleset)",
        description=(
            "The players of one ruleset by their rating's ordinal (mu - 3 sigma), among those "
            "with at least `min_rounds` rated rounds."
        ),
        parameters=[RatingsQuery],
        responses={200: LeaderboardDoc, 400: BAD_FILTER},
    )
    def get(self, request: Request) -> Response:
        params = parse(RatingsQuery, request)
        return Response(call(leaderboards.leaderboard, "rating", **params))


@extend_schema(tags=["statistics"])
class GlobalStatsView(ApiViewMixin, APIView):
    allowed_query = {"get": names(StatsQuery)}

    @extend_schema(
        summary="Archive-wide figures",
        description=(
            "Per ruleset and number of players: the outcome mix, the dealer's and each seat's "
            "win rate and settlement per round, and the meld kinds of winning hands."
        ),
        parameters=[StatsQuery],
        responses={200: GlobalStatsDoc, 400: BAD_FILTER},
    )
    def get(self, request: Request) -> Response:
        return Response(call(global_stats.global_stats, **parse(StatsQuery, request)))
