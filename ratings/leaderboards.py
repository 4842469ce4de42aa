"""Leaderboards: the best players by a statistic or by rating, within the filters
(docs/stats.md). The same SQL (`ratings.counters`) and sources as `ratings.stats`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
    metric_value,
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
    elif metric in ANALYSIS_METRICS:
        use_totals(filters, source)  # checks `source`; analyses are always aggregated here
        rows = _analysis_board(metric, filters, min_rounds, limit)
    elif use_totals(filters, source):
        rows = _totals_board(metric, filters, min_rounds, limit)
    else:
        rows = _seat_board(metric, filters, min_rounds, limit)
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return {"metric": metric, "min_rounds": min_rounds, "filters": filters.statistics_json(),
            "rows": rows}


def _board_row(player_id: int, name: str, value: Any, rounds: int) -> dict[str, Any]:
    return {"player": player_json(player_id, name), "value": value, "rounds": rounds}


def _board_rows(
    rows: list[tuple[Any, ...]],
    counters_of: Callable[[Iterable[Any]], dict[str, Any]],
    value_of: Callable[[dict[str, Any]], Any],
) -> list[dict[str, Any]]:
    """Board rows from SQL rows of (player id, counters..., name)."""
    out = []
    for row in rows:
        counters = counters_of(row[1:-1])
        out.append(_board_row(row[0], row[-1], value_of(counters), counters["rounds"]))
    return out


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


def _seat_board(
    metric: str, filters: GameFilters, min_rounds: int, limit: int
) -> list[dict[str, Any]]:
    numerator, denominator, higher = METRICS[metric]
    value_sql = SEAT_COUNTERS[numerator]
    if denominator is not None:
        value_sql = (
            f"CAST({value_sql} AS DOUBLE PRECISION) / NULLIF({SEAT_COUNTERS[denominator]}, 0)"
        )
    conditions, params = filters.where()
    having = [f"{SEAT_COUNTERS['rounds']} >= %s", f"({value_sql}) IS NOT NULL"]
    inner = aggregate_sql(SEAT_COUNTERS, seats_from(), ["s.player_id"], conditions, having)
    sql = _board_sql(inner, numerator, denominator, higher)
    return _board_rows(fetch(sql, [*params, min_rounds, limit]), counters_row,
                       lambda counters: metric_value(metric, counters))


def _analysis_board(
    metric: str, filters: GameFilters, min_rounds: int, limit: int
) -> list[dict[str, Any]]:
    """Players by an analysis metric, among those with `min_rounds` analysed rounds."""
    numerator, denominator, higher = ANALYSIS_METRICS[metric]
    conditions, params = filters.where()
    having = [f"{ANALYSIS_COUNTERS['rounds']} >= %s", f"{ANALYSIS_COUNTERS[denominator]} > 0"]
    inner = aggregate_sql(ANALYSIS_COUNTERS, analysed_from(), ["a.player_id"], conditions,
                          having)
    sql = _board_sql(inner, numerator, denominator, higher)
    return _board_rows(fetch(sql, [*params, min_rounds, limit]), analysis_row,
                       lambda counters: ratio(counters[numerator], counters[denominator]))


def _board_sql(inner: str, numerator: str, denominator: str | None, higher: bool) -> str:
    """Players' counter rows (`inner`, one per player) with names, best first, then by rounds."""
    return (
        f"SELECT t.*, p.name FROM ({inner}) t JOIN {table_name(Player)} p ON p.id = t.player_id "
        f"ORDER BY {_value_over('t', numerator, denominator)} {'DESC' if higher else 'ASC'}, "
        "t.rounds DESC, t.player_id LIMIT %s"
    )


def _value_over(alias: str, numerator: str, denominator: str | None) -> str:
    """The metric over the counter columns of a subquery (the same division as in HAVING)."""
    if denominator is None:
        return f"{alias}.{numerator}"
    return f"CAST({alias}.{numerator} AS DOUBLE PRECISION) / NULLIF({alias}.{denominator}, 0)"
