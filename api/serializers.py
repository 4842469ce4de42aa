"""The API's representations. Games and players are serializers over the models; the engine's
own plain data (a ply's table, the review, the finish) passes through unchanged and the
serializers named `*Doc` describe it for the OpenAPI schema only."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from records.models import Game, GameSeat, Outcome, Player, WinSource
from records.services import SEAT_FACT_FIELDS

# ----------------------------------------------------------------------------- helpers


def absolute(context: dict[str, Any], name: str, *args: Any) -> str:
    """An absolute URL when the serializer has a request (or, outside one, a `base_url` such
    as `https://fourcolor.example`: `manage.py export_games --base-url`), else a path."""
    path = reverse(f"api:{name}", args=args)
    request = context.get("request")
    if request is not None:
        return str(request.build_absolute_uri(path))
    base = context.get("base_url")
    return f"{str(base).rstrip('/')}{path}" if base else path


class PlayerRefSerializer(serializers.Serializer[Player]):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the name as first seen in the archive")


# ----------------------------------------------------------------------------- engine data
# These describe what the engine returns (fourcolor.replay, fourcolor.notation); the views
# pass the engine's dicts through as they are.

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


class MeldDoc(serializers.Serializer[Any]):
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()


class FinishMeldDoc(MeldDoc):
    exposed = serializers.BooleanField()


class FinishDoc(serializers.Serializer[Any]):
    """The end of a round (fourcolor.replay.finish_json)."""

    outcome = serializers.ChoiceField(choices=Outcome.choices)
    seat = serializers.IntegerField(allow_null=True)
    on = serializers.ChoiceField(choices=WinSource.choices, allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    exposed_points = serializers.IntegerField(allow_null=True)
    hidden_points = serializers.IntegerField(allow_null=True)
    lucky_card = serializers.CharField(allow_null=True)
    lucky_bonus = serializers.IntegerField()
    settlement = serializers.DictField(child=serializers.IntegerField())
    result = serializers.CharField()
    melds = FinishMeldDoc(many=True)
    declared_split = serializers.BooleanField()
    best_hidden_points = serializers.IntegerField(allow_null=True)


class LiveDoc(serializers.Serializer[Any]):
    card = serializers.CharField()
    owner = serializers.IntegerField()
    # A plain string: an enum here would be a third name for WinSource's values.
    source = serializers.CharField(help_text="draw or discard: where the live card came from")


class DiscardDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()


class SeatStateDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    dealer = serializers.BooleanField()
    hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="null when hidden from the seat whose view was asked for",
    )
    hand_count = serializers.IntegerField()
    display = MeldDoc(many=True)
    exposed_points = serializers.IntegerField()
    can_claim = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="what this seat may claim on the live card (null when hidden)",
    )


class ClaimDoc(serializers.Serializer[Any]):
    """A claim that took effect (fourcolor.replay.Replay.claim)."""

    # Plain strings, as `won_on`: spectacular would give choice sets named "kind" and "taken"
    # colliding enum names.
    kind = serializers.CharField(
        help_text="win, pong, gan or chi (a meld on one's own draw is a chi, as players say it)"
    )
    seat = serializers.IntegerField(help_text="the claimant")
    owner = serializers.IntegerField(help_text="the seat that discarded or drew the card")
    taken = serializers.CharField(
        help_text="whose card: self_draw (the claimant's own draw), draw (another seat's draw) "
        "or discard"
    )
    skipped = serializers.ListField(
        child=serializers.IntegerField(), help_text="seats whose turn the claim took"
    )


class PlyLinksDoc(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="the next ply (same view); null at "
                                "the last")
    previous = serializers.URLField(allow_null=True, help_text="the ply before; null at 0")


class PlyStateDoc(serializers.Serializer[Any]):
    """The table at one ply (fourcolor.replay.Replay.state)."""

    game = serializers.IntegerField()
    ply = serializers.IntegerField()
    plies = serializers.IntegerField()
    event = serializers.CharField(allow_null=True, help_text="the event that led here")
    claim = ClaimDoc(
        allow_null=True, help_text="the claim the event made (melds and wins), else null"
    )
    says = serializers.CharField(
        allow_null=True,
        help_text="the event in words, as the replay page says it: \"Jonas pongs Noor’s "
        "discard\" (in the request's language; null at ply 0)",
    )
    comments = serializers.ListField(child=serializers.CharField())
    phase = serializers.CharField()
    expected = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    live = LiveDoc(allow_null=True)
    pile_left = serializers.IntegerField()
    discards = DiscardDoc(many=True)
    seats = SeatStateDoc(many=True)
    view = serializers.IntegerField(allow_null=True, help_text="the seat whose view this is")
    finish = FinishDoc(allow_null=True, required=False, help_text="at the last ply only")
    links = PlyLinksDoc()


class PlyStatesDoc(serializers.Serializer[Any]):
    """A range of ply states (`/games/{id}/plies/`)."""

    game = serializers.IntegerField()
    plies = serializers.IntegerField(help_text="the game's number of plies")
    to = serializers.IntegerField(help_text="the last ply listed")
    states = PlyStateDoc(many=True, help_text="one per ply, from `from` to `to`")

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField(help_text="the first ply listed")
        return fields


class WaitDoc(serializers.Serializer[Any]):
    card = serializers.CharField()
    points = serializers.IntegerField()
    meld = serializers.ListField(child=serializers.CharField())
    unseen = serializers.IntegerField(help_text="copies the seat cannot see")


class MissedWinDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()
    points = serializers.IntegerField()
    message = serializers.CharField()


class PlyReviewDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    event = serializers.CharField(allow_null=True)
    comments = serializers.ListField(child=serializers.CharField())
    waits = serializers.DictField(
        child=WaitDoc(many=True), help_text="seat number -> the cards it waits on, best first"
    )
    missed_wins = MissedWinDoc(many=True)


class PlyMissedWinDoc(MissedWinDoc):
    ply = serializers.IntegerField(help_text="the ply after which the card was live")


class ReviewDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    plies = PlyReviewDoc(many=True)
    missed_wins = PlyMissedWinDoc(many=True, help_text="every missed win of the round")


class RecordJsonDoc(serializers.Serializer[Any]):
    """The record's JSON twin (fourcolor.record_to_json, docs/notation.md)."""

    fcn = serializers.IntegerField()
    tags = serializers.DictField(child=serializers.CharField())
    deal = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    comments = serializers.ListField(child=serializers.CharField(), required=False)
    events = EventDoc(many=True)


# ----------------------------------------------------------------------------- games


class SeatSerializer(serializers.ModelSerializer[GameSeat]):
    """A seat in a list of games: who sat there and how the round ended for them."""

    player = serializers.SerializerMethodField()
    dealer = serializers.BooleanField(source="is_dealer")

    class Meta:
        model = GameSeat
        fields = ["seat", "name", "player", "dealer", "won", "finisher", "points", "delta"]

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, seat: GameSeat) -> dict[str, Any]:
        return {"id": seat.player_id, "name": seat.player.name}


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
            name
            for name in SEAT_FACT_FIELDS
            if name not in ("seat", "name", "is_dealer", "won", "finisher", "points", "delta")
        ]


class UploaderField(serializers.CharField):
    """The uploading user's name (null when unknown or deleted)."""

    def to_representation(self, value: Any) -> str:
        return str(value.get_username())


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game as lists show it."""

    url = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True, read_only=True)
    outcome = serializers.ChoiceField(choices=Outcome.choices)
    on = serializers.ChoiceField(choices=WinSource.choices, allow_null=True)
    round = serializers.IntegerField(source="round_number", allow_null=True)
    result = serializers.CharField(source="result_tag", help_text="the Result tag: S:P, -, R, *")
    plies = serializers.IntegerField(source="event_count")
    uploaded_by = UploaderField(allow_null=True)

    class Meta:
        model = Game
        fields = [
            "id", "url", "ruleset", "players", "dealer", "date", "event", "site", "match",
            "round", "seats", "outcome", "finisher", "on", "points", "result", "plies",
            "uploaded_at", "uploaded_by", "stale",
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

    def _record_json(self, game: Game) -> dict[str, Any]:
        # Filled by the view (one engine pass per request): the record's JSON twin.
        return self.context["record_json"]

    @extend_schema_field(
        {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
    )
    def get_deal(self, game: Game) -> dict[str, list[str]]:
        return self._record_json(game)["deal"]

    @extend_schema_field(EventDoc(many=True))
    def get_events(self, game: Game) -> list[dict[str, Any]]:
        return self._record_json(game)["events"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_comments(self, game: Game) -> list[str]:
        return list(self._record_json(game).get("comments", []))

    @extend_schema_field(FinishDoc(allow_null=True))
    def get_finish(self, game: Game) -> dict[str, Any] | None:
        return self.context.get("finish")

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


# ----------------------------------------------------------------------------- errors


class RecordErrorDoc(serializers.Serializer[Any]):
    """Where and what is wrong with a record (fourcolor.FcnError.as_dict)."""

    line = serializers.IntegerField(help_text="1-based line in the uploaded file")
    col = serializers.IntegerField(help_text="1-based column")
    ply = serializers.IntegerField(help_text="the event at fault; 0 for the tags or the deal")
    category = serializers.CharField(help_text="syntax, tags, deal, turn, claim-right, ...")
    message = serializers.CharField()
    event = serializers.CharField(help_text="the event's text ('' for the tags or the deal)")


class ErrorDetailDoc(serializers.Serializer[Any]):
    status = serializers.IntegerField()
    code = serializers.CharField(help_text="not_found, invalid, not_authenticated, throttled, ...")
    message = serializers.CharField()
    fields = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text="invalid parameters or body fields, each with its messages",
    )
    record = RecordErrorDoc(required=False, help_text="for an engine or notation error")
    retry_after = serializers.IntegerField(
        required=False, help_text="429 and 503: seconds to wait before trying again"
    )


class ErrorDoc(serializers.Serializer[Any]):
    """The body of every error response."""

    error = ErrorDetailDoc()


# ----------------------------------------------------------------------------- uploads


class RefusalDoc(RecordErrorDoc):
    # A record not stored because the database was unavailable has no column, ply nor event.
    col = serializers.IntegerField(allow_null=True, help_text="1-based column (null: unavailable)")
    ply = serializers.IntegerField(
        allow_null=True,
        help_text="the event at fault; 0 for the tags or the deal (null: unavailable)",
    )
    event = serializers.CharField(
        allow_null=True, help_text="the event's text ('' for the tags or the deal)"
    )
    text = serializers.CharField(help_text="the offending line of the file (cut to 300)")
    error = serializers.CharField(help_text='one line: "LINE:COL: error[CATEGORY]: MESSAGE ..."')


class UploadResultDoc(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="0-based position of the record in the file")
    line = serializers.IntegerField(help_text="the record's first line in the file")
    status = serializers.ChoiceField(
        choices=["created", "duplicate", "refused", "unavailable"],
        help_text="unavailable: not stored, the database stayed unavailable (upload again later)",
    )
    id = serializers.IntegerField(
        allow_null=True, help_text="the game created, or the one already stored (duplicate)"
    )
    url = serializers.URLField(allow_null=True)
    error = RefusalDoc(allow_null=True, help_text="why the record was refused or not stored")


class UploadReportDoc(serializers.Serializer[Any]):
    created = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    refused = serializers.IntegerField()
    total = serializers.IntegerField()
    results = UploadResultDoc(many=True, help_text="every record, in file order (see omitted)")
    results_omitted = serializers.IntegerField(
        help_text="records left out of `results` past the first 1,000 (refusals are kept)"
    )


# ----------------------------------------------------------------------------- players


class PlayerSerializer(serializers.ModelSerializer[Player]):
    url = serializers.SerializerMethodField()
    rounds = serializers.IntegerField(read_only=True, help_text="rounds played (seats taken)")

    class Meta:
        model = Player
        fields = ["id", "url", "name", "rounds", "created_at"]

    def get_url(self, player: Player) -> str:
        return absolute(self.context, "player-detail", player.pk)


class PlayerDetailSerializer(PlayerSerializer):
    links = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = PlayerSerializer.Meta.fields + ["links"]

    @extend_schema_field(
        {"type": "object", "properties": {
            "games": {"type": "string", "format": "uri"},
            "stats": {"type": "string", "format": "uri"},
            "ratings": {"type": "string", "format": "uri"},
            "export": {"type": "string", "format": "uri"},
        }, "required": ["games", "stats", "ratings", "export"]}
    )
    def get_links(self, player: Player) -> dict[str, str]:
        return {
            "games": absolute(self.context, "player-games", player.pk),
            "stats": absolute(self.context, "player-stats", player.pk),
            "ratings": absolute(self.context, "player-ratings", player.pk),
            # By name, as Lichess exports by user: the archive's `player` filter.
            "export": absolute(self.context, "game-export") + "?" + urlencode(
                {"player": player.name}),
        }


# ----------------------------------------------------------------------------- tokens


class TokenSerializer(serializers.Serializer[Any]):
    """A token as shown after its creation: never the key itself."""

    username = serializers.CharField()
    last_four = serializers.CharField(help_text="the key's last four characters")
    created = serializers.DateTimeField()


class NewTokenSerializer(TokenSerializer):
    """A token just created: the only answer that shows its key."""

    token = serializers.CharField(
        help_text='the key, shown only this once: send as "Authorization: Token <token>"'
    )


# ----------------------------------------------------------------------------- statistics
# The shapes of ratings.stats' answers (docs/stats.md defines every figure).


class StatsAnswerDoc(serializers.Serializer[Any]):
    """What every statistics answer carries beside its figures."""

    ratings_updating = serializers.BooleanField(
        help_text="stored games are still being counted, or ratings replayed, behind recent "
                  "uploads: the figures catch up within seconds"
    )


class StatsFiltersDoc(serializers.Serializer[Any]):
    ruleset = serializers.CharField(allow_null=True)
    players = serializers.IntegerField(allow_null=True)
    since = serializers.DateField(allow_null=True)
    until = serializers.DateField(allow_null=True)


class PerRoundDoc(serializers.Serializer[Any]):
    total = serializers.IntegerField()
    per_round = serializers.FloatField(allow_null=True)


class ClaimsDoc(serializers.Serializer[Any]):
    pong = PerRoundDoc()
    gan = PerRoundDoc()
    chi = PerRoundDoc()
    own_draw = PerRoundDoc()
    steal = PerRoundDoc()


class MeldShareDoc(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    per_win = serializers.FloatField(allow_null=True)


class OpponentDoc(serializers.Serializer[Any]):
    player = PlayerRefSerializer()
    rounds = serializers.IntegerField()
    wins = serializers.IntegerField()
    opponent_wins = serializers.IntegerField()
    net = serializers.IntegerField(help_text="points the opponent paid this player, net")


class RatingDoc(serializers.Serializer[Any]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    rounds = serializers.IntegerField()


class RatingPointDoc(serializers.Serializer[Any]):
    """The player's rating after one rated round (ratings.history.RatingPoint)."""

    game = serializers.IntegerField(source="game_id", help_text="the rated round's game id")
    url = serializers.SerializerMethodField()
    date = serializers.DateField(help_text="the round's play date (its upload's day if undated)")
    number = serializers.IntegerField(help_text="the player's rated rounds so far, this included")
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 for the seat paid the most; ties share a rank")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma after the round: the rating shown")
    delta = serializers.FloatField(help_text="the change of the ordinal in this round")

    def get_url(self, point: Any) -> str:
        return absolute(self.context, "game-detail", point.game_id)


class RulesetHistoryDoc(serializers.Serializer[Any]):
    ruleset = serializers.CharField()
    pending = serializers.BooleanField(
        help_text="true while a deferred replay of the ruleset's ratings is due: the newest "
        "rounds are not in the history (nor in the current rating) yet"
    )
    history = RatingPointDoc(many=True, source="points", help_text="oldest first")


class PlayerRatingsDoc(serializers.Serializer[Any]):
    """A player's rating history (ratings.history.rating_histories)."""

    player = PlayerRefSerializer()
    rulesets = RulesetHistoryDoc(many=True, help_text="one per ruleset the player is rated in")


class AnalysisStatsDoc(serializers.Serializer[Any]):
    """The player's decisions as the reviewer rated them, over analysed rounds (docs/stats.md,
    "Decision accuracy")."""

    rounds = serializers.IntegerField(help_text="analysed rounds")
    decisions = serializers.IntegerField(help_text="decisions rated in them")
    decision_accuracy = serializers.FloatField(allow_null=True,
                                               help_text="share of decisions rated good")
    mean_loss_per_decision = serializers.FloatField(
        allow_null=True, help_text="points lost on average per decision (best ev - played ev)")
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()


class PlayerStatsDoc(StatsAnswerDoc):
    """A player's statistics (ratings.stats.player_stats; docs/stats.md)."""

    player = PlayerRefSerializer()
    filters = StatsFiltersDoc()
    rounds = serializers.IntegerField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    wins_on_self_draw = serializers.IntegerField(help_text="wins on the player's own draw")
    wins_on_draw = serializers.IntegerField(help_text="wins on another seat's draw")
    wins_on_discard = serializers.IntegerField()
    self_draw_win_share = serializers.FloatField(
        allow_null=True, help_text="wins_on_self_draw / wins"
    )
    draw_win_share = serializers.FloatField(
        allow_null=True, help_text="(wins_on_self_draw + wins_on_draw) / wins: wins on any draw"
    )
    deal_ins = serializers.IntegerField()
    deal_in_rate = serializers.FloatField(allow_null=True)
    forced_finishes = serializers.IntegerField()
    below_threshold = serializers.IntegerField()
    below_threshold_paid = serializers.IntegerField()
    avg_win_points = serializers.FloatField(allow_null=True)
    best_win_points = serializers.IntegerField(allow_null=True)
    net_total = serializers.IntegerField()
    net_per_round = serializers.FloatField(allow_null=True)
    exhausted_rounds = serializers.IntegerField()
    exhausted_share = serializers.FloatField(allow_null=True)
    claims = ClaimsDoc()
    turns_lost = serializers.IntegerField()
    turns_lost_per_round = serializers.FloatField(allow_null=True)
    draws = serializers.IntegerField()
    avg_win_turn = serializers.FloatField(allow_null=True)
    dealer_rounds = serializers.IntegerField()
    dealer_wins = serializers.IntegerField()
    dealer_win_rate = serializers.FloatField(allow_null=True)
    redeals_declared = serializers.IntegerField()
    missed_wins = serializers.IntegerField()
    missed_wins_per_round = serializers.FloatField(allow_null=True)
    meld_mix = serializers.DictField(child=MeldShareDoc(), help_text="meld kind -> count")
    frequent_opponents = OpponentDoc(many=True)
    ratings = serializers.DictField(child=RatingDoc(), help_text="ruleset -> current rating")
    analysis = AnalysisStatsDoc()


class HeadToHeadSideDoc(PlayerRefSerializer):
    wins = serializers.IntegerField()
    net = serializers.IntegerField(help_text="points this player received from the other, net")


class HeadToHeadDoc(StatsAnswerDoc):
    filters = StatsFiltersDoc()
    rounds = serializers.IntegerField(help_text="rounds both played")
    a = HeadToHeadSideDoc()
    b = HeadToHeadSideDoc()
    other_rounds = serializers.IntegerField(help_text="shared rounds neither of them won")


class LeaderboardRowDoc(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = PlayerRefSerializer()
    value = serializers.FloatField(allow_null=True)
    rounds = serializers.IntegerField()


class LeaderboardDoc(StatsAnswerDoc):
    metric = serializers.CharField()
    min_rounds = serializers.IntegerField()
    filters = StatsFiltersDoc()
    rows = LeaderboardRowDoc(many=True)


class ShareDoc(serializers.Serializer[Any]):
    rounds = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    net_per_round = serializers.FloatField(allow_null=True)


class SeatShareDoc(ShareDoc):
    seat = serializers.IntegerField()


class MeldPerHandDoc(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    per_hand = serializers.FloatField(allow_null=True)


class GlobalGroupDoc(serializers.Serializer[Any]):
    ruleset = serializers.CharField()
    players = serializers.IntegerField()
    rounds = serializers.IntegerField()
    outcomes = serializers.DictField(
        child=serializers.IntegerField(), help_text="outcome -> rounds"
    )
    seats = SeatShareDoc(many=True)
    dealer = ShareDoc(allow_null=True)
    others = ShareDoc(allow_null=True, help_text="every seat but the dealer's")
    winning_hands = serializers.IntegerField()
    melds = serializers.DictField(child=MeldPerHandDoc(), help_text="meld kind -> count")


class GlobalStatsDoc(StatsAnswerDoc):
    filters = StatsFiltersDoc()
    rounds = serializers.IntegerField()
    groups = GlobalGroupDoc(many=True, help_text="one per ruleset and number of players")
