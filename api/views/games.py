"""Games: list (the web archive's filters), detail, the record in three formats, the table at
any ply, the engine's review, streamed export, and deletion by the uploader or staff."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils.translation import gettext as _
from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404, HttpResponseBase, StreamingHttpResponse
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

import fourcolor

from api.caching import (
    GAME_CACHE_CONTROL,
    cached_answer,
    game_etag,
    game_last_modified,
    not_modified,
    validators,
)
from api.filters import ApiGameFilter
from api.game_object import export_response, game_json, games_queryset
from api.pagination import CursorPagination, forward_from, link_header, next_batch
from api.renderers import CanonicalFcnRenderer, FcnRenderer, NdjsonRenderer
from api.plies import ply_answers, review_json
from api.schema.games import GAMES
from api.serializers.games import (
    DeleteQuery,
    ExportQuery,
    GameDetailSerializer,
    GameSerializer,
    PlyQuery,
    PlyRangeQuery,
)
from api.views.base import ApiViewMixin
from records.deletion import can_delete, delete_game
from records.models import Game


# What a game's validators (api.caching.game_etag), the replay cache's key and the bounds of
# its plies and seats need: a 304, or an answer from the cache, reads no text, seat or tag.
VALIDATOR_FIELDS = ("pk", "content_hash", "event_count", "players", "engine_version",
                    "validated_at", "uploaded_at", "stale", "uploaded_by_id")
# ... and the replay, the texts.
REPLAY_FIELDS = (*VALIDATOR_FIELDS, "canonical_text")
# The columns those reads load (one query).
GAME_FIELDS = {"retrieve": VALIDATOR_FIELDS, "ply": VALIDATOR_FIELDS, "plies": VALIDATOR_FIELDS,
               "review": REPLAY_FIELDS}


@GAMES
class GameViewSet(
    ApiViewMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Game.objects.all()
    permission_classes = [IsAuthenticatedOrReadOnly]
    filter_backends = [DjangoFilterBackend]
    filterset_class = ApiGameFilter
    pagination_class = CursorPagination
    queries = {"export": ExportQuery, "ply": PlyQuery, "plies": PlyRangeQuery,
               "destroy": DeleteQuery}

    throttle_scope = ""
    game_validators: tuple[str, float | None] | None = None

    def unchanged(self, game: Game) -> Response | None:
        """304 when the client already has this answer (api.caching: checked from the game's
        validators, before any replay or serialisation); the validators are sent either way."""
        etag, modified = game_etag(self.request, game, self.action), game_last_modified(game)
        self.game_validators = (etag, modified)
        return not_modified(self.request, etag, modified, GAME_CACHE_CONTROL)

    def finalize_response(
        self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        if self.game_validators is not None and response.status_code == 200:
            validators(response, *self.game_validators, GAME_CACHE_CONTROL)
        return super().finalize_response(request, response, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Game]:
        if (fields := GAME_FIELDS.get(self.action)) is not None:
            # The rest is read only when the answer is neither a 304 nor kept (retrieve) or
            # the game's ply states are not in the replay cache (a deferred field's query).
            return Game.objects.only(*fields)
        if self.action in ("record", "destroy"):
            return Game.objects.all()
        return games_queryset()

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        # The archive's filters apply to lists; a game's own URLs ignore them.
        if self.action in ("list", "export"):
            return super().filter_queryset(queryset)
        return queryset

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        if (fresh := self.unchanged(game)) is not None:
            return fresh
        assert self.game_validators is not None
        context = self.get_serializer_context()

        def build() -> dict[str, Any]:
            try:
                whole = games_queryset(detail=True).get(pk=game.pk)
            except Game.DoesNotExist:
                raise Http404("No Game matches the given query.") from None  # deleted since
            return game_json(whole, context)

        # The answer this ETag names, kept by an earlier request: no serializer runs.
        return Response(cached_answer(game, self.game_validators[0], build))

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = self.get_object()
        if not can_delete(request.user, game):  # the one rule of web, API and admin
            raise PermissionDenied(
                _("Only the user who uploaded this game, or staff, may delete it."))
        reason = self.query().get("reason", "")
        try:
            delete_game(game, by=request.user, reason=reason)
        except Game.DoesNotExist:
            raise Http404("No Game matches the given query.") from None  # deleted meanwhile
        return Response(status=204)

    # --------------------------------------------------------------------- the record

    @action(detail=True, renderer_classes=[JSONRenderer, CanonicalFcnRenderer, FcnRenderer])
    def record(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        if (fresh := self.unchanged(game)) is not None:
            return fresh
        fmt = request.accepted_renderer.format
        if fmt == "fcn":
            return self._text(game.original_text, f"game-{game.pk}.fcn")
        if fmt == "canonical":
            return self._text(game.canonical_text, f"game-{game.pk}.canonical.fcn")
        return Response(fourcolor.record_to_json(fourcolor.parse_record(game.canonical_text)))

    @staticmethod
    def _text(text: str, filename: str) -> Response:
        return Response(text, headers={"Content-Disposition": f'inline; filename="{filename}"'})

    # --------------------------------------------------------------------- replay

    @action(detail=True, url_path="plies/(?P<ply>[0-9]{1,9})")
    def ply(self, request: Request, pk: str, ply: str) -> Response:
        query = self.query()
        game = self.get_object()
        if (fresh := self.unchanged(game)) is not None:
            return fresh
        number = int(ply)
        if number > game.event_count:
            raise Http404(_("This game has plies 0 to %(last)s.") % {"last": game.event_count})
        return Response(ply_answers(request, game, _seat(query, game), [number])[0])

    @action(detail=True)
    def plies(self, request: Request, pk: str) -> Response:
        query = self.query()
        game = self.get_object()
        first, last = query.get("from", 0), query.get("to", game.event_count)
        if max(first, last) > game.event_count:
            raise Http404(_("This game has plies 0 to %(last)s.") % {"last": game.event_count})
        seat = _seat(query, game)
        if (fresh := self.unchanged(game)) is not None:
            return fresh
        states = ply_answers(request, game, seat, range(first, last + 1))
        return Response({"game": game.pk, "plies": game.event_count, "from": first, "to": last,
                         "states": states})

    @action(detail=True)
    def review(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        if (fresh := self.unchanged(game)) is not None:
            return fresh
        assert self.game_validators is not None  # set by unchanged()
        # A review is the engine's costliest read of a game: kept as the detail's answer is.
        return Response(cached_answer(game, self.game_validators[0], partial(review_json, game)))

    # --------------------------------------------------------------------- export

    @action(detail=False, renderer_classes=[NdjsonRenderer, FcnRenderer], pagination_class=None,
            throttle_scope="export")  # counted under its own scope too (api.throttling)
    def export(self, request: Request) -> StreamingHttpResponse:
        data = self.query()
        games = self.filter_queryset(games_queryset(detail=True))
        games = forward_from(games, data.get("cursor"))
        cap = settings.API_EXPORT_MAX_GAMES
        if data.get("max") is None and games[cap:cap + 1].exists():
            # Refused rather than cut short: a client must not take a partial archive for all.
            raise serializers.ValidationError({"max": [
                _("The filters select more than %(most)s games, the most one export request "
                  "takes: narrow them (since, until, player, ...) or ask for fewer with max.")
                % {"most": cap}
            ]})
        size = data.get("max") or cap
        following = next_batch(games, size, request.build_absolute_uri())
        response = export_response(games[:size], request.accepted_renderer,
                                   self.get_serializer_context(), data["with_text"])
        if following is not None:
            response["Link"] = link_header([(following, "next")])
        return response


def _seat(query: dict[str, Any], game: Game) -> int | None:
    """The seat whose view is asked for (None: every hand shown): one of the game's."""
    seat: int | None = query.get("seat")
    if seat is not None and seat > game.players:
        raise Http404(_("This game has seats 1 to %(last)s.") % {"last": game.players})
    return seat

