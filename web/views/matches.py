"""Matches: the rounds of one match in play order with each player's running credits."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count, Max, Min
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

import fourcolor
from fourcolor.match import Match as EngineMatch

from records.models import Match
from records.services import MatchRound, match_credits

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


@require_safe
def match_list(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.annotate(
        rounds=Count("games"), first=Min("games__date"), last=Max("games__date")
    ).order_by("-id")
    page = Paginator(matches, MATCHES_PAGE).get_page(request.GET.get("page"))
    return render(request, "records/match_list.html", {"page": page})


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    rounds = match_credits(match)
    names: list[str] = []
    players = {}
    for rnd in rounds:
        for seat in rnd.game.seats.all():
            if seat.player.name not in players:
                names.append(seat.player.name)
                players[seat.player.name] = seat.player
    rows = [
        {
            "round": rnd,
            "cells": [
                {"delta": rnd.deltas.get(name), "credit": rnd.credits.get(name)}
                for name in names
            ],
        }
        for rnd in rounds
    ]
    final = rounds[-1].credits if rounds else {}
    return render(
        request,
        "records/match.html",
        {
            "match": match,
            "rows": rows,
            "players": [players[name] for name in names],
            "totals": [final.get(name, 0) for name in names],
            "warnings": dealer_warnings(rounds),
        },
    )
