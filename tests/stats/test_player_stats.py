"""ratings.stats.player_stats on the club archive (tests/stats/conftest.py), every figure
worked out by hand from the per-seat tables there."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from records.models import Player
from ratings.stats import player_stats
from tests.stats.conftest import player

pytestmark = pytest.mark.django_db

NO_MELDS = {"count": 0, "per_win": None}


def melds(wins: int, **counts: int) -> dict[str, dict[str, Any]]:
    kinds = ("lone", "pair", "command", "field", "triple", "quad", "three_colour", "four_colour")
    return {
        k: {"count": counts.get(k, 0), "per_win": counts.get(k, 0) / wins if wins else None}
        for k in kinds
    }


def without_extras(stats: dict[str, Any]) -> dict[str, Any]:
    # "analysis" (the reviewer's figures) is checked in tests/analysis/test_stats.py.
    return {k: v for k, v in stats.items() if k not in ("player", "filters",
                                                         "frequent_opponents", "ratings",
                                                         "analysis")}


# Chi: A (seat 3, dealer, wins 7 on a draw), A2 (the same), B1 (+11), B2 (wins 12 on a
# discard), B3 (dealer, -4), D (exhausted), E (dealer of the redealt round).
CHI = {
    "rounds": 7,
    "matches": 1,  # club-1
    "wins": 3,  # A, A2, B2
    "win_rate": 3 / 7,
    "wins_on_self_draw": 0,
    "wins_on_draw": 2,  # A and A2: on Ann's draw
    "wins_on_discard": 1,
    "self_draw_win_share": 0 / 3,
    "draw_win_share": 2 / 3,
    "deal_ins": 0,
    "deal_in_rate": 0 / 7,
    "forced_finishes": 0,
    "below_threshold": 0,
    "below_threshold_paid": 0,
    "avg_win_points": (7 + 7 + 12) / 3,
    "best_win_points": 12,
    "net_total": 21 + 21 + 11 + 8 - 4 + 0 + 0,  # 57
    "net_per_round": 57 / 7,
    "exhausted_rounds": 1,
    "exhausted_share": 1 / 7,
    "no_winner_rounds": 2,  # D (exhausted) and E (redealt)
    "claims": {
        "pong": {"total": 1 + 1 + 1 + 1, "per_round": 4 / 7},  # B1 B2 B3 D
        "gan": {"total": 0, "per_round": 0 / 7},
        "chi": {"total": 3 + 1 + 1 + 3, "per_round": 8 / 7},  # B1 B2 B3 D
        "own_draw": {"total": 1 + 1 + 4 + 2 + 4 + 3, "per_round": 15 / 7},  # A A2 B1 B2 B3 D
        "steal": {"total": 1 + 1 + 2 + 1 + 1, "per_round": 6 / 7},  # A A2 B2 B3 D
    },
    "turns_lost": 1,  # D
    "turns_lost_per_round": 1 / 7,
    "draws": 1 + 1 + 15 + 5 + 7 + 7 + 0,  # 36
    "avg_win_turn": (3 + 3 + 8) / 3,
    "dealer_rounds": 4,  # A A2 B3 E
    "dealer_wins": 2,  # A A2
    "dealer_win_rate": 2 / 4,
    "redeals_declared": 0,
    "missed_wins": 0,
    "missed_wins_per_round": 0 / 7,
    # A and A2: 2 three-colour, 2 command, 3 lone, 3 pair; B2: 3 command, 1 triple,
    # 1 three-colour, 2 lone, 2 pair.
    "meld_mix": melds(3, lone=8, pair=8, command=7, triple=1, three_colour=5),
}

# Bao: A, A2 (seat 2, -7, skipped by Chi's win), B1 (forced finish of 7 < 10: pays 11 twice),
# B2 (dealer, -4), B3 (wins 13 on his draw), D (exhausted), E (redealt).
BAO = {
    "rounds": 7,
    "matches": 1,
    "wins": 1,
    "win_rate": 1 / 7,
    "wins_on_self_draw": 1,  # B3: on his own draw
    "wins_on_draw": 0,
    "wins_on_discard": 0,
    "self_draw_win_share": 1 / 1,
    "draw_win_share": 1 / 1,
    "deal_ins": 0,
    "deal_in_rate": 0 / 7,
    "forced_finishes": 1,
    "below_threshold": 1,
    "below_threshold_paid": 22,
    "avg_win_points": 13 / 1,
    "best_win_points": 13,
    "net_total": -7 - 7 - 22 - 4 + 8 + 0 + 0,  # -32
    "net_per_round": -32 / 7,
    "exhausted_rounds": 1,
    "exhausted_share": 1 / 7,
    "no_winner_rounds": 2,  # D and E
    "claims": {
        "pong": {"total": 3 + 1 + 1, "per_round": 5 / 7},  # B1 B2 B3
        "gan": {"total": 0, "per_round": 0 / 7},
        "chi": {"total": 3 + 1 + 2 + 4, "per_round": 10 / 7},  # B1 B2 B3 D
        "own_draw": {"total": 1 + 2 + 1 + 4, "per_round": 8 / 7},  # B1 B2 B3 D
        "steal": {"total": 1, "per_round": 1 / 7},  # B2 (B3's win on his own draw skips nobody)
    },
    "turns_lost": 1 + 1 + 2 + 1 + 1,  # A A2 B2 B3 D
    "turns_lost_per_round": 6 / 7,
    "draws": 1 + 1 + 14 + 3 + 6 + 7 + 0,  # 32
    "avg_win_turn": 9 / 1,
    "dealer_rounds": 1,  # B2
    "dealer_wins": 0,
    "dealer_win_rate": 0 / 1,
    "redeals_declared": 0,
    "missed_wins": 0,
    "missed_wins_per_round": 0 / 7,
    # B3 only (B1's forced finish is not a winning hand).
    "meld_mix": melds(1, command=2, triple=2, field=1, lone=6),
}

# Ann: A (seat 1, deals in with her draw), A2 (seats 1 and 4: one round, pays 7 twice),
# B1 (dealer, +11), B2 (deals in), B3, C (dealer, deals in), D (dealer, exhausted).
ANN = {
    "rounds": 7,
    "matches": 1,
    "wins": 0,
    "win_rate": 0 / 7,
    "wins_on_self_draw": 0,
    "wins_on_draw": 0,
    "wins_on_discard": 0,
    "self_draw_win_share": None,
    "draw_win_share": None,
    "deal_ins": 4,  # A, A2 (seat 1), B2, C
    "deal_in_rate": 4 / 7,
    "forced_finishes": 0,
    "below_threshold": 0,
    "below_threshold_paid": 0,
    "avg_win_points": None,
    "best_win_points": None,
    "net_total": -7 + (-7 - 7) + 11 - 4 - 4 - 5 + 0,  # -23
    "net_per_round": -23 / 7,
    "exhausted_rounds": 1,
    "exhausted_share": 1 / 7,
    "no_winner_rounds": 1,  # D
    "claims": {
        "pong": {"total": 1 + 1 + 1, "per_round": 3 / 7},  # B1 B3 C
        "gan": {"total": 0, "per_round": 0 / 7},
        "chi": {"total": 1 + 1 + 1 + 4 + 3 + 3 + 3, "per_round": 16 / 7},  # A A2 B1 B2 B3 C D
        "own_draw": {"total": 1 + 6 + 2 + 2 + 2, "per_round": 13 / 7},  # A2(seat 4) B1 B2 B3 D
        "steal": {"total": 0, "per_round": 0 / 7},
    },
    "turns_lost": 1 + 1,  # B2 D
    "turns_lost_per_round": 2 / 7,
    "draws": 1 + (1 + 2) + 17 + 2 + 6 + 4 + 8,  # 41
    "avg_win_turn": None,
    "dealer_rounds": 3,  # B1 C D
    "dealer_wins": 0,
    "dealer_win_rate": 0 / 3,
    "redeals_declared": 0,
    "missed_wins": 0,
    "missed_wins_per_round": 0 / 7,
    "meld_mix": melds(0),
}

# Dung: A (seat 4, -7), C (wins 5 on Ann's discard after one missed win), D, E (declares the
# redeal). No match, never the dealer.
DUNG = {
    "rounds": 4,
    "matches": 0,
    "wins": 1,
    "win_rate": 1 / 4,
    "wins_on_self_draw": 0,
    "wins_on_draw": 0,
    "wins_on_discard": 1,
    "self_draw_win_share": 0 / 1,
    "draw_win_share": 0 / 1,
    "deal_ins": 0,
    "deal_in_rate": 0 / 4,
    "forced_finishes": 0,
    "below_threshold": 0,
    "below_threshold_paid": 0,
    "avg_win_points": 5 / 1,
    "best_win_points": 5,
    "net_total": -7 + 5 + 0 + 0,
    "net_per_round": -2 / 4,
    "exhausted_rounds": 1,
    "exhausted_share": 1 / 4,
    "no_winner_rounds": 2,  # D and E
    "claims": {
        "pong": {"total": 1 + 1, "per_round": 2 / 4},  # C D
        "gan": {"total": 0, "per_round": 0 / 4},
        "chi": {"total": 3 + 2, "per_round": 5 / 4},  # C D
        "own_draw": {"total": 1 + 2 + 3, "per_round": 6 / 4},  # A C D
        "steal": {"total": 1, "per_round": 1 / 4},  # D
    },
    "turns_lost": 0,
    "turns_lost_per_round": 0 / 4,
    "draws": 2 + 4 + 9 + 0,
    "avg_win_turn": 9 / 1,
    "dealer_rounds": 0,
    "dealer_wins": 0,
    "dealer_win_rate": None,
    "redeals_declared": 1,
    "missed_wins": 1,
    "missed_wins_per_round": 1 / 4,
    "meld_mix": melds(1, three_colour=3, pair=4, triple=1, lone=1),
}


@pytest.mark.parametrize("source", ["auto", "seats"])
@pytest.mark.parametrize(
    "name, expected", [("Chi", CHI), ("Bao", BAO), ("Ann", ANN), ("Dung", DUNG)]
)
def test_it_gives_every_statistic_worked_out_by_hand(
    club: dict[str, int], name: str, expected: dict[str, Any], source: str
) -> None:
    stats = player_stats(player(name), source=source)
    assert without_extras(stats) == expected
    assert stats["player"] == {"id": player(name).pk, "name": name}


def test_it_lists_frequent_opponents_with_wins_and_net_points(club: dict[str, int]) -> None:
    # Chi and Bao share A, A2, B1, B2, B3, D, E. Net from Chi's side: A +7 and A2 +7 (Chi
    # finished: Bao paid 7), B1 +11 (Bao's forced finish paid Chi 11), B2 +4 (Bao paid 4),
    # B3 -4 (Chi paid Bao 4).
    # Ann: A, A2, B1, B2, B3, D; Ann paid Chi 7 in A, 7 twice in A2, 4 in B2.
    # Dung: A (+7), D, E. Em: E.
    frequent = player_stats(player("Chi"))["frequent_opponents"]
    assert [(o["player"]["name"], o["rounds"], o["wins"], o["opponent_wins"], o["net"])
            for o in frequent] == [
        ("Bao", 7, 3, 1, 7 + 7 + 11 + 4 - 4),
        ("Ann", 6, 3, 0, 7 + 14 + 4),
        ("Dung", 3, 1, 0, 7),
        ("Em", 1, 0, 0, 0),
    ]
    assert player_stats(player("Chi"), source="seats")["frequent_opponents"] == frequent
    assert len(player_stats(player("Chi"), opponents=2)["frequent_opponents"]) == 2
    assert player_stats(player("Chi"), opponents=0)["frequent_opponents"] == []


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_filters_by_ruleset(club: dict[str, int], source: str) -> None:
    # Chi in bga: B1 (+11), B2 (wins 12 on a discard, +8), B3 (dealer, -4).
    stats = player_stats(player("Chi"), ruleset="bga", source=source)
    assert (stats["rounds"], stats["matches"], stats["wins"], stats["net_total"]) == (3, 1, 1, 15)
    assert stats["win_rate"] == 1 / 3
    assert stats["avg_win_points"] == 12.0 and stats["best_win_points"] == 12
    assert (stats["dealer_rounds"], stats["dealer_win_rate"]) == (1, 0.0)
    assert stats["claims"]["pong"] == {"total": 3, "per_round": 1.0}
    assert stats["exhausted_rounds"] == 0
    assert stats["meld_mix"]["command"] == {"count": 3, "per_win": 3.0}
    assert [o["player"]["name"] for o in stats["frequent_opponents"]] == ["Ann", "Bao"]
    assert stats["filters"] == {"ruleset": "bga", "players": None, "since": None, "until": None}


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_filters_by_number_of_players(club: dict[str, int], source: str) -> None:
    # Four players: A, A2, D, E. Ann: A (-7), A2 (-14), D (0); deals in twice.
    stats = player_stats(player("Ann"), players=4, source=source)
    assert (stats["rounds"], stats["deal_ins"], stats["net_total"]) == (3, 2, -21)
    assert stats["deal_in_rate"] == 2 / 3
    assert stats["draws"] == 1 + 3 + 8
    # Both filters: classic with two players is C alone.
    both = player_stats(player("Ann"), ruleset="classic", players="2", source=source)
    assert (both["rounds"], both["net_total"], both["dealer_rounds"]) == (1, -5, 1)


def test_it_filters_by_date_range_inclusively(club: dict[str, int]) -> None:
    # 2026-11-28 .. 2026-11-30: B1, B2, B3 (11-28), D (11-30) for Chi.
    stats = player_stats(player("Chi"), since="2026-11-28", until=datetime.date(2026, 11, 30))
    assert (stats["rounds"], stats["wins"], stats["net_total"], stats["exhausted_rounds"]) == (
        4, 1, 11 + 8 - 4 + 0, 1
    )
    assert stats["filters"]["since"] == "2026-11-28" and stats["filters"]["until"] == "2026-11-30"
    # From 2026-12-01: E (a redeal Chi dealt) and A2 (a win).
    late = player_stats(player("Chi"), since="2026-12-01")
    assert (late["rounds"], late["wins"], late["dealer_rounds"], late["net_total"]) == (2, 1, 2, 21)
    assert player_stats(player("Chi"), until="2026-11-26")["rounds"] == 0


def test_it_gives_none_for_ratios_of_a_player_without_rounds_in_the_filters(
    club: dict[str, int]
) -> None:
    stats = player_stats(player("Em"), ruleset="bga")
    assert stats["rounds"] == 0 and stats["win_rate"] is None and stats["net_per_round"] is None
    assert stats["best_win_points"] is None
    assert stats["frequent_opponents"] == []


def test_it_includes_the_current_ratings(club: dict[str, int]) -> None:
    ratings = player_stats(player("Bao"))["ratings"]
    assert sorted(ratings) == ["bga", "classic"]
    assert ratings["bga"]["rounds"] == 3 and ratings["classic"]["rounds"] == 1  # A; A2 unrated
    assert list(player_stats(player("Bao"), ruleset="bga")["ratings"]) == ["bga"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"ruleset": "mahjong"}, "unknown ruleset 'mahjong'"),
        ({"players": 9}, "players must be 2 to 8, not 9"),
        ({"players": "four"}, "players must be 2 to 8, not 'four'"),
        ({"since": "2026-13-01"}, "since must be a date YYYY-MM-DD"),
        ({"source": "cache"}, "source must be one of"),
        ({"source": "totals", "since": "2026-01-01"}, "stored totals cannot answer a date"),
        ({"opponents": -1}, "opponents must be between 0 and"),
    ],
)
def test_it_refuses_bad_filters_with_a_clear_message(
    club: dict[str, int], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        player_stats(player("Ann"), **kwargs)
    assert message in str(caught.value)


def test_it_raises_does_not_exist_for_an_unknown_player(empty: None) -> None:
    with pytest.raises(Player.DoesNotExist):
        player_stats(12345)


def test_it_reads_one_row_of_totals_without_a_date_range(
    club: dict[str, int], django_assert_max_num_queries: Any
) -> None:
    chi = player("Chi")
    # The player is given: the totals row, the frequent opponents, the ratings, and the
    # reviewer's figures (one aggregate over the player's analysed seats, by index).
    with django_assert_max_num_queries(4):
        player_stats(chi)


def test_it_counts_nothing_between_a_since_after_its_until(club: dict[str, int]) -> None:
    figures = player_stats(player("Ann"), since="2026-12-02", until="2026-12-01")

    assert figures["rounds"] == 0 and figures["wins"] == 0 and figures["net_total"] == 0
