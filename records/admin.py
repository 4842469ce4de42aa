"""The Django admin for the archive: every model, searchable and filterable.

What a record says and what the engine derived are read-only here (they change only through
an upload or `manage.py revalidate`). Deleting a game goes through
`records.deletion.delete_game`, as on the web page and the API. Seats, matches and players come
and go with their games. The audit trail is read-only; its one action re-imports a deleted game.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from records.deletion import delete_game, restore_game
from records.services.derivation import COMPARED_GAME_FIELDS
from records.models import ApiToken, AuditAction, AuditEntry, Game, GameSeat, Match, Player

# What the engine derived, and when: read-only.
DERIVED_GAME_FIELDS = (*COMPARED_GAME_FIELDS, "engine_version", "validated_at")


class NotAdded:
    """Rows that come only from the records (uploads, the engine), never added by hand."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class NotAddedNorDeleted(NotAdded):
    """Rows that come and go with their games."""

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnly(NotAdded):
    """Rows written by the code alone, never added or changed here."""

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class GameSeatInline(NotAdded, admin.TabularInline):
    model = GameSeat
    extra = 0
    can_delete = False
    fields = ("seat", "player", "name", "is_dealer", "won", "forced", "won_on", "points",
              "delta", "dealt_in", "pongs", "gans", "chis", "steals", "missed_wins")
    readonly_fields = fields
    show_change_link = True


@admin.register(Player)
class PlayerAdmin(NotAddedNorDeleted, admin.ModelAdmin):  # players come with the games
    list_display = ("name", "name_key", "created_at")
    search_fields = ("name", "name_key")
    readonly_fields = ("name_key", "created_at")
    ordering = ("name_key",)


@admin.register(Match)
class MatchAdmin(NotAddedNorDeleted, admin.ModelAdmin):  # a match is its rounds' tag
    list_display = ("tag", "created_at")
    search_fields = ("tag",)
    readonly_fields = ("tag", "key", "created_at")


@admin.register(Game)
class GameAdmin(NotAdded, admin.ModelAdmin):  # games come in through a validating upload
    list_display = ("id", "ruleset", "players", "outcome", "result_tag", "date", "event",
                    "match", "uploaded_by", "uploaded_at", "stale")
    list_filter = ("ruleset", "outcome", "players", "stale", "engine_version")
    search_fields = ("seats__player__name", "seats__player__name_key", "seats__name", "event",
                     "site", "match__tag", "content_hash")
    # The match is the record's `Match` tag: not edited by hand either.
    readonly_fields = ("original_text", *DERIVED_GAME_FIELDS, "uploaded_at", "match")
    raw_id_fields = ("uploaded_by",)
    date_hierarchy = "uploaded_at"
    inlines = [GameSeatInline]
    list_select_related = ("match", "uploaded_by")
    ordering = ("-id",)

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        delete_game(obj, by=request.user, reason=str(_("deleted in the admin")))

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # The seats go with their game (GameSeatAdmin only refuses deleting one on its own).
        perms_needed.discard(str(GameSeat._meta.verbose_name))
        return deleted, counts, perms_needed, protected

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        # One game at a time: each deletion has its own audit entry and statistics update.
        for pk in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                delete_game(pk, by=request.user, reason=str(_("deleted in the admin")))
            except Game.DoesNotExist:
                continue  # deleted meanwhile


@admin.register(GameSeat)
class GameSeatAdmin(ReadOnly, NotAddedNorDeleted, admin.ModelAdmin):  # the engine's word
    list_display = ("game", "seat", "player", "won", "forced", "points", "delta")
    list_filter = ("won", "forced", "dealt_in", "is_dealer", "game__ruleset", "game__players")
    search_fields = ("player__name", "player__name_key", "name", "game__event")
    raw_id_fields = ("game", "player")
    list_select_related = ("game", "player")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, NotAddedNorDeleted, admin.ModelAdmin):  # by records.deletion
    list_display = ("at", "action", "game_id", "by_name", "uploader_name", "ruleset",
                    "players_shown", "reason")
    list_filter = ("action", "ruleset")
    search_fields = ("=game_id", "content_hash", "by_name", "uploader_name", "match_tag",
                     "reason")
    date_hierarchy = "at"
    actions = ["restore"]

    @admin.display(description=_("players"))
    def players_shown(self, entry: AuditEntry) -> str:
        return " · ".join(str(name) for name in entry.seats)

    def has_restore_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("records.add_game")

    @admin.action(description=_("Restore the deleted games (re-import their original text)"),
                  permissions=["restore"])
    def restore(self, request: HttpRequest, queryset: QuerySet[AuditEntry]) -> None:
        entries = list(queryset.filter(action=AuditAction.DELETED).order_by("pk"))
        for entry in entries:
            result = restore_game(entry, by=request.user)
            text, level = RESTORE_MESSAGES[result.status]
            values = {"old": entry.game_id, "new": result.game_id, "error": result.message}
            self.message_user(request, text % values, level)
        if not entries:
            self.message_user(request, _("No deletion among the selected entries."),
                              messages.WARNING)


# What became of a restored game: its import's status -> (message, level).
RESTORE_MESSAGES = {
    "stored": (_("game #%(old)s restored as game #%(new)s"), messages.SUCCESS),
    "duplicate": (_("game #%(old)s is stored already, as game #%(new)s"), messages.WARNING),
    "refused": (_("game #%(old)s not restored: %(error)s"), messages.ERROR),
}


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnly, admin.ModelAdmin):
    """Staff see and revoke (delete) anyone's tokens; keys are made by their owners only."""

    list_display = ("user", "name", "scope", "last_four", "created")
    list_filter = ("scope",)
    search_fields = ("user__username", "name")
    fields = list_display
