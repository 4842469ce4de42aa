"""The Django admin for the archive: every model, searchable and filterable.

A game's texts and everything the engine derived are read-only here: they change only through
an upload or `manage.py revalidate`, never by hand.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from records.models import Game, GameSeat, Match, Player

DERIVED_GAME_FIELDS = (
    "ruleset", "players", "dealer", "outcome", "finisher", "on", "points", "exposed_points",
    "hidden_points", "lucky_card", "lucky_bonus", "settlement", "event_count", "result_tag",
    "tags", "event", "site", "date", "round_number", "canonical_text", "content_hash",
    "engine_version", "validated_at",
)


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    can_delete = False
    fields = ("seat", "player", "name", "is_dealer", "won", "forced", "won_on", "points",
              "delta", "dealt_in", "pongs", "gans", "chis", "steals", "missed_wins")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "name_key", "created_at")
    search_fields = ("name", "name_key")
    readonly_fields = ("name_key", "created_at")
    ordering = ("name_key",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("tag", "created_at")
    search_fields = ("tag",)
    readonly_fields = ("key", "created_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "players", "outcome", "result_tag", "date", "event",
                    "match", "uploaded_by", "uploaded_at", "stale")
    list_filter = ("ruleset", "outcome", "players", "stale", "engine_version")
    search_fields = ("seats__player__name", "seats__player__name_key", "seats__name", "event",
                     "site", "match__tag", "content_hash")
    readonly_fields = ("original_text", *DERIVED_GAME_FIELDS, "uploaded_at")
    raw_id_fields = ("match", "uploaded_by")
    date_hierarchy = "uploaded_at"
    inlines = [GameSeatInline]
    list_select_related = ("match", "uploaded_by")
    ordering = ("-id",)


@admin.register(GameSeat)
class GameSeatAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "player", "won", "forced", "points", "delta")
    list_filter = ("won", "forced", "dealt_in", "is_dealer", "game__ruleset", "game__players")
    search_fields = ("player__name", "player__name_key", "name", "game__event")
    raw_id_fields = ("game", "player")
    list_select_related = ("game", "player")

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> list[str]:
        # Every column is the engine's word: nothing to edit by hand.
        return [f.name for f in GameSeat._meta.fields]

