"""The statistics after a game is deleted (as if it had never been imported), or rewritten
(docs/stats.md, "Storage and freshness").

`forget_game` (records.signals.game_deleting, inside the deleting transaction) drops the
game's `CountedGame` row, rebuilds its players' totals and, when it was rated, replays its
ruleset's ratings from just before it (pending ones included, from the earlier of the two
keys). `mark_due` (records.signals.game_rewritten) does the same but leaves the ratings pending
from the round: the statistics job's catch-up counts the game again with its new data.
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


def forget_game(game_id: int, **signal: object) -> None:
    """Take a game about to be deleted out of the totals and the ratings (see the module)."""
    _take_out(game_id, replay=True)


def mark_due(game_id: int, former_player_ids: Iterable[int] | None = (), **signal: object
             ) -> None:
    """A rewritten game out of the totals, its ratings pending, until the catch-up counts it
    again (see the module). Cheap: a whole archive rewritten replays each ruleset once."""
    _take_out(game_id, former_player_ids or (), replay=False)


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
