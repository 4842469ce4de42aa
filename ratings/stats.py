"""Player statistics and head-to-head (docs/stats.md), from the counters of `ratings.counters`:
read from the stored totals (`PlayerTotals`, `PairTotals`), or aggregated from the seats on
the spot for a date range, which no total answers (`source="seats"` forces it; the tests check
that both agree)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from ratings.counters import (
    COUNTER_NAMES,
    LEADERBOARD_METRICS,
    MAX_LIMIT,
    PAIR_COUNTERS,
    FilterKeywords,
    ANALYSIS_COUNTERS,
    aggregate_sql,
    analysed_from,
    analysis_row,
    analysis_summary,
    as_int,
    chosen_filters,
    derive,
    fetch,
    grouped_counters,
    pairs_from,
    player_json,
    table_name,
    totals_group,
    use_totals,
)
from ratings.models import PairTotals, PlayerRating, PlayerTotals
from records.filters import GameFilters
from records.models import Player


def _player(player: Player | int) -> Player:
    """The player (an instance or a primary key); Player.DoesNotExist when there is none."""
    if isinstance(player, Player):
        return player
    return Player.objects.get(pk=int(player))


def _where(filters: GameFilters, **players: int) -> tuple[list[str], list[Any]]:
    """The filters' conditions, after one on each seat alias's player (`a=5`: a.player_id)."""
    conditions, params = filters.where()
    return ([f"{alias}.player_id = %s" for alias in players] + conditions,
            [*players.values(), *params])


def _seat_counters(filters: GameFilters, player_id: int) -> dict[str, Any]:
    return grouped_counters([], *_where(filters, s=player_id))[()]


def _totals_counters(filters: GameFilters, player_id: int) -> dict[str, Any]:
    row = (
        PlayerTotals.objects.filter(player_id=player_id, **totals_group(filters))
        .values(*COUNTER_NAMES)
        .first()
    )
    if row is None:
        row = dict.fromkeys(COUNTER_NAMES, 0)
        row["best_win_points"] = None
    return row


def analysis_stats(filters: GameFilters, player_id: int) -> dict[str, Any]:
    """The player's decisions as the reviewer rated them, over analysed rounds matching the
    filters (docs/stats.md, "Decision accuracy")."""
    conditions, params = _where(filters, a=player_id)
    (row,) = fetch(aggregate_sql(ANALYSIS_COUNTERS, analysed_from(), (), conditions), params)
    return analysis_summary(analysis_row(row))


def match_analysis_stats(match_id: int) -> dict[int, dict[str, Any]]:
    """Per player id: his decisions in the match's analysed rounds, as `analysis_stats` gives
    them (players with no analysed round left out)."""
    sql = aggregate_sql(ANALYSIS_COUNTERS, analysed_from(), ["a.player_id"], ["g.match_id = %s"])
    return {int(row[0]): analysis_summary(analysis_row(row[1:]))
            for row in fetch(sql, [match_id])}


def player_stats(
    player: Player | int,
    *,
    filters: GameFilters | None = None,
    opponents: int = 10,
    source: str = "auto",
    **keywords: Unpack[FilterKeywords],
) -> dict[str, Any]:
    """Every statistic of one player (docs/stats.md), its most frequent opponents and its
    current ratings. Raises ValueError for a bad filter, Player.DoesNotExist for no player."""
    filters = chosen_filters(filters, keywords)
    if not 0 <= opponents <= MAX_LIMIT:
        raise ValueError(f"opponents must be between 0 and {MAX_LIMIT}, not {opponents}")
    who = _player(player)
    if use_totals(filters, source):
        counters = _totals_counters(filters, who.pk)
        frequent = _totals_opponents(filters, who.pk, opponents)
    else:
        counters = _seat_counters(filters, who.pk)
        frequent = _seat_opponents(filters, who.pk, opponents)
    return {
        "player": player_json(who.pk, who.name),
        "filters": filters.statistics_json(),
        **derive(counters),
        "frequent_opponents": frequent,
        "ratings": _ratings(who.pk, filters.ruleset),
        "analysis": analysis_stats(filters, who.pk),
    }


def _opponent_json(player_id: int, name: str, counts: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "player": player_json(player_id, name),
        "rounds": counts["rounds"],
        "wins": counts["wins"],
        "opponent_wins": counts["opponent_wins"],
        "net": counts["net"],
    }


def _totals_opponents(filters: GameFilters, player_id: int, limit: int) -> list[dict[str, Any]]:
    if limit == 0:
        return []
    rows = (
        PairTotals.objects.filter(player_id=player_id, **totals_group(filters))
        .order_by("-rounds", "opponent_id")
        .values("opponent_id", "opponent__name", *PAIR_COUNTERS)[:limit]
    )
    return [_opponent_json(r["opponent_id"], r["opponent__name"], r) for r in rows]


def _seat_opponents(filters: GameFilters, player_id: int, limit: int) -> list[dict[str, Any]]:
    if limit == 0:
        return []
    conditions, params = _where(filters, a=player_id)
    inner = aggregate_sql(PAIR_COUNTERS, pairs_from(), ["b.player_id"], conditions)
    sql = (
        f"SELECT t.*, p.name FROM ({inner}) t "
        f"JOIN {table_name(Player)} p ON p.id = t.player_id "
        "ORDER BY t.rounds DESC, t.player_id LIMIT %s"
    )
    return [
        _opponent_json(row[0], row[-1],
                       {name: as_int(v) for name, v in zip(PAIR_COUNTERS, row[1:-1], strict=True)})
        for row in fetch(sql, [*params, limit])
    ]


def _ratings(player_id: int, ruleset: str | None) -> dict[str, dict[str, Any]]:
    rows = PlayerRating.objects.filter(player_id=player_id)
    if ruleset:
        rows = rows.filter(ruleset=ruleset)
    return {
        r.ruleset: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "rounds": r.rounds}
        for r in rows.order_by("ruleset")
    }


def head_to_head(
    a: Player | int,
    b: Player | int,
    *,
    filters: GameFilters | None = None,
    source: str = "auto",
    **keywords: Unpack[FilterKeywords],
) -> dict[str, Any]:
    """Two players' shared rounds: how many, the wins of each, and the net points between them
    (what b paid a minus what a paid b; docs/stats.md)."""
    filters = chosen_filters(filters, keywords)
    first, second = _player(a), _player(b)
    if first.pk == second.pk:
        raise ValueError("head-to-head needs two different players")
    if use_totals(filters, source):
        row = (
            PairTotals.objects.filter(
                player_id=first.pk, opponent_id=second.pk, **totals_group(filters)
            )
            .values(*PAIR_COUNTERS)
            .first()
        )
        counts = row or dict.fromkeys(PAIR_COUNTERS, 0)
    else:
        conditions, params = _where(filters, a=first.pk, b=second.pk)
        (values,) = fetch(aggregate_sql(PAIR_COUNTERS, pairs_from(), (), conditions), params)
        counts = {name: as_int(v) for name, v in zip(PAIR_COUNTERS, values, strict=True)}
    return {
        "filters": filters.statistics_json(),
        "rounds": counts["rounds"],
        "a": {**player_json(first.pk, first.name), "wins": counts["wins"], "net": counts["net"]},
        "b": {
            **player_json(second.pk, second.name),
            "wins": counts["opponent_wins"],
            "net": -counts["net"],
        },
        "other_rounds": counts["rounds"] - counts["wins"] - counts["opponent_wins"],
    }


__all__ = [
    "LEADERBOARD_METRICS",
    "MAX_LIMIT",
    "head_to_head",
    "match_analysis_stats",
    "player_stats",
]
