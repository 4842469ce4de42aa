"""Games: lists, one game with its facts, the export's lines, the record's JSON twin."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.conf import settings
from django.core.validators import MaxValueValidator
from drf_spectacular.utils import extend_schema_field
from fourcolor import replay_json
from fourcolor.rulesets import MAX_PLAYERS
from rest_framework import serializers

from api.pagination import CURSOR_PATTERN, MAX_CURSOR
from api.serializers.common import NO_NUL, BlankablePatternText, PlayerRefSerializer, absolute
from api.serializers.replays import FinishDoc
from records.deletion import MAX_REASON
from records.models import Game, GameSeat, WinSource
from records.services import SEAT_FACT_FIELDS


class EventDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    verb = serializers.CharField(
        help_text="x discard, d draw, m meld, w win, ... (docs/notation.md)"
    )
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    split = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    comments = serializers.ListField(child=serializers.CharField(), required=False)


class RecordJsonDoc(serializers.Serializer[Any]):
    """The record's JSON twin (fourcolor.record_to_json, docs/notation.md)."""

    fcn = serializers.IntegerField()
    tags = serializers.DictField(child=serializers.CharField())
    deal = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    comments = serializers.ListField(child=serializers.CharField(), required=False)
    events = EventDoc(many=True)


class SeatSerializer(serializers.ModelSerializer[GameSeat]):
    """A seat in a list of games: who sat there and how the round ended for them."""

    player = PlayerRefSerializer(read_only=True)
    dealer = serializers.BooleanField(source="is_dealer")

    class Meta:
        model = GameSeat
        fields = ["seat", "name", "player", "dealer", "won", "finisher", "points", "delta"]


class SeatFactsSerializer(SeatSerializer):
    """A seat with every per-seat fact the engine derived (`fourcolor.facts.SeatFacts`)."""

    win_melds = serializers.ListField(child=serializers.CharField())
    # The same values as the game's `on`; a plain string so that the schema does not give one
    # choice set two enum names (spectacular would warn without an ENUM_NAME_OVERRIDES entry).
    won_on = serializers.CharField(
        allow_null=True,
        help_text="whose card this seat won on: self_draw (its own draw), draw (another "
        "seat's draw) or discard; null when it did not win",
    )

    class Meta(SeatSerializer.Meta):
        fields = SeatSerializer.Meta.fields + [
            name for name in SEAT_FACT_FIELDS
            if name not in {*SeatSerializer.Meta.fields, "is_dealer"}]


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game as lists show it."""

    url = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True, read_only=True)
    on = serializers.ChoiceField(choices=WinSource.choices, allow_null=True)
    round = serializers.IntegerField(source="round_number", allow_null=True)
    result = serializers.CharField(source="result_tag", help_text="the Result tag: S:P, -, R, *")
    plies = serializers.IntegerField(source="event_count")
    uploaded_by = serializers.CharField(source="uploaded_by.username", allow_null=True)
    updated_at = serializers.DateTimeField(
        help_text="when the game last changed (stored, or revalidated): what `updated_since` "
                  "compares")
    switches = serializers.CharField(
        help_text="the house variant the record names (its Switches tag, canonical: "
                  '"steal_generals=never threshold=8"); "" for the ruleset as shipped'
    )

    class Meta:
        model = Game
        fields = [
            "id", "url", "ruleset", "switches", "players", "dealer", "date", "event", "site",
            "match", "round", "seats", "outcome", "finisher", "on", "points", "result", "plies",
            "uploaded_at", "updated_at", "uploaded_by", "stale",
        ]

    def get_url(self, game: Game) -> str:
        return absolute(self.context, "game-detail", game.pk)


class GameLinksSerializer(serializers.Serializer[Any]):
    record = serializers.URLField(help_text="the record as uploaded (FCN)")
    canonical = serializers.URLField(help_text="the record as the engine writes it (FCN)")
    json = serializers.URLField(help_text="the record as JSON")
    plies = serializers.URLField(help_text="the table at ply 0; replace 0 by any ply")
    review = serializers.URLField()


class GameDetailSerializer(GameSerializer):
    """One game: its tags, seats with their facts, verdict, settlement and events."""

    seats = SeatFactsSerializer(many=True, read_only=True)
    settlement = serializers.DictField(
        child=serializers.IntegerField(), help_text='seat number ("1".."4") -> points paid'
    )
    tags = serializers.DictField(child=serializers.CharField())
    deal = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField()
    comments = serializers.SerializerMethodField()
    finish = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = GameSerializer.Meta.fields + [
            "tags", "exposed_points", "hidden_points", "lucky_card", "lucky_bonus",
            "settlement", "deal", "events", "comments", "finish", "content_hash",
            "engine_version", "validated_at", "links",
        ]

    # `record_json` (the record's JSON twin) and `finish` are filled by api.game_object.game_json:
    # one engine pass per game.
    @extend_schema_field(
        {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
    )
    def get_deal(self, game: Game) -> dict[str, list[str]]:
        return self.context["record_json"]["deal"]

    @extend_schema_field(EventDoc(many=True))
    def get_events(self, game: Game) -> list[dict[str, Any]]:
        return self.context["record_json"]["events"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_comments(self, game: Game) -> list[str]:
        return list(self.context["record_json"].get("comments", []))

    @extend_schema_field(FinishDoc(allow_null=True))
    def get_finish(self, game: Game) -> dict[str, Any] | None:
        finish = self.context.get("finish")
        return replay_json.round_end_json(finish) if finish is not None else None

    @extend_schema_field(GameLinksSerializer)
    def get_links(self, game: Game) -> dict[str, str]:
        record = absolute(self.context, "game-record", game.pk)
        return {
            "record": record + "?format=fcn",
            "canonical": record + "?format=canonical",
            "json": record + "?format=json",
            "plies": absolute(self.context, "game-ply", game.pk, 0),
            "review": absolute(self.context, "game-review", game.pk),
        }


class GameExportLineSerializer(GameDetailSerializer):
    """One line of the NDJSON export: the game object of /games/{id}/, and its record as
    uploaded when the export was asked `with_text`."""

    text = serializers.CharField(required=False, help_text="with `with_text=true` only")

    class Meta(GameDetailSerializer.Meta):
        fields = GameDetailSerializer.Meta.fields + ["text"]


# ----------------------------------------------------------------------------- queries

MAX_PLY = 10**9 - 1  # the most a ply in the path can be (api.views.games: 9 digits)


class PlyQuery(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_PLAYERS,
        help_text="show the table as this seat sees it: other hands hidden",
    )


class PlyRangeQuery(PlyQuery):
    # `from` is a Python keyword: declared through the fields dict below.
    to = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_PLY,
        help_text="the last ply (inclusive; default: the game's last)",
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField(
            required=False, min_value=0, max_value=MAX_PLY,
            help_text="the first ply (inclusive; default 0, the deal)",
        )
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "from" in attrs and "to" in attrs and attrs["from"] > attrs["to"]:
            raise serializers.ValidationError(
                {"from": [_("After `to`: give the first ply first.")]})
        return attrs


# A reason travels in the query string, at most QUERY_STRING_MAX_BYTES (4096) bytes: 300
# characters fit even percent-encoded at 12 bytes each, so a reason the schema allows is never
# refused by the query string's limit (414). The audit trail keeps up to MAX_REASON.
API_MAX_REASON = min(300, MAX_REASON)


class DeleteQuery(serializers.Serializer[Any]):
    # NO_NUL: DRF refuses a NUL in any text; the pattern says so in the schema.
    reason = BlankablePatternText(
        NO_NUL, required=False, max_length=API_MAX_REASON, help_text="why, for the audit trail",
    )


class ExportQuery(serializers.Serializer[Any]):
    max = serializers.IntegerField(
        required=False, min_value=1,
        help_text="export at most this many games (after the filters and ordering); "
        "at most API_EXPORT_MAX_GAMES (10,000 by default)",
    )

    def get_fields(self) -> dict[str, Any]:
        # The bound is the setting's, also in the schema (generated with the same settings):
        # a `max` the schema allows is never refused.
        fields = super().get_fields()
        most = fields["max"].max_value = settings.API_EXPORT_MAX_GAMES
        fields["max"].validators.append(
            MaxValueValidator(most, f"At most {most} games per export request."))
        return fields
    with_text = serializers.BooleanField(
        required=False, default=False,
        help_text="NDJSON: add each game's record as uploaded (`text`)",
    )
    cursor = serializers.RegexField(
        CURSOR_PATTERN, required=False, allow_blank=True, max_length=MAX_CURSOR,
        help_text="continue after the game a `Link: <…>; rel=\"next\"` header's cursor names "
        "(empty: from the start)",
    )


class DeletedGameSerializer(serializers.Serializer[Any]):
    """A game deleted from the archive: its id, never to be used again, and when."""

    id = serializers.IntegerField(source="game_id")
    deleted_at = serializers.DateTimeField(source="at")
