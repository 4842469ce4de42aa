"""A player's rating over time: his rating after each rated round, per ruleset, in play order,
read from the `RatingEvent` rows (so a ruleset's last point is his current `PlayerRating`).
`pending`: the ruleset's replay waits for the statistics job (ratings.services), and the
history stops before the newest rounds until then."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from ratings.models import PlayerRating, RatingEvent
from ratings.services import pending_ratings


@dataclass(frozen=True)
class RatingPoint:
    """The player's rating in one ruleset after one rated round."""

    game_id: int
    ruleset: str
    date: datetime.date  # the round's play date (its Date tag, else its upload's UTC day)
    number: int  # the player's rated rounds in this ruleset so far, this one included
    seat: int
    rank: int  # 1 for the seat paid the most (ties share a rank)
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: the number the site shows
    delta: float  # change of the ordinal in this round


@dataclass(frozen=True)
class RulesetHistory:
    """Every rated round of one player in one ruleset, oldest first."""

    ruleset: str
    points: tuple[RatingPoint, ...]
    pending: bool  # a deferred replay may still move the newest points


FIELDS = ("game_id", "ruleset", "order_key", "number", "seat", "rank", "mu", "sigma",
          "ordinal", "delta")


def rating_history(
    player_id: int, ruleset: str | None = None, *, limit: int | None = None
) -> list[RatingPoint]:
    """The player's rating after each rated round, in play order (every ruleset interleaved
    when `ruleset` is None); with `limit`, the newest `limit` points only."""
    events = RatingEvent.objects.filter(player_id=player_id)
    if ruleset:
        events = events.filter(ruleset=ruleset)
    rows = events.order_by("-order_key").values_list(*FIELDS)
    listed = [_point(row) for row in (rows[:limit] if limit else rows)]
    listed.reverse()
    return listed


def rating_histories(
    player_id: int, ruleset: str | None = None, *, limit: int | None = None
) -> list[RulesetHistory]:
    """One history per ruleset the player is rated in (by name), or only `ruleset`'s; with
    `limit`, each history's newest `limit` points only (a chart's, read from the index on
    (player, ruleset, play order): a player of a million-round archive has 100,000 points)."""
    rated = PlayerRating.objects.filter(player_id=player_id)
    if ruleset:
        rated = rated.filter(ruleset=ruleset)
    names = sorted(rated.values_list("ruleset", flat=True))
    pending = pending_ratings()
    return [
        RulesetHistory(name, tuple(rating_history(player_id, name, limit=limit)),
                       pending=name in pending)
        for name in names
    ]


def _point(row: tuple[Any, ...]) -> RatingPoint:
    game_id, ruleset, order_key, number, seat, rank, mu, sigma, ordinal, delta = row
    # The play order key starts with the play day (ratings.services.play_order_key).
    day = datetime.date.fromisoformat(order_key[:10])
    return RatingPoint(game_id, ruleset, day, number, seat, rank, mu, sigma, ordinal, delta)
