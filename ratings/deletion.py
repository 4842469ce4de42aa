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

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ratings import services
from ratings.models import (
    ANY_PLAYERS,
    ANY_RULESET,
    MELD_KINDS,
    CountedGame,
    PairTotals,
    PlayerTotals,
)
from records import stats
from records.models import GameSeat

# (group-by columns, ruleset expression, players expression) of each roll-up level, as
# `ratings.totals` groups them for a full rebuild.
_LEVELS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("g.ruleset", "g.players"), "g.ruleset", "g.players"),
    (("g.ruleset",), "g.ruleset", str(ANY_PLAYERS)),
    (("g.players",), f"'{ANY_RULESET}'", "g.players"),
    ((), f"'{ANY_RULESET}'", str(ANY_PLAYERS)),
)


def _quiet(phase: str, done: int) -> None:
    return None


def forget_game(game_id: int) -> None:
    """Take a game about to be deleted out of the totals and the ratings (see the module)."""
    with transaction.atomic():
        state = services._lock()
        entry = CountedGame.objects.filter(game_id=game_id).first()
        if entry is None:
            return  # never counted (or already forgotten): nothing derived from it
        player_ids = set(
            GameSeat.objects.filter(game_id=game_id).values_list("player_id", flat=True)
        )
        entry.delete()
        rebuild_player_totals(player_ids)
        pending = dict(state.pending)
        if entry.rated:
            start = min(entry.order_key, pending.pop(entry.ruleset, entry.order_key))
            services._rate_from(entry.ruleset, start, _quiet)
        state.games = max(state.games - 1, 0)
        state.pending = pending
        state.updated_at = timezone.now()
        state.save(update_fields=["games", "pending", "updated_at"])


def rebuild_player_totals(player_ids: Iterable[int]) -> None:
    """Replace the stored totals of these players, and the pair totals among them, by the
    aggregates over their counted rounds (the same SQL as `ratings.totals.rebuild_totals`,
    restricted to them)."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    PlayerTotals.objects.filter(player_id__in=ids).delete()
    PairTotals.objects.filter(player_id__in=ids, opponent_id__in=ids).delete()
    counted = (
        f"EXISTS (SELECT 1 FROM {_table(CountedGame)} c WHERE c.game_id = g.id)"
    )
    mine, params = _in("s.player_id", ids)
    rows: dict[tuple[int, str, int], dict[str, Any]] = {}
    for group_by, _, _ in _LEVELS:
        columns = ["s.player_id", *group_by]
        for row in stats.fetch(stats.seat_counters_sql(columns, [counted, mine]), params):
            counters = stats.counters_row(row[1 + len(group_by):])
            counters.update({f"melds_{kind}": 0 for kind in MELD_KINDS})
            rows[(row[0], *_group_of(row, group_by))] = counters
        for row in stats.fetch(stats.meld_counts_sql(columns, [counted, mine]), params):
            kind, count = row[-2], row[-1]
            rows[(row[0], *_group_of(row, group_by))][f"melds_{kind}"] = int(count)
    PlayerTotals.objects.bulk_create(
        PlayerTotals(
            player_id=player_id, ruleset=ruleset, players=players,
            **counters, **stats.ratio_columns(counters),
        )
        for (player_id, ruleset, players), counters in rows.items()
    )
    a_in, a_params = _in("a.player_id", ids)
    b_in, b_params = _in("b.player_id", ids)
    fields = ", ".join(stats.PAIR_COUNTERS)
    table = _table(PairTotals)
    for group_by, ruleset_sql, players_sql in _LEVELS:
        query = stats.pair_counters_sql(
            ["a.player_id", "b.player_id", *group_by],
            [counted, a_in, b_in],
            select=["a.player_id", "b.player_id", ruleset_sql, players_sql],
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (player_id, opponent_id, ruleset, players, {fields}) "
                f"{query}",
                a_params + b_params,
            )


def _table(model: Any) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _in(column: str, ids: Sequence[int]) -> tuple[str, list[int]]:
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def _group_of(row: Sequence[Any], group_by: Sequence[str]) -> tuple[str, int]:
    values = dict(zip(group_by, row[1 : 1 + len(group_by)], strict=True))
    return values.get("g.ruleset", ANY_RULESET), int(values.get("g.players", ANY_PLAYERS))
