"""Matches: a series of rounds with a running credit balance per player (RULES.md §2, §7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .claims import next_seat
from .game import Game


def next_dealer(
    outcome: str, seat: int | None, dealer: int, players: int, below_threshold: bool = False
) -> int:
    """Next round's dealer (§2): the finisher; the same dealer after a redeal; the next seat
    after an exhausted or unfinished round, or a bga forced finish under the threshold."""
    if outcome == "redeal":
        return dealer
    if outcome in ("win", "forced") and seat is not None and not below_threshold:
        return seat
    return next_seat(dealer, players)


def is_below_threshold(game: Game) -> bool:
    threshold = game.ruleset.threshold
    finish = game.finish
    return finish.outcome == "forced" and threshold is not None and (finish.points or 0) < threshold


@dataclass
class MatchRound:
    game: Game
    deltas: dict[str, int]  # player name -> this round's payment
    credits: dict[str, int]  # player name -> running balance after this round
    expected_dealer: str | None  # who should have dealt, from the previous round; None first


@dataclass
class Match:
    """Rounds in play order; credits are kept per player name (seats may change)."""

    games: Sequence[Game]
    rounds: list[MatchRound] = field(init=False)

    def __post_init__(self) -> None:
        credits: dict[str, int] = {}
        self.rounds = []
        expected: str | None = None
        for game in self.games:
            names = game.record.seats
            deltas = {names[s - 1]: d for s, d in game.finish.settlement.items()}
            for name, delta in deltas.items():
                credits[name] = credits.get(name, 0) + delta
            self.rounds.append(MatchRound(game, deltas, dict(credits), expected))
            nxt = next_dealer(
                game.finish.outcome,
                game.finish.seat,
                game.record.dealer,
                game.record.players,
                is_below_threshold(game),
            )
            expected = names[nxt - 1]

    @property
    def credits(self) -> dict[str, int]:
        return dict(self.rounds[-1].credits) if self.rounds else {}

    def dealer_warnings(self) -> list[str]:
        """Rounds whose dealer is not the one the rules name after the previous round."""
        out = []
        for number, rnd in enumerate(self.rounds, start=1):
            actual = rnd.game.record.seats[rnd.game.record.dealer - 1]
            if rnd.expected_dealer is not None and actual != rnd.expected_dealer:
                out.append(
                    f"round {number}: {actual} deals, but the rules name {rnd.expected_dealer}"
                )
        return out
