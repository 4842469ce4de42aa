"""A match's rounds in play order, with each player's running credit."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Prefetch, QuerySet

from records.models import Game, GameSeat, Match


@dataclass
class MatchRound:
    """One round of a match with its payments and the running credits after it."""

    game: Game
    number: int  # 1-based position in the match's order
    deltas: dict[str, int]  # player name -> this round's settlement
    credits: dict[str, int]  # player name -> total so far (every player seen so far)


def match_games(match: Match) -> QuerySet[Game]:
    """A match's rounds in play order: Round tag, then date, then upload order."""
    return match.games.order_by(
        F("round_number").asc(nulls_last=True), F("date").asc(nulls_last=True), "pk"
    )


def match_credits(match: Match) -> list[MatchRound]:
    """The rounds of a match with the running credit of each player after each round."""
    seats = Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))
    credits: dict[str, int] = {}
    rounds = []
    for number, game in enumerate(match_games(match).prefetch_related(seats), start=1):
        deltas: dict[str, int] = {}
        for seat in game.seats.all():
            name = seat.player.name
            deltas[name] = deltas.get(name, 0) + seat.delta
            credits[name] = credits.get(name, 0) + seat.delta
        rounds.append(MatchRound(game, number, deltas, dict(credits)))
    return rounds
