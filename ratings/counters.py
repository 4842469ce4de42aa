"""The statistics' counters: one SQL aggregate per counter over the per-seat facts the import
wrote (`GameSeat` joined to its `Game`), the figures derived from them, and the filters they
take (docs/stats.md). Written once here and used by the requests (`ratings.stats`,
`ratings.leaderboards`, `ratings.global_stats`) and by `ratings.totals` to build the stored
totals.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from django.db import connection

from fourcolor.rulesets import MELD_KINDS
from ratings.models import ANY_PLAYERS, ANY_RULESET
from records.filters import GameFilters
from records.models import Game, GameSeat, SeatAnalysis

SOURCES = ("auto", "totals", "seats")
MAX_LIMIT = 500


# One aggregate per counter over seats `s` joined to their games `g` (docs/stats.md).
# Booleans are tested with CASE WHEN, which reads the same on SQLite (0/1) and PostgreSQL.
SEAT_COUNTERS: dict[str, str] = {
    "rounds": "COUNT(DISTINCT s.game_id)",
    "matches": "COUNT(DISTINCT g.match_id)",
    "wins": "SUM(CASE WHEN s.won THEN 1 ELSE 0 END)",
    "wins_on_self_draw": "SUM(CASE WHEN s.won AND s.won_on = 'self_draw' THEN 1 ELSE 0 END)",
    "wins_on_draw": "SUM(CASE WHEN s.won AND s.won_on = 'draw' THEN 1 ELSE 0 END)",
    "wins_on_discard": "SUM(CASE WHEN s.won AND s.won_on = 'discard' THEN 1 ELSE 0 END)",
    "deal_ins": "SUM(CASE WHEN s.dealt_in THEN 1 ELSE 0 END)",
    "forced": "SUM(CASE WHEN s.forced THEN 1 ELSE 0 END)",
    "below_threshold": "SUM(CASE WHEN s.below_threshold THEN 1 ELSE 0 END)",
    "below_threshold_paid": "SUM(CASE WHEN s.below_threshold THEN -s.delta ELSE 0 END)",
    "win_points": "SUM(CASE WHEN s.won THEN s.points ELSE 0 END)",
    "best_win_points": "MAX(CASE WHEN s.won THEN s.points END)",
    "net": "SUM(s.delta)",
    "exhausted": "COUNT(DISTINCT CASE WHEN g.outcome = 'exhausted' THEN s.game_id END)",
    "no_winner": (
        "COUNT(DISTINCT CASE WHEN g.outcome IN ('exhausted', 'redeal', 'unfinished') "
        "THEN s.game_id END)"
    ),
    "pongs": "SUM(s.pongs)",
    "gans": "SUM(s.gans)",
    "chis": "SUM(s.chis)",
    "own_draw_melds": "SUM(s.own_draw_melds)",
    "steals": "SUM(s.steals)",
    "turns_lost": "SUM(s.turns_lost)",
    "draws": "SUM(s.draws)",
    "win_turns": "SUM(CASE WHEN s.won THEN s.win_turn ELSE 0 END)",
    "dealer_rounds": "SUM(CASE WHEN s.is_dealer THEN 1 ELSE 0 END)",
    "dealer_wins": "SUM(CASE WHEN s.is_dealer AND s.won THEN 1 ELSE 0 END)",
    "redeals_declared": "SUM(CASE WHEN s.redeal_declared THEN 1 ELSE 0 END)",
    "missed_wins": "SUM(s.missed_wins)",
}
COUNTER_NAMES: tuple[str, ...] = tuple(SEAT_COUNTERS) + tuple(f"melds_{k}" for k in MELD_KINDS)
# The counters the stored totals add batch by batch (`matches` and `best_win_points` are no sums).
SUM_COUNTERS: tuple[str, ...] = tuple(
    name for name in COUNTER_NAMES if name not in ("matches", "best_win_points"))

# The pair figures from `a`'s side over seat pairs (a, b) of one game held by two different
# players. Payments only flow between the finisher and each other seat (RULES.md §7), so summing
# over seat pairs counts every payment between the two exactly once, even when one player
# holds two seats of a round.
PAIR_COUNTERS: dict[str, str] = {
    "rounds": "COUNT(DISTINCT a.game_id)",
    "wins": "COUNT(DISTINCT CASE WHEN a.won THEN a.game_id END)",
    "opponent_wins": "COUNT(DISTINCT CASE WHEN b.won THEN a.game_id END)",
    "net": "SUM(CASE WHEN a.finisher THEN -b.delta WHEN b.finisher THEN a.delta ELSE 0 END)",
}

# Leaderboard metrics: (numerator counter, denominator counter or None, higher is better).
METRICS: dict[str, tuple[str, str | None, bool]] = {
    "rounds": ("rounds", None, True),
    "wins": ("wins", None, True),
    "win_rate": ("wins", "rounds", True),
    "net_total": ("net", None, True),
    "net_per_round": ("net", "rounds", True),
    "avg_win_points": ("win_points", "wins", True),
    "best_win_points": ("best_win_points", None, True),
    "deal_in_rate": ("deal_ins", "rounds", False),
    "dealer_win_rate": ("dealer_wins", "dealer_rounds", True),
    "missed_wins_per_round": ("missed_wins", "rounds", False),
}
# The PlayerTotals column holding each metric: its name, but for the net total's.
METRIC_COLUMNS: dict[str, str] = {metric: metric for metric in METRICS} | {"net_total": "net"}
# The ratios kept as columns (not computed at read time), so that each board is an index scan.
RATIO_COLUMNS: tuple[str, ...] = tuple(
    METRIC_COLUMNS[metric] for metric, (_, denominator, _) in METRICS.items() if denominator)
# The reviewer's ratings of decisions (records.models.SeatAnalysis, one row per seat of each
# analysed round, docs/analysis.md), aggregated over the rows `a` joined to their games `g`.
ANALYSIS_COUNTERS: dict[str, str] = {
    "rounds": "COUNT(DISTINCT a.game_id)",
    "decisions": "SUM(a.decisions)",
    "good": "SUM(a.good)",
    "inaccuracies": "SUM(a.inaccuracies)",
    "mistakes": "SUM(a.mistakes)",
    "blunders": "SUM(a.blunders)",
    "loss": "SUM(a.loss)",
}
# Leaderboard metrics over analysed rounds: (numerator, denominator, higher is better).
ANALYSIS_METRICS: dict[str, tuple[str, str, bool]] = {
    "decision_accuracy": ("good", "decisions", True),
    "mean_loss_per_decision": ("loss", "decisions", False),
}
LEADERBOARD_METRICS: tuple[str, ...] = ("rating", *METRICS, *ANALYSIS_METRICS)


def table_name(model: type[Any]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def seats_from() -> str:
    """`FROM` clause joining seats `s` to their games `g`."""
    return f"{table_name(GameSeat)} s JOIN {table_name(Game)} g ON g.id = s.game_id"


def pairs_from() -> str:
    """Seat pairs `a`, `b` of one game held by different players, with the game `g`."""
    seats = table_name(GameSeat)
    return (
        f"{seats} a JOIN {seats} b ON b.game_id = a.game_id AND b.player_id <> a.player_id "
        f"JOIN {table_name(Game)} g ON g.id = a.game_id"
    )


def meld_source() -> tuple[str, str]:
    """The join that unnests `s.win_melds` (a JSON list of kinds) and the kind's expression."""
    if connection.vendor == "postgresql":
        return "CROSS JOIN LATERAL jsonb_array_elements_text(s.win_melds) AS m(kind)", "m.kind"
    if connection.vendor == "sqlite":
        return "CROSS JOIN json_each(s.win_melds) AS m", "m.value"
    raise NotImplementedError(f"meld statistics need SQLite or PostgreSQL, not {connection.vendor}")


def fetch(sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return list(cursor.fetchall())


def as_int(value: Any) -> int:
    """SUM over no rows is NULL; PostgreSQL returns big sums as Decimal."""
    return int(value) if value is not None else 0


class FilterKeywords(TypedDict, total=False):
    """The statistics' filters as keyword arguments (`GameFilters.of` says what each takes)."""

    ruleset: str | None
    players: int | str | None
    since: datetime.date | str | None
    until: datetime.date | str | None


def chosen_filters(filters: GameFilters | None, keywords: FilterKeywords) -> GameFilters:
    """The statistics' filters: a parsed value (the web and the API pass theirs), or keyword
    values checked here (`GameFilters.of`). ValueError for a bad one, or for both."""
    if filters is None:
        return GameFilters.of(**keywords)
    if any(value not in (None, "") for value in keywords.values()):
        raise ValueError("give the filters as a GameFilters or as keywords, not both")
    return filters.for_statistics()


def totals_group(filters: GameFilters) -> dict[str, Any]:
    """The stored totals' group answering the filters (without dates)."""
    return {"ruleset": filters.ruleset or ANY_RULESET, "players": filters.players or ANY_PLAYERS}


def use_totals(filters: GameFilters, source: str) -> bool:
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if source == "totals" and filters.dated:
        raise ValueError("stored totals cannot answer a date range: use source='seats'")
    return source == "totals" or (source == "auto" and not filters.dated)


def where_sql(conditions: list[str]) -> str:
    return ("WHERE " + " AND ".join(conditions)) if conditions else ""


def aggregate_sql(counters: Mapping[str, str], source: str, group_by: Iterable[str] = (),
              conditions: Iterable[str] = (), having: Iterable[str] = (),
              select: Iterable[str] | None = None) -> str:
    """SELECT `select` (default: the group columns), then every aggregate of `counters`
    (SEAT_COUNTERS over `seats_from()`, PAIR_COUNTERS over `pairs_from()`, ANALYSIS_COUNTERS
    over `analysed_from()`), with its GROUP BY and HAVING, if any."""
    groups = list(group_by)
    leading = groups if select is None else list(select)
    columns = leading + [f"{sql} AS {name}" for name, sql in counters.items()]
    sql = f"SELECT {', '.join(columns)} FROM {source} {where_sql(list(conditions))}"
    if groups:
        sql += f" GROUP BY {', '.join(groups)}"
    having = list(having)
    if having:
        sql += " HAVING " + " AND ".join(having)
    return sql


def meld_counts_sql(group_by: Iterable[str] = (), conditions: Iterable[str] = ()) -> str:
    """SELECT group columns, meld kind, count: the melds of winning hands (seats that won)."""
    join, kind = meld_source()
    groups = list(group_by) + [kind]
    where = where_sql(["s.won", *conditions])
    return (
        f"SELECT {', '.join(groups)}, COUNT(*) FROM {seats_from()} {join} {where} "
        f"GROUP BY {', '.join(groups)}"
    )


def counters_row(row: Iterable[Any]) -> dict[str, Any]:
    """The SEAT_COUNTERS columns of a result row as a dict (SUM over no rows gives 0)."""
    values = dict(zip(SEAT_COUNTERS, row, strict=True))
    out: dict[str, Any] = {name: as_int(value) for name, value in values.items()}
    best = values["best_win_points"]
    out["best_win_points"] = int(best) if best is not None else None  # no win: no best
    return out


def grouped_counters(group_by: list[str], conditions: list[str], params: list[Any]
                     ) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Every counter (SEAT_COUNTERS and the meld counts, COUNTER_NAMES) of the seats that meet
    `conditions`, per value of the `group_by` columns."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    width = len(group_by)
    for row in fetch(aggregate_sql(SEAT_COUNTERS, seats_from(), group_by, conditions), params):
        counters = counters_row(row[width:])
        counters.update({f"melds_{kind}": 0 for kind in MELD_KINDS})
        out[tuple(row[:width])] = counters
    for row in fetch(meld_counts_sql(group_by, conditions), params):
        out[tuple(row[:width])][f"melds_{row[-2]}"] = int(row[-1])
    return out


def analysed_from() -> str:
    """`FROM` clause joining the analysed seats `a` to their games `g`."""
    return f"{table_name(SeatAnalysis)} a JOIN {table_name(Game)} g ON g.id = a.game_id"


def analysis_row(row: Iterable[Any]) -> dict[str, Any]:
    values = dict(zip(ANALYSIS_COUNTERS, row, strict=True))
    out: dict[str, Any] = {name: as_int(value) for name, value in values.items()}
    out["loss"] = float(values["loss"] or 0.0)
    return out


def analysis_summary(counters: Mapping[str, Any]) -> dict[str, Any]:
    """The figures of a player's analysed decisions from their ANALYSIS_COUNTERS."""
    return {
        "rounds": counters["rounds"],
        "decisions": counters["decisions"],
        "decision_accuracy": ratio(counters["good"], counters["decisions"]),
        "mean_loss_per_decision": (
            counters["loss"] / counters["decisions"] if counters["decisions"] else None
        ),
        "inaccuracies": counters["inaccuracies"],
        "mistakes": counters["mistakes"],
        "blunders": counters["blunders"],
    }


def ratio(numerator: int | None, denominator: int | None) -> float | None:
    """numerator / denominator; None when there is nothing to divide by."""
    if not denominator or numerator is None:
        return None
    return numerator / denominator


def derive(counters: Mapping[str, Any]) -> dict[str, Any]:
    """Every player statistic from the counters (docs/stats.md gives each formula)."""
    c = counters
    rounds, wins = c["rounds"], c["wins"]

    def per_round(name: str) -> dict[str, Any]:
        return {"total": c[name], "per_round": ratio(c[name], rounds)}

    return {
        "rounds": rounds,
        "matches": c["matches"],
        "wins": wins,
        "win_rate": ratio(wins, rounds),
        "wins_on_self_draw": c["wins_on_self_draw"],
        "wins_on_draw": c["wins_on_draw"],
        "wins_on_discard": c["wins_on_discard"],
        "self_draw_win_share": ratio(c["wins_on_self_draw"], wins),
        "draw_win_share": ratio(c["wins_on_self_draw"] + c["wins_on_draw"], wins),
        "deal_ins": c["deal_ins"],
        "deal_in_rate": ratio(c["deal_ins"], rounds),
        "forced_finishes": c["forced"],
        "below_threshold": c["below_threshold"],
        "below_threshold_paid": c["below_threshold_paid"],
        "avg_win_points": ratio(c["win_points"], wins),
        "best_win_points": c["best_win_points"],
        "net_total": c["net"],
        "net_per_round": ratio(c["net"], rounds),
        "exhausted_rounds": c["exhausted"],
        "exhausted_share": ratio(c["exhausted"], rounds),
        "no_winner_rounds": c["no_winner"],
        "claims": {claim: per_round(name) for claim, name in (
            ("pong", "pongs"), ("gan", "gans"), ("chi", "chis"), ("own_draw", "own_draw_melds"),
            ("steal", "steals"))},
        "turns_lost": c["turns_lost"],
        "turns_lost_per_round": ratio(c["turns_lost"], rounds),
        "draws": c["draws"],
        "avg_win_turn": ratio(c["win_turns"], wins),
        "dealer_rounds": c["dealer_rounds"],
        "dealer_wins": c["dealer_wins"],
        "dealer_win_rate": ratio(c["dealer_wins"], c["dealer_rounds"]),
        "redeals_declared": c["redeals_declared"],
        "missed_wins": c["missed_wins"],
        "missed_wins_per_round": ratio(c["missed_wins"], rounds),
        "meld_mix": {
            kind: {"count": c[f"melds_{kind}"], "per_win": ratio(c[f"melds_{kind}"], wins)}
            for kind in MELD_KINDS
        },
    }


def metric_value(metric: str, counters: Mapping[str, Any]) -> float | int | None:
    numerator, denominator, _ = METRICS[metric]
    if denominator is None:
        value: int | None = counters[numerator]
        return value
    return ratio(counters[numerator], counters[denominator])


def ratio_columns(counters: Mapping[str, Any]) -> dict[str, float | None]:
    """The stored ratio columns of PlayerTotals from its counters."""
    return {
        column: metric_value(metric, counters)
        for metric, column in METRIC_COLUMNS.items()
        if METRICS[metric][1] is not None
    }


def player_json(player_id: int, name: str) -> dict[str, Any]:
    return {"id": player_id, "name": name}
