"""Leaderboards: the best players by a statistic or by rating, within the filters
(docs/stats.md). The same SQL (`ratings.counters`) and sources as `ratings.stats`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from ratings.models import PlayerRating, PlayerTotals
from ratings.counters import (
    FilterKeywords,
    chosen_filters,
    ANALYSIS_COUNTERS,
    ANALYSIS_METRICS,
    LEADERBOARD_METRICS,
    MAX_LIMIT,
    METRIC_COLUMNS,
    METRICS,
    SEAT_COUNTERS,
    aggregate_sql,
    analysed_from,
    analysis_row,
    counters_row,
    fetch,
    player_json,
    ratio,
    seats_from,
    totals_group,
    table_name,
    use_totals,
)
from records.filters import GameFilters
from records.models import Player


def higher_is_better(metric: str) -> bool:
    """Whether `metric`'s board lists the highest values first (a rating always does)."""
    if metric in METRICS:
        return METRICS[metric][2]
    if metric in ANALYSIS_METRICS:
        return ANALYSIS_METRICS[metric][2]
    return True


def leaderboard(
    metric: str,
    *,
    min_rounds: int = 10,
    limit: int = 50,
    filters: GameFilters | None = None,
    source: str = "auto",
    **keywords: Unpack[FilterKeywords],
) -> dict[str, Any]:
    """The best players by `metric` (LEADERBOARD_METRICS) among those with at least
    `min_rounds` rounds in the filters. Ties: more rounds first, then the older player."""
    if metric not in LEADERBOARD_METRICS:
        raise ValueError(
            f"unknown metric {metric!r} (one of: {', '.join(LEADERBOARD_METRICS)})"
        )
    if not isinstance(min_rounds, int) or min_rounds < 1:
        raise ValueError(f"min_rounds must be a whole number of at least 1, not {min_rounds!r}")
    if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, not {limit!r}")
    filters = chosen_filters(filters, keywords)
    if metric == "rating":
        rows = _rating_board(filters, min_rounds, limit)
    elif use_totals(filters, source) and metric not in ANALYSIS_METRICS:
        rows = _totals_board(metric, filters, min_rounds, limit)
    else:  # analyses are always aggregated on the spot
        rows = _aggregate_board(metric, filters, min_rounds, limit)
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return {"metric": metric, "min_rounds": min_rounds, "filters": filters.statistics_json(),
            "rows": rows}


def _board_row(player_id: int, name: str, value: Any, rounds: int) -> dict[str, Any]:
    return {"player": player_json(player_id, name), "value": value, "rounds": rounds}


def _rating_board(filters: GameFilters, min_rounds: int, limit: int) -> list[dict[str, Any]]:
    if filters.ruleset is None:
        raise ValueError("the rating leaderboard needs a ruleset (ratings are per ruleset)")
    if filters.players is not None or filters.dated:
        raise ValueError("the rating leaderboard filters by ruleset only")
    rows = (
        PlayerRating.objects.filter(ruleset=filters.ruleset, rounds__gte=min_rounds)
        .order_by("-ordinal", "player_id")
        .values("player_id", "player__name", "ordinal", "rounds")[:limit]
    )
    return [_board_row(r["player_id"], r["player__name"], r["ordinal"], r["rounds"]) for r in rows]


def _totals_board(
    metric: str, filters: GameFilters, min_rounds: int, limit: int
) -> list[dict[str, Any]]:
    column = METRIC_COLUMNS[metric]
    higher = METRICS[metric][2]
    rows = (
        PlayerTotals.objects.filter(
            rounds__gte=min_rounds, **{f"{column}__isnull": False}, **totals_group(filters)
        )
        .order_by(f"-{column}" if higher else column, "-rounds", "player_id")
        .values("player_id", "player__name", column, "rounds")[:limit]
    )
    return [_board_row(r["player_id"], r["player__name"], r[column], r["rounds"]) for r in rows]


def _aggregate_board(
    metric: str, filters: GameFilters, min_rounds: int, limit: int
) -> list[dict[str, Any]]:
    """Players by `metric` aggregated on the spot over their seats (their analysed seats, for
    an analysis metric), among those with `min_rounds` such rounds; best first, then by
    rounds."""
    if metric in ANALYSIS_METRICS:
        numerator, denominator, higher = ANALYSIS_METRICS[metric]
        counters, source, player, read = ANALYSIS_COUNTERS, analysed_from(), "a", analysis_row
    else:
        numerator, denominator, higher = METRICS[metric]
        counters, source, player, read = SEAT_COUNTERS, seats_from(), "s", counters_row
    conditions, params = filters.where()
    value = _quotient(counters, numerator, denominator)
    having = [f"{counters['rounds']} >= %s", f"({value}) IS NOT NULL"]
    inner = aggregate_sql(counters, source, [f"{player}.player_id"], conditions, having)
    columns = {name: f"t.{name}" for name in counters}
    sql = (
        f"SELECT t.*, p.name FROM ({inner}) t JOIN {table_name(Player)} p ON p.id = t.player_id "
        f"ORDER BY {_quotient(columns, numerator, denominator)} {'DESC' if higher else 'ASC'}, "
        "t.rounds DESC, t.player_id LIMIT %s"
    )
    rows = []
    for row in fetch(sql, [*params, min_rounds, limit]):
        found = read(row[1:-1])
        best = found[numerator] if denominator is None else ratio(found[numerator],
                                                                   found[denominator])
        rows.append(_board_row(row[0], row[-1], best, found["rounds"]))
    return rows


def _quotient(sql: Mapping[str, str], numerator: str, denominator: str | None) -> str:
    """The metric in SQL, from the SQL of its counters (None when dividing by zero)."""
    if denominator is None:
        return sql[numerator]
    return f"CAST({sql[numerator]} AS DOUBLE PRECISION) / NULLIF({sql[denominator]}, 0)"
