"""Matches: rounds with Match/Round tags, the next dealer, running credits (RULES.md §2, §7)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from fourcolor import Match, next_dealer, validate
from fourcolor.game import Game
from fourcolor.generate import generate_match
from fourcolor.notation import Record
from fourcolor.rulesets import get_ruleset
from tests.engine.helpers import (
    FORCED_EVENTS,
    FORCED_HAND,
    FORCED_RESERVE,
    GENERALS_EVENTS,
    GENERALS_HAND,
    WIN_HAND,
    play,
)


def expected_next_dealer(game: Game) -> int:
    """RULES.md §2, written out again: the finisher deals next, unless it was a bga forced
    finish under the threshold; the same dealer after a redeal; else the seat after the dealer."""
    record, rs = game.record, game.ruleset
    dealer, players = record.dealer, record.players
    if game.finish.outcome == "redeal":
        return dealer
    if game.finish.outcome == "win":
        assert game.finish.seat is not None
        return game.finish.seat
    if game.finish.outcome == "forced":
        assert game.finish.seat is not None and game.finish.points is not None
        if rs.threshold is None or game.finish.points >= rs.threshold:
            return game.finish.seat
    return dealer % players + 1


def branch(game: Game) -> str:
    if game.finish.outcome == "forced":
        rs = game.ruleset
        below = rs.threshold is not None and (game.finish.points or 0) < rs.threshold
        return "forced-below" if below else "forced"
    return game.finish.outcome


def running_credits(games: list[Game]) -> list[dict[str, int]]:
    """The balance of every player (by name) after each round: cumulative settlements."""
    total: dict[str, int] = {}
    out = []
    for game in games:
        for seat, delta in game.finish.settlement.items():
            name = game.record.seats[seat - 1]
            total[name] = total.get(name, 0) + delta
        out.append(dict(total))
    return out


@pytest.mark.parametrize(
    "outcome,seat,dealer,players,below,want",
    [
        ("win", 3, 1, 4, False, 3),
        ("win", 1, 1, 4, False, 1),
        ("forced", 2, 4, 4, False, 2),
        ("forced", 2, 4, 4, True, 1),  # bga under the threshold: the deal passes on
        ("redeal", 2, 3, 4, False, 3),  # the same dealer deals again
        ("exhausted", None, 4, 4, False, 1),
        ("exhausted", None, 2, 3, False, 3),
        ("exhausted", None, 2, 2, False, 1),
        ("unfinished", None, 1, 3, False, 2),
    ],
)
def test_it_names_the_next_dealer(
    outcome: str, seat: int | None, dealer: int, players: int, below: bool, want: int
) -> None:
    assert next_dealer(outcome, seat, dealer, players, below) == want


def test_it_tags_every_round_of_a_match() -> None:
    records = generate_match(
        "bga", 3, 7, match_id="m-7", date="2026.01.02", event="club", names=["A", "B", "C"]
    )
    assert len(records) == get_ruleset("bga").match_rounds == 3
    for number, record in enumerate(records, start=1):
        assert record.tags["Match"] == "m-7"
        assert record.tags["Round"] == str(number)
        assert record.tags["Date"] == "2026.01.02"
        assert record.tags["Event"] == "club"
        assert record.seats == ("A", "B", "C")
    assert records[0].dealer == 1
    assert len(generate_match("classic", 4, 7)) == 1  # classic: one round by default


# Configurations whose seeds, between them, end rounds in every way the dealer rule knows.
MATCHES = [
    ("classic", 4, "greedy"),
    ("bga", 4, "greedy"),
    ("bga", 4, "random"),
    ("bga", 2, "random"),
]


@lru_cache(maxsize=1)
def _matches() -> list[list[Record]]:
    return [
        generate_match(rs, players, seed, rounds=5, bot=bot)
        for rs, players, bot in MATCHES
        for seed in range(12)
    ]


def test_it_passes_the_deal_by_the_rules_in_generated_matches() -> None:
    seen: set[str] = set()
    for records in _matches():
        games = [validate(r) for r in records]
        for before, after in zip(games, records[1:], strict=False):
            assert after.dealer == expected_next_dealer(before), (
                before.finish.outcome, before.finish.seat)
            seen.add(branch(before))
        assert Match(games).dealer_warnings() == []
    assert {"win", "redeal", "exhausted", "forced-below"} <= seen


def test_it_keeps_running_credits_as_the_sum_of_settlements() -> None:
    for records in _matches()[::5]:
        games = [validate(r) for r in records]
        match = Match(games)
        want = running_credits(games)
        assert [r.credits for r in match.rounds] == want
        assert match.credits == want[-1]
        assert sum(match.credits.values()) == 0
        for rnd, game in zip(match.rounds, games, strict=True):
            names = game.record.seats
            assert rnd.deltas == {names[s - 1]: d for s, d in game.finish.settlement.items()}


def test_it_totals_a_hand_built_match() -> None:
    # Round 1 (P1 deals): P2 wins in bga with 15 and lucky rA (3 held): P1 pays 9.
    # Round 2 (P1 deals again, though P2 won): P2 forced under the threshold pays 11.
    win = play({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR", ruleset="bga", lucky="rA")
    forced = play({1: "rC", 2: FORCED_HAND}, FORCED_EVENTS, ruleset="bga", reserve=FORCED_RESERVE)
    match = Match([win, forced])
    assert [r.credits for r in match.rounds] == [{"P1": -9, "P2": 9}, {"P1": 2, "P2": -2}]
    assert [r.expected_dealer for r in match.rounds] == [None, "P2"]
    assert match.dealer_warnings() == ["round 2: P1 deals, but the rules name P2"]
    # After the forced finish under the threshold the deal passes from P1 to P2.
    assert Match([forced, win]).rounds[1].expected_dealer == "P2"
    assert Match([forced, forced]).dealer_warnings() == ["round 2: P1 deals, but the rules name P2"]


def test_it_lets_a_bga_finisher_over_the_threshold_deal_next() -> None:
    # The 16-generals forced finish scores 25 >= 10: it counts as P2's win for the deal.
    forced = play(
        {1: "rC", 2: GENERALS_HAND}, GENERALS_EVENTS, ruleset="bga", reserve="yR", lucky="rK"
    )
    assert expected_next_dealer(forced) == 2
    assert Match([forced, forced]).rounds[1].expected_dealer == "P2"
