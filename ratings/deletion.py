"""The statistics after a game is deleted: as if it had never been imported.

`forget_game` receives `records.signals.game_deleting` (connected in `ratings.apps`), inside
the deleting transaction and before the game's rows go. Under the derived tables' lock (the one
imports take) it:

1. drops the game's `CountedGame` row, so that no aggregate counts the round any more;
2. rebuilds the totals of the round's players from their counted rounds: their `PlayerTotals`
   at every roll-up level and the `PairTotals` among them (no other row involved the round;
   `matches` and `best_win_points` are not plain sums, so they are aggregated again, never
   subtracted);
3. when the round was rated, rolls its ruleset's ratings back to just before it and rates every
   later round again in play order, exactly as when an older round is imported: the result is
   that of rating the archive without the round from scratch. Ratings an import left for
   `recompute_stats --pending` are replayed too (from the earlier of the two points), so no
   pending pass is left to start from a history that no longer holds the round.

The cost is the player's rounds (totals) plus the rated rounds after the deleted one in its
ruleset (ratings); `manage.py recompute_stats` remains the full rebuild.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ratings import services, totals
from ratings.models import CountedGame
from records.models import GameSeat


def _quiet(phase: str, done: int) -> None:
    return None


def forget_game(game_id: int) -> None:
    """Take a game about to be deleted out of the totals and the ratings (see the module)."""
    with transaction.atomic():
        state = services.lock_derived()
        entry = CountedGame.objects.filter(game_id=game_id).first()
        if entry is None:
            return  # never counted (or already forgotten): nothing derived from it
        player_ids = set(
            GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True)
        )
        entry.delete()
        totals.rebuild_totals_for(player_ids)
        pending = dict(state.pending)
        if entry.rated:
            start = min(entry.order_key, pending.pop(entry.ruleset, entry.order_key))
            services.rate_from(entry.ruleset, start, _quiet)
        state.games = max(state.games - 1, 0)
        state.pending = pending
        state.updated_at = timezone.now()
        state.save(update_fields=["games", "pending", "updated_at"])
