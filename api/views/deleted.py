"""`GET /games/deleted/`: the games deleted from the archive (api/schema/games.py, DELETED),
read from the audit trail that every deletion writes (records.deletion): a game's id and when
it was deleted, nothing of who or why."""

from __future__ import annotations

from django.db.models import F
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import generics

from api.filters import DeletedFilter
from api.pagination import CursorPagination
from api.schema.games import DELETED
from api.serializers.games import DeletedGameSerializer
from api.views.base import ApiViewMixin
from records.models import AuditAction, AuditEntry


@DELETED
class DeletedGamesView(ApiViewMixin, generics.ListAPIView):  # type: ignore[type-arg]
    serializer_class = DeletedGameSerializer
    pagination_class = CursorPagination
    filter_backends = [DjangoFilterBackend]
    filterset_class = DeletedFilter
    # Expressions, as cursor pagination follows them (api.pagination.sort_keys).
    queryset = AuditEntry.objects.filter(action=AuditAction.DELETED).only(
        "game_id", "at").order_by(F("at").asc(), F("id").asc())
