"""The archive's tables: players, matches, games (one round each) and per-seat rows.

A game keeps the record exactly as uploaded (`original_text`, never altered) and everything the
engine derived from it when it validated it; `records.services.derive_game_fields` is the one
place that maps the engine's verdict onto these columns, for import and revalidation alike.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The identity of a player name (NFC, casefolded, blanks collapsed) is the engine's: it also
# refuses a record that seats one player twice.
from fourcolor.notation import player_key as player_key

from records.copying import CopyQuerySet

# A player's name is shown everywhere and its key is indexed (PostgreSQL's btree entries are
# limited to ~2.7 kB): longer seat names are refused at import with a clear message.
MAX_PLAYER_NAME = 100
# casefold() may expand a character up to three (ß -> ss, ŉ -> ʼn, ...).
MAX_PLAYER_KEY = 3 * MAX_PLAYER_NAME
# The largest key (or other bigint) a database column holds: a larger number is a 400 or a
# form error where it comes in, never a database overflow.
MAX_ID = 2**63 - 1


def match_key(tag: str) -> str:
    """The identity of a match: the sha256 of its `Match` tag value, exactly as written.

    Hashing keeps the unique index small whatever the tag's length (up to 1024 characters)."""
    return hashlib.sha256(tag.encode("utf-8")).hexdigest()


class Outcome(models.TextChoices):
    WIN = "win", _("win")
    FORCED = "forced", _("forced finish")
    EXHAUSTED = "exhausted", _("exhausted")
    REDEAL = "redeal", _("redeal")
    UNFINISHED = "unfinished", _("unfinished")


class WinSource(models.TextChoices):
    """Whose card ended the round (`fourcolor.claims.TAKEN_FROM`): the finisher's own draw,
    another seat's draw, or a discard."""

    SELF_DRAW = "self_draw", _("own draw")
    DRAW = "draw", _("another player’s draw")
    DISCARD = "discard", _("discard")


class Player(models.Model):
    """A person at the table, identified case-insensitively by name across all records."""

    name = models.CharField(_("name"), max_length=MAX_PLAYER_NAME, help_text=_("as first seen"))
    name_key = models.CharField(_("identity key"), max_length=MAX_PLAYER_KEY, unique=True)
    created_at = models.DateTimeField(_("first seen"), default=timezone.now)

    class Meta:
        ordering = ["name_key"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    """Rounds grouped by their `Match` tag (one match per distinct tag value, archive-wide)."""

    tag = models.TextField(_("match tag"))
    key = models.CharField(_("tag hash"), max_length=64, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["key"], name="match_unique_key")]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return self.tag

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key = match_key(self.tag)
        super().save(*args, **kwargs)


class Game(models.Model):
    """One validated round, stored verbatim with everything the engine derived from it."""

    # --- derived by the engine (see records.services.derive_game_fields) -------------------
    ruleset = models.CharField(_("ruleset"), max_length=32)
    switches = models.CharField(
        _("switches"), max_length=200, blank=True, default="",
        help_text=_("the house variant the record names (its Switches tag, canonical); empty "
                    "for the ruleset as shipped"),
    )
    players = models.PositiveSmallIntegerField(_("players"))
    dealer = models.PositiveSmallIntegerField(_("dealer seat"))
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices)
    finisher = models.PositiveSmallIntegerField(
        _("finisher seat"), null=True, blank=True,
        help_text=_("the winner, the forced finisher, or the seat that declared the redeal"),
    )
    on = models.CharField(
        _("won on"), max_length=16, choices=WinSource.choices, null=True, blank=True
    )
    points = models.IntegerField(_("points"), null=True, blank=True)
    exposed_points = models.IntegerField(_("exposed points"), null=True, blank=True)
    hidden_points = models.IntegerField(_("hidden points"), null=True, blank=True)
    lucky_card = models.CharField(_("lucky card"), max_length=2, null=True, blank=True)
    lucky_bonus = models.IntegerField(_("lucky bonus"), default=0)
    settlement = models.JSONField(_("settlement"), help_text=_('seat ("1".."4") -> delta'))
    event_count = models.PositiveIntegerField(_("events"))
    result_tag = models.CharField(_("result"), max_length=16)
    tags = models.JSONField(_("tags"), help_text=_("every tag of the record"))
    event = models.TextField(_("event"), blank=True, default="")
    site = models.TextField(_("site"), blank=True, default="")
    date = models.DateField(_("date"), null=True, blank=True)
    round_number = models.PositiveIntegerField(_("round in match"), null=True, blank=True)
    canonical_text = models.TextField(_("canonical text"))
    content_hash = models.CharField(
        _("content hash"), max_length=64,
        help_text=_("sha256 of the round's identity: what was played"),
    )
    engine_version = models.CharField(_("engine version"), max_length=32)

    # --- stored as uploaded ------------------------------------------------------------------
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="games",
        verbose_name=_("match"), db_index=False,  # game_match_round leads with it
    )
    original_text = models.TextField(_("original text"), help_text=_("verbatim, never altered"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="uploaded_games", verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded"), default=timezone.now)
    validated_at = models.DateTimeField(_("validated"), default=timezone.now)
    # Set whenever the row changes (storing, revalidating, its uploader's account deleted): the
    # API's `updated_since`.
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    stale = models.BooleanField(
        _("stale"), default=False,
        help_text=_("revalidation found a different verdict or derived data"),
    )
    stale_reason = models.TextField(_("stale reason"), blank=True, default="")

    objects = CopyQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        # Declared here rather than with db_index/unique on the fields: on PostgreSQL those also
        # build a second, `LIKE` index per text column, which no query here needs and every
        # insert pays for.
        constraints = [
            # Duplicate detection rests on this index, never on a check before the insert.
            models.UniqueConstraint(fields=["content_hash"], name="game_unique_content_hash"),
        ]
        indexes = [
            # The archive's filters (web, API, export_games).
            models.Index(fields=["ruleset"], name="game_ruleset"),
            models.Index(fields=["players"], name="game_players"),
            models.Index(fields=["outcome"], name="game_outcome"),
            models.Index(fields=["date"], name="game_date"),
            models.Index(fields=["uploaded_at"], name="game_uploaded_at"),
            models.Index(fields=["updated_at"], name="game_updated_at"),
            models.Index(fields=["match", "round_number"], name="game_match_round"),
            # The default order's index and the points order's are created per database by
            # migrations 0002 and 0006 (only PostgreSQL writes NULLS LAST in an index).
            # Few games are stale: a partial index lists them without weighing on the others.
            models.Index(fields=["id"], condition=models.Q(stale=True), name="game_stale"),
        ]

    def __str__(self) -> str:
        names = " · ".join(self.tags.get(f"Seat{n}", "?") for n in range(1, self.players + 1))
        return f"#{self.pk} {self.ruleset} {names} [{self.result_tag}]"


class GameSeat(models.Model):
    """One seat of one game: the player and the engine's per-seat facts (fourcolor.facts).

    Every field of `fourcolor.facts.SeatFacts` is a column here, so statistics aggregate in SQL.
    """

    # Both foreign keys are the leading column of a composite index below: no separate index.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", db_index=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player"),
        db_index=False,
    )
    # --- fourcolor.facts.SeatFacts ----------------------------------------------------------
    name = models.CharField(_("name as written"), max_length=MAX_PLAYER_NAME)
    is_dealer = models.BooleanField(_("dealer"), default=False)
    finisher = models.BooleanField(_("finisher"), default=False)
    won = models.BooleanField(_("won"), default=False)
    forced = models.BooleanField(_("forced finish"), default=False)
    won_on = models.CharField(
        _("won on"), max_length=16, choices=WinSource.choices, null=True, blank=True
    )
    dealt_in = models.BooleanField(_("dealt in"), default=False)
    points = models.IntegerField(_("points"), null=True, blank=True)
    delta = models.IntegerField(_("settlement"), default=0)
    below_threshold = models.BooleanField(_("below threshold"), default=False)
    pongs = models.PositiveSmallIntegerField(_("pongs"), default=0)
    gans = models.PositiveSmallIntegerField(_("gans"), default=0)
    chis = models.PositiveSmallIntegerField(_("chis"), default=0)
    own_draw_melds = models.PositiveSmallIntegerField(_("own-draw melds"), default=0)
    steals = models.PositiveSmallIntegerField(_("steals"), default=0)
    turns_lost = models.PositiveSmallIntegerField(_("turns lost"), default=0)
    draws = models.PositiveSmallIntegerField(_("draws"), default=0)
    win_turn = models.PositiveSmallIntegerField(_("winning turn"), null=True, blank=True)
    redeal_declared = models.BooleanField(_("redeal declared"), default=False)
    missed_wins = models.PositiveSmallIntegerField(_("missed wins"), default=0)
    win_melds = models.JSONField(_("winning melds"), default=list, blank=True)
    # A copy of the game's date: a player's newest rounds are read from the seats' own index
    # (migration 0008: player, date DESC NULLS LAST, game DESC) without joining every seat of
    # their history to its game. Written and compared like the other derived columns.
    date = models.DateField(_("date"), null=True, blank=True)

    objects = CopyQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameseat_unique_seat"),
        ]
        # A player's rounds and per-player aggregates joined to games (newest played first:
        # migration 0008's index).
        indexes = [models.Index(fields=["player", "game"], name="gameseat_player_game")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.name}"


class AuditAction(models.TextChoices):
    DELETED = "deleted", _("game deleted")
    RESTORED = "restored", _("game restored")
    # Stored twice before a round had one identity: kept here, its game the first one's.
    MERGED = "merged", _("merged into the same round")


class AuditEntry(models.Model):
    """Who deleted (or restored) which game, when and why, with the game's original text.

    Kept apart from the game (no foreign key to it) so that it outlives the game: re-importing
    `original_text` gives back the same game (same canonical content and hash), so nothing a
    user uploaded is ever lost. Written only by `records.deletion`; read-only in the admin.
    """

    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    at = models.DateTimeField(_("when"), default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("by"),
    )
    # The user's name as it was: the entry still says who once the account is gone.
    by_name = models.CharField(_("by (name)"), max_length=150, blank=True, default="")
    reason = models.TextField(_("reason"), blank=True, default="")
    game_id = models.PositiveIntegerField(_("game id"))
    content_hash = models.CharField(_("content hash"), max_length=64)
    ruleset = models.CharField(_("ruleset"), max_length=32, blank=True, default="")
    seats = models.JSONField(_("players"), default=list, help_text=_("seat names, in order"))
    match_tag = models.TextField(_("match tag"), blank=True, default="")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("uploaded by"),
    )
    uploader_name = models.CharField(_("uploaded by (name)"), max_length=150, blank=True,
                                     default="")
    uploaded_at = models.DateTimeField(_("uploaded"), null=True, blank=True)
    original_text = models.TextField(_("original text"), help_text=_("verbatim, as uploaded"))

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [
            models.Index(fields=["game_id"], name="auditentry_game"),
            models.Index(fields=["content_hash"], name="auditentry_content_hash"),
        ]

    def __str__(self) -> str:
        names = " · ".join(str(name) for name in self.seats)
        return f"{self.get_action_display()} #{self.game_id} {names} ({self.by_name or '?'})"


class GameAnalysis(models.Model):
    """The reviewer's verdict on every decision of a game (`fourcolor.analysis`), stored with
    the engine version and the parameters that made it, so that it can be told apart from (and
    replaced by) an analysis made another way.

    `result` is `fourcolor.analysis.Analysis.to_dict()` exactly as the engine wrote it; the
    per-seat rows (`SeatAnalysis`) repeat its summaries as columns for the statistics.
    Written only by `records.analysis.store_analysis`, which replaces the whole analysis at
    once (one transaction)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("game")
    )
    engine_version = models.CharField(_("engine version"), max_length=32)
    samples = models.PositiveIntegerField(_("samples per option"))
    seed = models.BigIntegerField(_("random seed"))
    result = models.JSONField(_("result"), help_text=_("the engine's analysis, as JSON"))
    decisions = models.PositiveIntegerField(_("decisions rated"), default=0)
    analysed_at = models.DateTimeField(_("analysed"), default=timezone.now)
    seconds = models.FloatField(_("time taken (s)"), default=0.0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("requested by"),
    )
    # Set by `revalidate` when the engine that made the analysis is not the current one: the
    # analysis is still shown, with a notice, until someone asks for a new one.
    stale = models.BooleanField(_("stale"), default=False)

    class Meta:
        ordering = ["-analysed_at", "-id"]
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.samples} samples, seed {self.seed})"


class SeatAnalysis(models.Model):
    """One seat's summary in a game's analysis: the counts the statistics add up."""

    analysis = models.ForeignKey(
        GameAnalysis, on_delete=models.CASCADE, related_name="seats", db_index=False
    )
    # The game and player again (not only through the analysis and GameSeat): the player
    # statistics aggregate these rows joined to their games, as they do GameSeat.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="analysed_seats", db_index=False,
        verbose_name=_("player"),
    )
    decisions = models.PositiveIntegerField(_("decisions"), default=0)
    good = models.PositiveIntegerField(_("good decisions"), default=0)
    inaccuracies = models.PositiveIntegerField(_("inaccuracies"), default=0)
    mistakes = models.PositiveIntegerField(_("mistakes"), default=0)
    blunders = models.PositiveIntegerField(_("blunders"), default=0)
    loss = models.FloatField(_("total loss (points)"), default=0.0)

    class Meta:
        ordering = ["analysis", "seat"]
        verbose_name = _("analysed seat")
        verbose_name_plural = _("analysed seats")
        constraints = [
            models.UniqueConstraint(fields=["analysis", "seat"],
                                    name="seatanalysis_unique_seat"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="seatanalysis_player_game")]

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} seat {self.seat}"

    @property
    def accuracy(self) -> float | None:
        return self.good / self.decisions if self.decisions else None

    @property
    def mean_loss(self) -> float | None:
        return self.loss / self.decisions if self.decisions else None


# The search index's table belongs to this app; it is defined beside the folding it indexes.
from records.search import NameWord as NameWord  # noqa: E402
# API tokens: defined beside the functions that make and revoke them.
from records.tokens import ApiToken as ApiToken  # noqa: E402
