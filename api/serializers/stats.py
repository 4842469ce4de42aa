"""The shapes of ratings.stats' answers (docs/stats.md defines every figure)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

import fourcolor
from api.serializers.common import PlayerRefSerializer, absolute
from ratings import stats


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


# ----------------------------------------------------------------------------- queries

BOARD_METRICS = [metric for metric in stats.LEADERBOARD_METRICS if metric != "rating"]
class StatsQuery(serializers.Serializer[Any]):
    """The filters every statistic takes (docs/stats.md), as the schema documents them: they
    are parsed by `records.filters.StatisticsFilter` (see `parse`), as on the player pages."""

    ruleset = serializers.ChoiceField(required=False, choices=sorted(fourcolor.RULESETS))
    players = serializers.ChoiceField(required=False, choices=[2, 3, 4])
    since = serializers.DateField(required=False, help_text="played on or after (YYYY-MM-DD)")
    until = serializers.DateField(
        required=False,
        help_text="played on or before (YYYY-MM-DD); before `since`: an empty range",
    )


class LeaderboardQuery(StatsQuery):
    metric = serializers.ChoiceField(choices=BOARD_METRICS, default="win_rate")
    min_rounds = serializers.IntegerField(
        default=10, min_value=1, max_value=2**31 - 1,
        help_text="leave out players with fewer rounds in the filters (analysed rounds for "
                  "decision_accuracy and mean_loss_per_decision)",
    )
    limit = serializers.IntegerField(default=50, min_value=1, max_value=stats.MAX_LIMIT)


class RatingsQuery(serializers.Serializer[Any]):
    ruleset = serializers.ChoiceField(choices=sorted(fourcolor.RULESETS))
    min_rounds = serializers.IntegerField(default=10, min_value=1, max_value=2**31 - 1)
    limit = serializers.IntegerField(default=50, min_value=1, max_value=stats.MAX_LIMIT)
