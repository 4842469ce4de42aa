"""Players: list and search, detail, recent games, statistics and head-to-head.

Statistics come from `ratings.stats` (the same definitions as the web pages, docs/stats.md);
these views only read parameters and shape the answer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.http import Http404
from django.db.models import Count, Exists, OuterRef, QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import generics, mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from api.filters import ApiGameFilter
from api.game_object import games_queryset
from api.pagination import ApiPagination, CursorPagination
from api.schema.players import PLAYER_GAMES, PLAYERS
from api.serializers.games import GameSerializer
from api.serializers.players import (
    PLAYER_ORDERING,
    PlayerDetailSerializer,
    PlayerQuery,
    PlayerSerializer,
    PlayerStatsQuery,
    RatingHistoryQuery,
)
from api.serializers.stats import PlayerRatingsDoc, StatsQuery
from api.views.base import ApiViewMixin
from api.views.stats import call, parse
from ratings import stats
from ratings.history import rating_histories
from records import search as name_search
from records.models import Game, GameSeat, NameWord, Player, player_key


@PLAYERS
class PlayerViewSet(
    ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Player.objects.all()
    pagination_class = ApiPagination
    queries = {"list": PlayerQuery, "stats": PlayerStatsQuery, "head_to_head": StatsQuery,
               "ratings": RatingHistoryQuery}

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.annotate(rounds=Count("seats"))

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return PlayerDetailSerializer if self.action == "retrieve" else PlayerSerializer

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        query = self.query()
        players = name_search.search(self.get_queryset(), NameWord.Kind.PLAYER,
                                     query.get("search", ""))
        name = player_key(query.get("name", ""))
        if name:
            players = players.filter(name_key=name)
        ordering = PLAYER_ORDERING[query.get("ordering", "name")]
        page = self.paginate_queryset(players.order_by(*ordering))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @action(detail=True)
    def stats(self, request: Request, pk: str) -> Response:
        return Response(call(stats.player_stats, self.get_object(), **parse(self)))

    @action(detail=True, url_path=r"head-to-head/(?P<other>\d+)")
    def head_to_head(self, request: Request, pk: str, other: str) -> Response:
        player = self.get_object()
        opponent = get_object_or_404(Player, pk=other)
        if opponent.pk == player.pk:
            # No such pair: a 404 like any other pair that does not exist.
            raise Http404(_("There is no head-to-head of a player with themself."))
        return Response(call(stats.head_to_head, player, opponent, **parse(self)))

    @action(detail=True)
    def ratings(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        histories = rating_histories(player.pk, self.query().get("ruleset"))
        doc = PlayerRatingsDoc(
            {"player": player, "rulesets": histories}, context=self.get_serializer_context()
        )
        return Response(doc.data)


@PLAYER_GAMES
class PlayerGamesView(ApiViewMixin, generics.ListAPIView):
    queryset = Game.objects.none()  # for the schema; get_queryset picks the player's games
    serializer_class = GameSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = ApiGameFilter
    pagination_class = CursorPagination

    def get_queryset(self) -> QuerySet[Game]:
        player = get_object_or_404(Player, pk=self.kwargs["id"])
        seated = GameSeat.objects.filter(game=OuterRef("pk"), player=player)
        return games_queryset().filter(Exists(seated))
