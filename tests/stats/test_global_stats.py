"""ratings.global_stats.global_stats on the club archive, worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.global_stats import global_stats

pytestmark = pytest.mark.django_db

KINDS = ("lone", "pair", "command", "field", "triple", "quad", "three_colour", "four_colour")


def group(stats: dict[str, Any], ruleset: str, players: int) -> dict[str, Any]:
    [found] = [g for g in stats["groups"] if (g["ruleset"], g["players"]) == (ruleset, players)]
    return found


def mix(hands: int, **counts: int) -> dict[str, dict[str, Any]]:
    return {
        k: {"count": counts.get(k, 0), "per_hand": counts.get(k, 0) / hands if hands else None}
        for k in KINDS
    }


def test_it_gives_the_outcome_mix_per_ruleset_and_table_size(club: dict[str, int]) -> None:
    stats = global_stats()
    assert stats["rounds"] == 8
    assert [(g["ruleset"], g["players"], g["rounds"], g["outcomes"]) for g in stats["groups"]] == [
        ("bga", 3, 3, {"forced": 1, "win": 2}),
        ("classic", 2, 1, {"win": 1}),
        ("classic", 4, 4, {"win": 2, "exhausted": 1, "redeal": 1}),
    ]


def test_it_gives_dealer_and_seat_advantage(club: dict[str, int]) -> None:
    four = group(global_stats(), "classic", 4)
    # Dealers: A and A2 seat 3 (Chi wins, +21 each), D seat 1 (0), E seat 2 (0).
    assert four["dealer"] == {"rounds": 4, "wins": 2, "win_rate": 0.5, "net_per_round": 42 / 4}
    assert four["others"] == {"rounds": 12, "wins": 0, "win_rate": 0.0, "net_per_round": -42 / 12}
    assert four["seats"] == [
        {"seat": 1, "rounds": 4, "wins": 0, "win_rate": 0.0, "net_per_round": -14 / 4},
        {"seat": 2, "rounds": 4, "wins": 0, "win_rate": 0.0, "net_per_round": -14 / 4},
        {"seat": 3, "rounds": 4, "wins": 2, "win_rate": 0.5, "net_per_round": 42 / 4},
        {"seat": 4, "rounds": 4, "wins": 0, "win_rate": 0.0, "net_per_round": -14 / 4},
    ]
    bga = group(global_stats(), "bga", 3)
    # Dealers: B1 Ann (+11), B2 Bao (-4), B3 Chi (-4); the winners (Chi, Bao) did not deal.
    assert bga["dealer"] == {"rounds": 3, "wins": 0, "win_rate": 0.0, "net_per_round": 1.0}
    assert bga["others"] == {"rounds": 6, "wins": 2, "win_rate": 2 / 6, "net_per_round": -0.5}


def test_it_gives_meld_frequencies_in_winning_hands(club: dict[str, int]) -> None:
    stats = global_stats()
    # A and A2: 2 three-colour, 2 command, 3 lone, 3 pair each.
    four = group(stats, "classic", 4)
    assert four["winning_hands"] == 2
    assert four["melds"] == mix(2, three_colour=4, command=4, lone=6, pair=6)
    # B2 (command 3, triple, three-colour, lone 2, pair 2) and B3 (command 2, triple 2, field,
    # lone 6); B1's forced finish is not a winning hand.
    bga = group(stats, "bga", 3)
    assert bga["winning_hands"] == 2
    assert bga["melds"] == mix(2, command=5, triple=3, three_colour=1, lone=8, pair=2, field=1)
    assert group(stats, "classic", 2)["melds"] == mix(1, three_colour=3, pair=4, triple=1, lone=1)


def test_it_applies_the_filters(club: dict[str, int]) -> None:
    assert [(g["ruleset"], g["players"]) for g in global_stats(ruleset="classic")["groups"]] == [
        ("classic", 2), ("classic", 4)
    ]
    assert [g["rounds"] for g in global_stats(players=4)["groups"]] == [4]
    dated = global_stats(since="2026-11-29", until="2026-12-01")  # C, D, E
    assert dated["rounds"] == 3
    assert group(dated, "classic", 4)["outcomes"] == {"exhausted": 1, "redeal": 1}
    assert group(dated, "classic", 4)["winning_hands"] == 0
    assert group(dated, "classic", 4)["melds"]["pair"] == {"count": 0, "per_hand": None}
    assert global_stats(since="2027-01-01") == {
        "filters": {"ruleset": None, "players": None, "since": "2027-01-01", "until": None},
        "rounds": 0,
        "groups": [],
    }


def test_it_refuses_a_bad_filter(club: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="unknown ruleset"):
        global_stats(ruleset="riichi")
