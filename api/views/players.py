"""Players: list and search, detail, recent games, statistics and head-to-head.

Statistics come from `ratings.stats` (the same definitions as the web pages, docs/stats.md);
these views only read parameters and shape the answer.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.db.models import Count, Exists, OuterRef, QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from drf_spectacular.types import OpenApiTypes
from rest_framework import generics, mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from api.pagination import ApiPagination, CursorPagination
from api.schema import GAME_FILTER_PARAMETERS, NAME
from api.serializers.errors import ErrorDoc
from api.serializers.players import (
    PLAYER_ORDERING,
    PlayerQuery,
    PlayerStatsQuery,
    RatingHistoryQuery,
)
from api.serializers.games import GameSerializer
from api.serializers.players import PlayerDetailSerializer, PlayerSerializer
from api.serializers.stats import HeadToHeadDoc, PlayerRatingsDoc, PlayerStatsDoc
from api.serializers.stats import StatsQuery
from api.views.stats import BAD_FILTER, call, parse
from api.views.base import CURSOR_PAGES, PAGES, ApiViewMixin, names
from api.game_object import games_queryset
from ratings.history import rating_histories
from api.filters import ApiGameFilter as GameFilter
from ratings import stats
from records import search as name_search
from records.models import Game, GameSeat, NameWord, Player, player_key

ERRORS_READ = {404: OpenApiResponse(ErrorDoc, "No such player."), 429: ErrorDoc}


@extend_schema(tags=["players"])
class PlayerViewSet(
    ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Player.objects.all()
    pagination_class = ApiPagination
    lookup_value_regex = r"\d+"
    allowed_query = {
        "list": names(PlayerQuery, PAGES),
        "stats": names(PlayerStatsQuery),
        "head_to_head": names(StatsQuery),
        "ratings": names(RatingHistoryQuery),
    }

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.annotate(rounds=Count("seats"))

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action == "retrieve":
            return PlayerDetailSerializer
        return PlayerSerializer

    @extend_schema(
        summary="List or search players",
        description=(
            "Every player of the archive with their number of rounds; `search` finds names as "
            "people type them (each word starts a word of the name; accents and case "
            "ignored), `name` the one player of that name (case, accents' composition and "
            "blanks ignored)."
        ),
        parameters=[
            PlayerQuery,
            OpenApiParameter("search", NAME, OpenApiParameter.QUERY,
                             description="the name as typed (each word starts a word of "
                             "the name; accents and case ignored)"),
            OpenApiParameter("name", NAME, OpenApiParameter.QUERY,
                             description="the whole name (case and blanks ignored): at most "
                             "one player"),
        ],
        responses={
            200: PlayerSerializer(many=True),
            400: OpenApiResponse(ErrorDoc, "An invalid parameter."),
            404: OpenApiResponse(ErrorDoc, "No such page."),
            429: ErrorDoc,
        },
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        query = PlayerQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        players = self.get_queryset()
        players = name_search.search(players, NameWord.Kind.PLAYER,
                               query.validated_data.get("search", ""))
        name = player_key(query.validated_data.get("name", ""))
        if name:
            players = players.filter(name_key=name)
        ordering = PLAYER_ORDERING[query.validated_data.get("ordering", "name")]
        page = self.paginate_queryset(players.order_by(*ordering))
        serializer = PlayerSerializer(page, many=True, context=self.get_serializer_context())
        return self.get_paginated_response(serializer.data)

    @extend_schema(
        summary="A player",
        description="Their name, rounds played, and links to their games, statistics, rating "
        "history and export.",
        responses={200: PlayerDetailSerializer, **ERRORS_READ},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="A player's statistics",
        description=(
            "Every figure of docs/stats.md for one player (the player page's), within the "
            "filters: wins and how, deal-ins, settlement, claims, dealer rounds, meld mix, "
            "missed wins, frequent opponents and current ratings."
        ),
        parameters=[PlayerStatsQuery],
        responses={200: PlayerStatsDoc, 400: BAD_FILTER, **ERRORS_READ},
    )
    @action(detail=True, methods=["get"], url_path="stats", url_name="stats",
            pagination_class=None)
    def stats(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        params = parse(PlayerStatsQuery, request)
        return Response(call(stats.player_stats, player, **params))

    @extend_schema(
        summary="Head-to-head between two players",
        description=(
            "The rounds both played within the filters, the wins of each, the rounds neither "
            "won, and the net points between them (what `other` paid `id`, net)."
        ),
        parameters=[
            StatsQuery,
            OpenApiParameter("other", OpenApiTypes.INT, OpenApiParameter.PATH,
                             description="the other player's id"),
        ],
        responses={
            200: HeadToHeadDoc,
            400: OpenApiResponse(ErrorDoc, "An invalid parameter."),
            404: OpenApiResponse(ErrorDoc, "No such player, or `other` is the player "
                                           "(there is no head-to-head with oneself)."),
            429: ErrorDoc,
        },
    )
    @action(detail=True, methods=["get"], url_path=r"head-to-head/(?P<other>\d+)",
            url_name="head-to-head", pagination_class=None)
    def head_to_head(self, request: Request, pk: str, other: str) -> Response:
        player = self.get_object()
        opponent = get_object_or_404(Player, pk=other)
        if opponent.pk == player.pk:
            # No such pair: a 404 like any other pair that does not exist.
            raise Http404("There is no head-to-head of a player with themself.")
        params = parse(StatsQuery, request)
        return Response(call(stats.head_to_head, player, opponent, **params))


    @extend_schema(
        summary="A player's rating history",
        description=(
            "Per ruleset the player is rated in: their rating after each rated round, in play "
            "order (docs/stats.md, Rating). The last point of each ruleset is the current "
            "rating that `/players/{id}/stats/` shows."
        ),
        parameters=[RatingHistoryQuery],
        responses={200: PlayerRatingsDoc, 400: OpenApiResponse(ErrorDoc, "An invalid ruleset."),
                   **ERRORS_READ},
    )
    @action(detail=True, methods=["get"], url_path="ratings", url_name="ratings",
            pagination_class=None)
    def ratings(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        params = parse(RatingHistoryQuery, request)
        histories = rating_histories(player.pk, params.get("ruleset"))
        doc = PlayerRatingsDoc(
            {"player": player, "rulesets": histories}, context=self.get_serializer_context()
        )
        return Response(doc.data)


@extend_schema(
    tags=["players"],
    summary="A player's games, newest first (the archive's filters apply)",
    description=(
        "The games where the player held a seat, with the game list's filters, ordering and "
        "pages."
    ),
    parameters=[
        OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH),
        *GAME_FILTER_PARAMETERS,
    ],
    responses={
        200: GameSerializer(many=True),
        400: OpenApiResponse(ErrorDoc, "An invalid filter value."),
        404: OpenApiResponse(ErrorDoc, "No such player or page."),
        429: ErrorDoc,
    },
)
class PlayerGamesView(ApiViewMixin, generics.ListAPIView):
    queryset = Game.objects.none()  # for the schema; get_queryset picks the player's games
    allowed_query = {"get": names(GameFilter, CURSOR_PAGES)}
    serializer_class = GameSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = GameFilter
    pagination_class = CursorPagination

    def get_queryset(self) -> QuerySet[Game]:
        player = get_object_or_404(Player, pk=self.kwargs["id"])
        seated = GameSeat.objects.filter(game=OuterRef("pk"), player=player)
        return games_queryset().filter(Exists(seated))
