"""The statistics after a game is deleted (as if it had never been imported), or rewritten.

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

`mark_due` receives `records.signals.game_rewritten` (`revalidate --update` rewrote a game's
derived data and seats): steps 1 and 2 (for the players seated before and after), and its
ruleset's ratings marked pending from the round. The game is then due like a game just stored,
and the statistics job's catch-up counts it again, with its new data, and replays the ratings.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from ratings import services, totals
from ratings.models import CountedGame
from records.models import GameSeat


def _uncount(game_id: int, also: Iterable[int] = ()) -> CountedGame | None:
    """Drop the game's counted row and rebuild its players' totals (and those of `also`):
    the row dropped, or None when the game was not counted."""
    entry = CountedGame.objects.filter(game_id=game_id).first()
    if entry is None:
        return None  # never counted (or already forgotten): nothing derived from it
    player_ids = set(GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True))
    entry.delete()
    totals.rebuild_totals_for(player_ids | set(also))
    return entry


def forget_game(game_id: int) -> None:
    """Take a game about to be deleted out of the totals and the ratings (see the module)."""
    _take_out(game_id, replay=True)


def mark_due(game_id: int, former_player_ids: Iterable[int] = ()) -> None:
    """A rewritten game out of the totals, its ratings pending, until the catch-up counts it
    again (see the module). Cheap: a whole archive rewritten replays each ruleset once."""
    _take_out(game_id, former_player_ids, replay=False)


def _take_out(game_id: int, also: Iterable[int] = (), *, replay: bool) -> None:
    """Uncount the game (`_uncount`) and, when it was rated, replay its ruleset's ratings from
    it now (`replay`) or mark them pending from it."""
    with transaction.atomic():
        state = services.lock_derived()
        entry = _uncount(game_id, also)
        if entry is None:
            return
        pending = dict(state.pending)
        if entry.rated and replay:
            start = min(entry.order_key, pending.pop(entry.ruleset, entry.order_key))
            services.rate_from(entry.ruleset, start)
        elif entry.rated:
            pending[entry.ruleset] = min(entry.order_key,
                                         pending.get(entry.ruleset, entry.order_key))
        services.save_state(state, games=max(state.games - 1, 0), pending=pending)
