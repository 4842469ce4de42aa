"""Archive-wide figures per ruleset and number of players (docs/stats.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Unpack

from fourcolor.rulesets import MELD_KINDS
from ratings.counters import (
    FilterKeywords,
    chosen_filters,
    as_int,
    fetch,
    meld_counts_sql,
    ratio,
    seats_from,
    table_name,
    where_sql,
)
from records.filters import GameFilters
from records.models import Game


def global_stats(
    *,
    filters: GameFilters | None = None,
    **keywords: Unpack[FilterKeywords],
) -> dict[str, Any]:
    """Archive-wide figures per ruleset and number of players: the outcome mix, the dealer's
    and each seat's win rate and mean settlement, and the meld kinds of winning hands."""
    filters = chosen_filters(filters, keywords)
    conditions, params = filters.where()
    where = where_sql(conditions)
    groups: dict[tuple[str, int], dict[str, Any]] = {}

    def group(rs: str, n: int) -> dict[str, Any]:
        return groups.setdefault((rs, int(n)), {
            "ruleset": rs, "players": int(n), "rounds": 0,
            "outcomes": {}, "seats": [], "dealer": None, "others": None, "melds": {},
        })

    outcome_sql = (
        f"SELECT g.ruleset, g.players, g.outcome, COUNT(*) FROM {table_name(Game)} g {where} "
        "GROUP BY g.ruleset, g.players, g.outcome"
    )
    for rs, n, outcome, count in fetch(outcome_sql, params):
        entry = group(rs, n)
        entry["outcomes"][outcome] = int(count)
        entry["rounds"] += int(count)
    hands = _add_seats(group, where, params)
    for rs, n, kind, count in fetch(
            meld_counts_sql(["g.ruleset", "g.players"], conditions), params):
        group(rs, n)["melds"][kind] = int(count)
    for key, entry in groups.items():
        counts, entry["winning_hands"] = entry["melds"], hands.get(key, 0)
        entry["melds"] = {
            kind: {"count": counts.get(kind, 0),
                   "per_hand": ratio(counts.get(kind, 0), entry["winning_hands"])}
            for kind in MELD_KINDS
        }
    ordered = [groups[key] for key in sorted(groups)]
    return {
        "filters": filters.statistics_json(),
        "rounds": sum(g["rounds"] for g in ordered),
        "groups": ordered,
    }


def _add_seats(group: Callable[[str, int], dict[str, Any]], where: str,
               params: list[Any]) -> dict[tuple[str, int], int]:
    """Each group's seats and dealer-or-not shares; returns its winning hands."""
    seat_sql = (
        "SELECT g.ruleset, g.players, s.seat, s.is_dealer, COUNT(*), "
        "SUM(CASE WHEN s.won THEN 1 ELSE 0 END), SUM(s.delta) "
        f"FROM {seats_from()} {where} GROUP BY g.ruleset, g.players, s.seat, s.is_dealer"
    )
    by_seat: dict[tuple[str, int, int], list[int]] = {}
    by_dealer: dict[tuple[str, int, bool], list[int]] = {}
    for rs, n, seat, is_dealer, count, wins, net in fetch(seat_sql, params):
        row = (int(count), as_int(wins), as_int(net))
        _add(by_seat.setdefault((rs, int(n), int(seat)), [0, 0, 0]), row)
        _add(by_dealer.setdefault((rs, int(n), bool(is_dealer)), [0, 0, 0]), row)
    hands: dict[tuple[str, int], int] = {}
    for (rs, n, seat), sums in sorted(by_seat.items()):
        group(rs, n)["seats"].append({"seat": seat, **_share(sums)})
        hands[(rs, n)] = hands.get((rs, n), 0) + sums[1]
    for (rs, n, is_dealer), sums in by_dealer.items():
        group(rs, n)["dealer" if is_dealer else "others"] = _share(sums)
    return hands


def _add(sums: list[int], row: tuple[int, int, int]) -> None:
    for i, value in enumerate(row):
        sums[i] += value


def _share(sums: list[int]) -> dict[str, Any]:
    rounds, wins, net = sums
    return {
        "rounds": rounds,
        "wins": wins,
        "win_rate": ratio(wins, rounds),
        "net_per_round": ratio(net, rounds),
    }
