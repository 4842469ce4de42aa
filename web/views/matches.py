"""Matches: the list (latest played first, with players, rounds, final credits and the
winner) and each match's rounds in play order with who won each and the running credits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, F, Max, Min, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

import fourcolor
from fourcolor.match import Match as EngineMatch

from jobs.analysis import Parameters
from jobs.batches import analysis_states
from ratings.stats import match_analysis_stats
from records.models import GameAnalysis, GameSeat, Match, Player
from records.services import MatchRound, match_credits
from web.outcomes import round_sentence

MATCHES_PAGE = 50


def dealer_warnings(rounds: list[MatchRound]) -> list[str]:
    """Rounds dealt by someone other than the player the rules name (engine's check)."""
    games = []
    for rnd in rounds:
        check = fourcolor.check_record(rnd.game.canonical_text)
        if check.game is None:
            return []  # a stale game: `manage.py revalidate` reports it; no guesses here
        games.append(check.game)
    return EngineMatch(games).dealer_warnings()


@dataclass
class Standing:
    """A player's final credits in a match."""

    player_id: int
    name: str
    credits: int


def standings(match_ids: list[int]) -> dict[int, list[Standing]]:
    """Per match: every player with the sum of their settlements, most credits first (then
    by name), in one query for a page of matches."""
    rows = (
        GameSeat.objects.filter(game__match_id__in=match_ids)
        .values("game__match_id", "player_id", "player__name")
        .annotate(credits=Sum("delta"))
    )
    out: dict[int, list[Standing]] = {pk: [] for pk in match_ids}
    for row in rows:
        out[row["game__match_id"]].append(
            Standing(row["player_id"], row["player__name"], row["credits"] or 0)
        )
    for table in out.values():
        table.sort(key=_rank)
    return out


def _rank(standing: Standing) -> tuple[int, str, int]:
    """Most credits first, then by name."""
    return -standing.credits, standing.name.casefold(), standing.player_id


def winners(table: list[Standing]) -> list[Standing]:
    """Those with the most credits, when they have more than someone else (a match where
    nobody has won or lost anything has no winner; a tie at the top has several)."""
    if not table or table[0].credits == table[-1].credits:
        return []
    return [s for s in table if s.credits == table[0].credits]


@require_safe
def match_list(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.annotate(
        rounds=Count("games"), first=Min("games__date"), last=Max("games__date")
    ).order_by(F("last").desc(nulls_last=True), "-id")
    page = Paginator(matches, MATCHES_PAGE).get_page(request.GET.get("page"))
    tables = standings([m.pk for m in page.object_list])
    rows = [
        {"match": m, "standings": tables[m.pk], "winners": winners(tables[m.pk])}
        for m in page.object_list
    ]
    return render(request, "records/match_list.html", {"page": page, "rows": rows})


def round_outcome(rnd: MatchRound) -> str:
    """Who won the round and on whose card, from the stored seats (no replay)."""
    game = rnd.game
    seats = list(game.seats.all())
    finisher = next((s for s in seats if s.seat == game.finisher), None)
    owner = next((s for s in seats if s.dealt_in), None)
    return round_sentence(
        game.outcome, finisher.name if finisher else "", game.points, game.on,
        owner.name if owner else "",
    )


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    rounds = match_credits(match)
    players: dict[str, Player] = {}  # by name, in the order they first play
    for rnd in rounds:
        for seat in rnd.game.seats.all():
            players.setdefault(seat.player.name, seat.player)
    names = list(players)
    rows = [
        {
            "round": rnd,
            "outcome": round_outcome(rnd),
            "cells": [
                {"delta": rnd.deltas.get(name), "credit": rnd.credits.get(name)}
                for name in names
            ],
        }
        for rnd in rounds
    ]
    final = rounds[-1].credits if rounds else {}
    table = sorted((Standing(players[name].pk, name, final.get(name, 0)) for name in names),
                   key=_rank)
    return render(
        request,
        "records/match.html",
        {
            "match": match,
            "rows": rows,
            "players": [players[name] for name in names],
            "totals": [final.get(name, 0) for name in names],
            "warnings": dealer_warnings(rounds),
            "winners": winners(table),
            "analysis": match_analysis(match, [rnd.game.pk for rnd in rounds],
                                       [players[name] for name in names]),
        },
    )


def match_analysis(match: Match, game_ids: list[int], players: list[Player]) -> dict[str, Any]:
    """The match's rounds as the reviewer rated them: how many are analysed, being analysed
    and left to ask for (with the default parameters; `again`: of those, how many have an
    analysis made otherwise), and each player's decisions over the analysed ones, in the
    table's order of players."""
    by_player = match_analysis_stats(match.pk)
    analysed = set(GameAnalysis.objects.filter(game_id__in=game_ids)
                   .values_list("game_id", flat=True))
    rounds = set(game_ids)
    # Queued by a reader of one round, or by a batch of the match's rounds (before it has
    # run too): what a request now would leave out.
    current, queued = analysis_states(game_ids, Parameters.of(), match=match.pk)
    to_ask = rounds - current - queued
    return {
        "rounds": len(game_ids),
        "analysed": len(analysed),
        "running": len(queued),
        "to_ask": len(to_ask),
        "again": len(to_ask & analysed),  # stored, but by other settings or engine
        "rows": [_player_row(player, by_player[player.pk])
                 for player in players if player.pk in by_player],
    }


def _player_row(player: Player, figures: dict[str, Any]) -> dict[str, Any]:
    """A player's analysed decisions (`match_analysis_stats`) as a row of the table the
    replay's end panel has for its seats (records/_analysis_seats.html)."""
    return {
        "player": player.pk, "name": player.name,
        "accuracy": figures["decision_accuracy"], "mean_loss": figures["mean_loss_per_decision"],
        **{key: figures[key]
           for key in ("rounds", "decisions", "inaccuracies", "mistakes", "blunders")},
    }
