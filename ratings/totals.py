"""The stored totals (PlayerTotals, PairTotals): rebuilt in SQL, or updated for new games.

Both paths use the aggregates of `ratings.counters` (one definition of every counter):

- `rebuild_totals` groups every counted game's seats at each roll-up level in SQL
  (`_player_rows`, `_add_pairs`);
- `add_games` groups a batch of new games' seats the same way and adds them to the stored rows
  (an upsert that sums).

The test suite checks that any sequence of `add_games` equals one `rebuild_totals`. The only
counter that is not a plain sum is `matches` (distinct matches): a batch adds a match to a
group only when none of the player's counted rounds of that group already belongs to it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from ratings.models import ANY_PLAYERS, ANY_RULESET, CountedGame, PairTotals, PlayerTotals
from ratings.counters import (
    METRICS,
    METRIC_COLUMNS,
    PAIR_COUNTERS,
    RATIO_COLUMNS,
    SUM_COUNTERS,
    fetch,
    grouped_counters,
    aggregate_sql,
    pairs_from,
    ratio_columns,
    seats_from,
)
from records.models import GameSeat

BATCH_SIZE = 2000
PAIR_FIELDS: tuple[str, ...] = tuple(PAIR_COUNTERS)
Group = tuple[str, int]


def levels(ruleset: str, players: int) -> tuple[Group, ...]:
    """The groups a round of (ruleset, players) counts in: its own and the three roll-ups."""
    return (
        (ruleset, players),
        (ruleset, ANY_PLAYERS),
        (ANY_RULESET, players),
        (ANY_RULESET, ANY_PLAYERS),
    )


# (group-by columns, ruleset expression, players expression) of each roll-up level.
_LEVEL_SQL: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("g.ruleset", "g.players"), "g.ruleset", "g.players"),
    (("g.ruleset",), "g.ruleset", str(ANY_PLAYERS)),
    (("g.players",), f"'{ANY_RULESET}'", "g.players"),
    ((), f"'{ANY_RULESET}'", str(ANY_PLAYERS)),
)


def _counted_condition(alias: str) -> str:
    counted = connection.ops.quote_name(CountedGame._meta.db_table)
    return f"EXISTS (SELECT 1 FROM {counted} c WHERE c.game_id = {alias}.id)"


# ----------------------------------------------------------------------------- rebuild


def rebuild_totals() -> tuple[int, int]:
    """Replace every stored total by an aggregate over the counted games; returns the numbers
    of player and pair rows written."""
    PlayerTotals.objects.all().delete()
    PairTotals.objects.all().delete()
    return _rebuild(None)


def rebuild_totals_for(player_ids: Iterable[int]) -> tuple[int, int]:
    """Replace the stored totals of these players, and the pair totals among them, by the
    aggregates over their counted rounds (what deleting a game needs: no other row involved
    its round; `matches` and `best_win_points` are not plain sums, so they are aggregated
    again, never subtracted). Returns the numbers of player and pair rows written."""
    ids = sorted(set(player_ids))
    if not ids:
        return 0, 0
    PlayerTotals.objects.filter(player_id__in=ids).delete()
    PairTotals.objects.filter(player_id__in=ids, opponent_id__in=ids).delete()
    return _rebuild(ids)


def _rebuild(player_ids: Sequence[int] | None) -> tuple[int, int]:
    """Write the totals of `player_ids` (None: everyone) from the counted games, grouping their
    seats at each roll-up level in SQL; the caller deleted the rows being replaced."""
    counted = _counted_condition("g")
    seat_conditions, seat_params = [counted], []
    pair_conditions, pair_params = [counted], []
    if player_ids is not None:
        mine, seat_params = _batch_condition("s.player_id", player_ids)
        a_in, a_params = _batch_condition("a.player_id", player_ids)
        b_in, b_params = _batch_condition("b.player_id", player_ids)
        seat_conditions.append(mine)
        pair_conditions += [a_in, b_in]
        pair_params = a_params + b_params
    rows = _player_rows(seat_conditions, seat_params)
    PlayerTotals.objects.bulk_create(
        (PlayerTotals(player_id=player_id, ruleset=ruleset, players=players, **counters,
                      **ratio_columns(counters))
         for (player_id, ruleset, players), counters in rows.items()),
        batch_size=BATCH_SIZE,
    )
    return len(rows), _add_pairs(pair_conditions, pair_params)


def _player_rows(conditions: list[str], params: list[Any]
                 ) -> dict[tuple[int, str, int], dict[str, Any]]:
    """The counters of the seats that meet `conditions`, per (player, ruleset, players) at
    each roll-up level, grouped in SQL."""
    rows: dict[tuple[int, str, int], dict[str, Any]] = {}
    for group_by, _, _ in _LEVEL_SQL:
        found = grouped_counters(["s.player_id", *group_by], conditions, params)
        for key, counters in found.items():
            rows[(key[0], *_group_of(key, group_by))] = counters
    return rows


def _group_of(row: Sequence[Any], group_by: Sequence[str]) -> Group:
    values = dict(zip(group_by, row[1 : 1 + len(group_by)], strict=True))
    return (
        values.get("g.ruleset", ANY_RULESET),
        int(values.get("g.players", ANY_PLAYERS)),
    )


# ----------------------------------------------------------------------------- add a batch


def add_games(game_ids: Sequence[int]) -> None:
    """Add a batch of games that are not counted yet (the caller marks them counted after, in
    the same transaction, and holds the derived-tables lock)."""
    if not game_ids:
        return
    in_batch, params = _batch_condition("s.game_id", game_ids)
    players = _player_rows([in_batch], params)
    new_matches = _new_matches(in_batch, params)
    for key, counters in players.items():
        counters["matches"] = new_matches.get(key, 0)
    pairs, pair_params = _batch_condition("a.game_id", game_ids)
    _add_pairs([pairs], pair_params)
    _merge_players(players)


def _new_matches(in_batch: str, params: list[Any]) -> dict[tuple[int, str, int], int]:
    """Per (player, group): matches of the batch in which the player has no counted round of
    that group yet."""
    sql = (
        f"SELECT DISTINCT s.player_id, g.match_id, g.ruleset, g.players FROM {seats_from()} "
        f"WHERE {in_batch} AND g.match_id IS NOT NULL"
    )
    batch = fetch(sql, params)
    matches = sorted({row[1] for row in batch})
    seen: set[tuple[int, int, str, int]] = set()
    for start in range(0, len(matches), 500):
        chunk = matches[start : start + 500]
        known = (
            GameSeat.objects.filter(game__match_id__in=chunk, game__counted__isnull=False)
            .values_list("player_id", "game__match_id", "game__ruleset", "game__players")
            .distinct()
        )
        for player_id, match_id, rs, n in known:
            seen.update((player_id, match_id, *group) for group in levels(rs, n))
    out: dict[tuple[int, str, int], int] = defaultdict(int)
    for player_id, match_id, rs, n in batch:
        for group in levels(rs, int(n)):
            if (player_id, match_id, *group) not in seen:
                seen.add((player_id, match_id, *group))
                out[(player_id, *group)] += 1
    return out


def _merge_players(batch: dict[tuple[int, str, int], dict[str, Any]]) -> None:
    """Add the batch's rows to the stored ones in SQL (see `_upsert`): no stored row is read
    into Python. Ratio columns are recomputed from the summed counters."""
    if not batch:
        return
    table = connection.ops.quote_name(PlayerTotals._meta.db_table)
    sums = [*SUM_COUNTERS, "matches"]
    updates = [f"{name} = {table}.{name} + excluded.{name}" for name in sums]
    best = "best_win_points"
    updates.append(
        f"{best} = CASE WHEN excluded.{best} IS NULL THEN {table}.{best} "
        f"WHEN {table}.{best} IS NULL OR excluded.{best} > {table}.{best} THEN excluded.{best} "
        f"ELSE {table}.{best} END"
    )
    real = "DOUBLE PRECISION" if connection.vendor == "postgresql" else "REAL"
    for metric, column in METRIC_COLUMNS.items():
        numerator, denominator, _ = METRICS[metric]
        if denominator is None:
            continue
        den = f"({table}.{denominator} + excluded.{denominator})"
        num = f"({table}.{numerator} + excluded.{numerator})"
        # As counters.ratio: None when nothing to divide by (IEEE division, as Python's).
        updates.append(
            f"{column} = CASE WHEN {den} = 0 THEN NULL ELSE CAST({num} AS {real}) / {den} END"
        )
    columns = ["player_id", "ruleset", "players", *sums, best, *RATIO_COLUMNS]
    rows = []
    for (player_id, ruleset, players), counters in sorted(batch.items()):
        derived = ratio_columns(counters)
        rows.append((player_id, ruleset, players, *(counters[name] for name in sums),
                     counters[best], *(derived[name] for name in RATIO_COLUMNS)))
    _upsert(table, columns, ["player_id", "ruleset", "players"], updates, rows)


def _upsert(
    table: str,
    columns: list[str],
    unique: list[str],
    updates: list[str],
    rows: list[tuple[Any, ...]],
) -> None:
    """INSERT ... VALUES ... ON CONFLICT DO UPDATE (PostgreSQL and SQLite alike), as many rows
    a statement as the database takes parameters (999 on SQLite by Django's count, 65,535 on
    PostgreSQL): reading the stored rows and writing them back through the ORM cost more than
    the aggregation itself."""
    per_row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    size = max(1, (connection.features.max_query_params or 65535) // len(columns))
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    tail = f" ON CONFLICT ({', '.join(unique)}) DO UPDATE SET {', '.join(updates)}"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            chunk = rows[start : start + size]
            cursor.execute(head + ", ".join([per_row] * len(chunk)) + tail,
                           [value for row in chunk for value in row])


def _add_pairs(conditions: list[str], params: list[Any]) -> int:
    """Add the pair counters of the seat pairs `a`, `b` that meet `conditions` at every
    roll-up level, in SQL: INSERT … SELECT … GROUP BY … ON CONFLICT DO UPDATE (the pair rows
    never pass through Python; a batch of a few thousand rounds among many players makes tens
    of thousands of them, a rebuild millions). A batch's games are not counted yet, so its
    COUNT(DISTINCT game) adds to the stored one. Returns the rows written."""
    table = connection.ops.quote_name(PairTotals._meta.db_table)
    columns = "player_id, opponent_id, ruleset, players, " + ", ".join(PAIR_FIELDS)
    upsert = (
        "ON CONFLICT (player_id, opponent_id, ruleset, players) DO UPDATE SET "
        + ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in PAIR_FIELDS)
    )
    pair = ["a.player_id", "b.player_id"]
    if connection.vendor == "postgresql":
        # Every level from one pass over the seat pairs (a rolled-up column is NULL in its
        # grouping set: "any"; games always have a ruleset and a size).
        sets = ", ".join(f"({', '.join(pair + list(g))})" for g, _, _ in _LEVEL_SQL)
        queries = [aggregate_sql(
            PAIR_COUNTERS, pairs_from(), [f"GROUPING SETS ({sets})"], conditions,
            select=[*pair, f"COALESCE(g.ruleset, '{ANY_RULESET}')",
                    f"COALESCE(g.players, {ANY_PLAYERS})"],
        )]
    else:
        queries = [
            aggregate_sql(PAIR_COUNTERS, pairs_from(), [*pair, *group_by], conditions,
                          select=[*pair, ruleset_sql, players_sql])
            for group_by, ruleset_sql, players_sql in _LEVEL_SQL
        ]
    written = 0
    with connection.cursor() as cursor:
        for query in queries:
            cursor.execute(f"INSERT INTO {table} ({columns}) {query} {upsert}", params)
            written += max(cursor.rowcount, 0)
    return written


def _batch_condition(column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
    """`column` among `ids`: one array parameter on PostgreSQL (a statement with thousands of
    placeholders costs the driver more to prepare than the database to run), a list of
    placeholders elsewhere.

    On PostgreSQL the batch's id range goes beside the array: during an import the tables
    have no statistics yet, and without the range the planner chose to walk a whole index of
    the seats, testing every row against the array (the pair totals of a 2,500-game batch took
    0.9-1.3 s; 0.4-0.6 s with the range, whose rows a batch's mostly consecutive ids fill)."""
    if connection.vendor == "postgresql":
        return (
            f"{column} BETWEEN %s AND %s AND {column} = ANY(%s::bigint[])",
            [min(ids), max(ids), list(ids)],
        )
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)
