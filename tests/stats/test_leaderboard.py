"""ratings.leaderboards.leaderboard on the club archive, worked out by hand.

Rounds: Ann 7, Bao 7, Chi 7, Dung 4, Em 1. Wins: Chi 3, Bao 1, Dung 1. Net: Chi 57, Em 0,
Dung -2, Ann -23, Bao -32. Deal-ins: Ann 4, nobody else.
"""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from ratings.leaderboards import leaderboard
from ratings.stats import LEADERBOARD_METRICS
from tests.stats.conftest import player

pytestmark = pytest.mark.django_db


def names(board: dict[str, Any]) -> list[tuple[str, Any, int]]:
    return [(r["player"]["name"], r["value"], r["rounds"]) for r in board["rows"]]


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_ranks_by_win_rate_among_players_with_enough_rounds(
    club: dict[str, int], source: str
) -> None:
    board = leaderboard("win_rate", min_rounds=4, source=source)
    assert names(board) == [("Chi", 3 / 7, 7), ("Dung", 1 / 4, 4), ("Bao", 1 / 7, 7),
                            ("Ann", 0 / 7, 7)]
    assert [r["rank"] for r in board["rows"]] == [1, 2, 3, 4]
    assert board["metric"] == "win_rate" and board["min_rounds"] == 4


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_puts_the_lowest_first_where_lower_is_better(club: dict[str, int], source: str) -> None:
    # Deal-in rate 0 for Bao, Chi (7 rounds each: the older player first) and Dung (4 rounds).
    board = leaderboard("deal_in_rate", min_rounds=2, source=source)
    assert names(board) == [("Bao", 0.0, 7), ("Chi", 0.0, 7), ("Dung", 0.0, 4), ("Ann", 4 / 7, 7)]


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_ranks_totals_and_honours_limit(club: dict[str, int], source: str) -> None:
    board = leaderboard("net_total", min_rounds=1, source=source)
    assert names(board) == [("Chi", 57, 7), ("Em", 0, 1), ("Dung", -2, 4), ("Ann", -23, 7),
                            ("Bao", -32, 7)]
    assert names(leaderboard("net_total", min_rounds=1, limit=2, source=source)) == [
        ("Chi", 57, 7), ("Em", 0, 1)
    ]


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_leaves_out_players_without_a_value(club: dict[str, int], source: str) -> None:
    # Average winning points needs a win: Bao 13, Chi 26/3, Dung 5.
    board = leaderboard("avg_win_points", min_rounds=1, source=source)
    assert names(board) == [("Bao", 13.0, 7), ("Chi", 26 / 3, 7), ("Dung", 5.0, 4)]
    best = leaderboard("best_win_points", min_rounds=1, source=source)
    assert names(best) == [("Bao", 13, 7), ("Chi", 12, 7), ("Dung", 5, 4)]
    dealer = leaderboard("dealer_win_rate", min_rounds=1, source=source)
    assert names(dealer) == [("Chi", 2 / 4, 7), ("Ann", 0.0, 7), ("Bao", 0.0, 7)]


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_applies_ruleset_and_players(club: dict[str, int], source: str) -> None:
    # bga, 3 players: B1-B3. Net: Chi 11 + 8 - 4 = 15, Ann 11 - 4 - 4 = 3, Bao -22 - 4 + 8.
    board = leaderboard("net_per_round", min_rounds=3, ruleset="bga", players=3, source=source)
    assert names(board) == [("Chi", 15 / 3, 3), ("Ann", 3 / 3, 3), ("Bao", -18 / 3, 3)]
    assert leaderboard("wins", min_rounds=1, players=2, source=source)["rows"][0]["player"][
        "name"] == "Dung"


def test_it_applies_a_date_range(club: dict[str, int]) -> None:
    # From 2026-11-30: D (exhausted), E (redeal), A2 (Chi wins; Ann pays twice).
    board = leaderboard("net_total", min_rounds=2, since="2026-11-30")
    assert names(board) == [("Chi", 21, 3), ("Dung", 0, 2), ("Bao", -7, 3), ("Ann", -14, 2)]


def test_it_ranks_ratings_of_one_ruleset(club: dict[str, int]) -> None:
    # bga: B1 (Bao's forced finish under the threshold: Ann and Chi tie first, Bao last),
    # B2 (Chi first, the others tie), B3 (Bao first), in that order, with openskill's model.
    model = PlackettLuce()
    ann, bao, chi = model.rating(), model.rating(), model.rating()
    [[ann], [bao], [chi]] = model.rate([[ann], [bao], [chi]], ranks=[1, 2, 1])
    [[ann], [bao], [chi]] = model.rate([[ann], [bao], [chi]], ranks=[2, 2, 1])
    [[ann], [bao], [chi]] = model.rate([[ann], [bao], [chi]], ranks=[2, 1, 2])
    expected = sorted(
        [("Ann", ann.ordinal()), ("Bao", bao.ordinal()), ("Chi", chi.ordinal())],
        key=lambda item: -item[1],
    )
    board = leaderboard("rating", ruleset="bga", min_rounds=3)
    assert [(r["player"]["name"], r["rounds"]) for r in board["rows"]] == [
        (name, 3) for name, _ in expected
    ]
    for row, (_, ordinal) in zip(board["rows"], expected, strict=True):
        assert row["value"] == pytest.approx(ordinal, abs=1e-9)
    assert leaderboard("rating", ruleset="bga", min_rounds=4)["rows"] == []
    # Classic: A and C are the rated rounds (A2 has a player twice, D and E have no winner).
    classic = leaderboard("rating", ruleset="classic", min_rounds=1)
    assert {r["player"]["name"]: r["rounds"] for r in classic["rows"]} == {
        "Ann": 2, "Bao": 1, "Chi": 1, "Dung": 2
    }
    assert classic["rows"][0]["player"]["name"] == "Chi"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"metric": "luck"}, "unknown metric 'luck'"),
        ({"metric": "wins", "min_rounds": 0}, "min_rounds must be a whole number of at least 1"),
        ({"metric": "wins", "limit": 0}, "limit must be between 1 and 500"),
        ({"metric": "wins", "limit": 501}, "limit must be between 1 and 500"),
        ({"metric": "rating"}, "the rating leaderboard needs a ruleset"),
        ({"metric": "rating", "ruleset": "bga", "players": 3}, "filters by ruleset only"),
        ({"metric": "wins", "players": 1}, "players must be 2 to 8, not 1"),
    ],
)
def test_it_refuses_bad_arguments_with_a_clear_message(
    club: dict[str, int], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        leaderboard(**kwargs)
    assert message in str(caught.value)


def test_it_offers_every_metric_from_both_sources(club: dict[str, int]) -> None:
    for metric in LEADERBOARD_METRICS:
        if metric == "rating":
            continue
        for ruleset in (None, "classic", "bga"):
            totals = leaderboard(metric, min_rounds=1, ruleset=ruleset)
            seats = leaderboard(metric, min_rounds=1, ruleset=ruleset, source="seats")
            assert totals == seats, metric
    assert player("Em").pk in [
        r["player"]["id"] for r in leaderboard("rounds", min_rounds=1)["rows"]
    ]
