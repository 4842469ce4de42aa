"""Tables derived from the stored games: play order, per-player totals, skill ratings.

Nothing here is a source of truth: `manage.py recompute_stats` rebuilds every table of this app
from `records.Game` / `records.GameSeat`, and `ratings.services.on_games_stored` keeps them up
to date as games are imported. Definitions: docs/stats.md.

Totals are kept for every combination of ruleset and number of players *and* for their
roll-ups: `ruleset = ""` means "any ruleset", `players = 0` "any number of players", so that a
statistics page without a date range reads exactly one row, however many rounds a player has.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from records.copying import CopyQuerySet
from records.models import Game, Player

ANY_RULESET = ""
ANY_PLAYERS = 0


class DerivedState(models.Model):
    """One row: the lock every writer of this app's tables takes, and when they last ran."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    games = models.PositiveIntegerField(_("games counted"), default=0)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    pending = models.JSONField(
        _("ratings awaiting a pass"), default=dict, blank=True,
        help_text=_("ruleset -> play order key from which its ratings must be replayed"),
    )

    class Meta:
        verbose_name = _("derived state")


class CountedGame(models.Model):
    """A game included in the totals and (when `rated`) in the ratings, with its place in play
    order (see `ratings.services.play_order_key`)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="counted"
    )
    ruleset = models.CharField(_("ruleset"), max_length=32)
    order_key = models.CharField(_("play order key"), max_length=160)
    rated = models.BooleanField(_("rated"), default=False)

    objects = CopyQuerySet.as_manager()

    class Meta:
        verbose_name = _("counted game")
        indexes = [
            models.Index(fields=["ruleset", "rated", "order_key"], name="counted_play_order"),
        ]


# The totals' player keys: deleted with the player (Django's cascade, as every deletion here is
# made through the ORM), but not checked by a foreign-key constraint in the database. The
# totals are derived rows, written only from stored games under the derived tables' lock and
# rebuilt from them by `recompute_stats`; the constraint's check of every inserted row (at the
# import's commit: two per pair row, about six pair rows per round) cost an import with the
# statistics hook 0.3 s per 5,000 rounds, for rows whose players the same transaction had
# just read from the seats.
DERIVED_KEY: dict[str, Any] = {"on_delete": models.CASCADE, "db_constraint": False}


class PlayerTotals(models.Model):
    """A player's counters over every counted round of one (ruleset, players) group."""

    # No index of its own: the unique (player, ruleset, players) index serves lookups by player,
    # and every index here is updated by each import's upserts. No foreign-key constraint in
    # the database either (DERIVED_KEY): see there.
    player = models.ForeignKey(Player, related_name="+", db_index=False, **DERIVED_KEY)
    ruleset = models.CharField(_("ruleset"), max_length=32, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    rounds = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    wins_on_self_draw = models.PositiveIntegerField(default=0)
    wins_on_draw = models.PositiveIntegerField(default=0)
    wins_on_discard = models.PositiveIntegerField(default=0)
    deal_ins = models.PositiveIntegerField(default=0)
    forced = models.PositiveIntegerField(default=0)
    below_threshold = models.PositiveIntegerField(default=0)
    below_threshold_paid = models.BigIntegerField(default=0)
    win_points = models.BigIntegerField(default=0)
    best_win_points = models.IntegerField(null=True, blank=True)
    net = models.BigIntegerField(default=0)
    exhausted = models.PositiveIntegerField(default=0)
    # Exhausted, redealt or unfinished (the player page's "no winner" bar: one row to read).
    no_winner = models.PositiveIntegerField(default=0)
    pongs = models.PositiveIntegerField(default=0)
    gans = models.PositiveIntegerField(default=0)
    chis = models.PositiveIntegerField(default=0)
    own_draw_melds = models.PositiveIntegerField(default=0)
    steals = models.PositiveIntegerField(default=0)
    turns_lost = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    win_turns = models.PositiveIntegerField(default=0)
    dealer_rounds = models.PositiveIntegerField(default=0)
    dealer_wins = models.PositiveIntegerField(default=0)
    redeals_declared = models.PositiveIntegerField(default=0)
    missed_wins = models.PositiveIntegerField(default=0)
    melds_lone = models.PositiveIntegerField(default=0)
    melds_pair = models.PositiveIntegerField(default=0)
    melds_command = models.PositiveIntegerField(default=0)
    melds_field = models.PositiveIntegerField(default=0)
    melds_triple = models.PositiveIntegerField(default=0)
    melds_quad = models.PositiveIntegerField(default=0)
    melds_three_colour = models.PositiveIntegerField(default=0)
    melds_four_colour = models.PositiveIntegerField(default=0)
    # --- ratios of the counters above (None when the denominator is 0) ---------------------
    win_rate = models.FloatField(null=True, blank=True)
    deal_in_rate = models.FloatField(null=True, blank=True)
    net_per_round = models.FloatField(null=True, blank=True)
    avg_win_points = models.FloatField(null=True, blank=True)
    dealer_win_rate = models.FloatField(null=True, blank=True)
    missed_wins_per_round = models.FloatField(null=True, blank=True)

    class Meta:
        verbose_name = _("player totals")
        verbose_name_plural = _("player totals")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "ruleset", "players"], name="playertotals_unique_group"
            ),
        ]
        # One index per leaderboard metric: (group, metric) gives the top rows in order.
        indexes = [
            models.Index(fields=["ruleset", "players", metric], name=f"totals_{short}")
            for metric, short in (
                ("rounds", "rounds"), ("wins", "wins"), ("win_rate", "winrate"),
                ("net", "net"), ("net_per_round", "netround"), ("avg_win_points", "avgpts"),
                ("best_win_points", "bestpts"), ("deal_in_rate", "dealin"),
                ("dealer_win_rate", "dealerwin"), ("missed_wins_per_round", "missed"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.ruleset or '*'}/{self.players or '*'}: {self.rounds}"


class PairTotals(models.Model):
    """Two players' shared rounds in one (ruleset, players) group, from `player`'s side (each
    pair is stored both ways)."""

    # No index of its own: the unique index starts with it (see PlayerTotals.player).
    player = models.ForeignKey(Player, related_name="+", db_index=False, **DERIVED_KEY)
    # Indexed: deleting a player (ORM cascade) finds its rows as an opponent by it.
    opponent = models.ForeignKey(Player, related_name="+", **DERIVED_KEY)
    ruleset = models.CharField(_("ruleset"), max_length=32, blank=True)
    players = models.PositiveSmallIntegerField(_("players"))
    rounds = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    opponent_wins = models.PositiveIntegerField(default=0)
    net = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("pair totals")
        verbose_name_plural = _("pair totals")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "opponent", "ruleset", "players"], name="pairtotals_unique"
            ),
        ]
        indexes = [
            models.Index(
                "player", "ruleset", "players", models.F("rounds").desc(), "opponent",
                name="pairtotals_frequent",
            ),
        ]


class RatingEvent(models.Model):
    """One player's rating change from one rated round (history, and the rollback point when
    an older game arrives after newer ones)."""

    # No indexes of their own: `ratingevent_history` starts with the player and the unique
    # (game, player) index with the game; an import writes a row per rated seat.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_events", db_index=False
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_events", db_index=False
    )
    ruleset = models.CharField(_("ruleset"), max_length=32)
    order_key = models.CharField(_("play order key"), max_length=160)
    number = models.PositiveIntegerField(_("rated round number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu - 3 sigma after the round"))
    delta = models.FloatField(help_text=_("change of the ordinal"))

    objects = CopyQuerySet.as_manager()

    class Meta:
        verbose_name = _("rating event")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingevent_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "ruleset", "order_key"], name="ratingevent_history"),
            models.Index(fields=["ruleset", "order_key"], name="ratingevent_order"),
        ]


class PlayerRating(models.Model):
    """A player's current rating in one ruleset."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(_("ruleset"), max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    rounds = models.PositiveIntegerField(_("rated rounds"))
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("player rating")
        constraints = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="playerrating_unique"),
        ]
        indexes = [
            models.Index(
                "ruleset", models.F("ordinal").desc(), "player", name="playerrating_board"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.ruleset}: {self.ordinal:.2f}"
