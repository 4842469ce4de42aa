"""What the player page reads instead of a player's whole history (docs/performance.md, "Archive
scale"): each seat's copy of its game's date (`GameSeat.date`, the net chart's order)
and the rounds without a winner in the totals (`PlayerTotals.no_winner`, the outcome bar). Both
are derived data: right after an import, a deletion, `recompute_stats`, `revalidate --update`
and the migrations that fill them in an existing archive."""

from __future__ import annotations

import importlib
import io
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from ratings.models import PlayerTotals
from ratings.services import catch_up, recompute_stats
from ratings.totals import levels
from records.deletion import delete_game
from records.models import Game, GameSeat
from tests.stats.conftest import player

pytestmark = pytest.mark.django_db

NO_WINNER = {"exhausted", "redeal", "unfinished"}
seat_dates_step = importlib.import_module("records.migrations.0007_gameseat_date")
no_winner_step = importlib.import_module("ratings.migrations.0005_playertotals_no_winner")


def counted_without_winner() -> dict[tuple[int, str, int], int]:
    """The counted rounds without a winner per (player, ruleset, players) and roll-up, worked
    out in Python from the seats (a player holding two seats of a round counts it once)."""
    seen: set[tuple[int, str, int, int]] = set()
    out: Counter[tuple[int, str, int]] = Counter()
    rows = GameSeat.objects.filter(game__counted__isnull=False).values_list(
        "player_id", "game_id", "game__ruleset", "game__players", "game__outcome"
    )
    for player_id, game_id, ruleset, players, outcome in rows:
        if outcome not in NO_WINNER:
            continue
        for group in levels(ruleset, players):
            if (player_id, *group, game_id) not in seen:
                seen.add((player_id, *group, game_id))
                out[(player_id, *group)] += 1
    return dict(out)


def stored_without_winner() -> dict[tuple[int, str, int], int]:
    return {
        (t.player_id, t.ruleset, t.players): t.no_winner
        for t in PlayerTotals.objects.exclude(no_winner=0)
    }


def any_group(name: str) -> int:
    return PlayerTotals.objects.get(player=player(name), ruleset="", players=0).no_winner


def seat_dates_differ() -> list[tuple[int, int]]:
    dates = dict(Game.objects.values_list("pk", "date"))
    return [(game_id, seat) for game_id, seat, date
            in GameSeat.objects.values_list("game_id", "seat", "date") if date != dates[game_id]]


def test_it_counts_rounds_without_a_winner_and_dates_the_seats_at_import(
    club: dict[str, int],
) -> None:
    # D is exhausted (Ann, Bao, Chi, Dung), E redealt (Bao, Chi, Dung, Em).
    assert Game.objects.get(pk=club["D"]).outcome == "exhausted"
    assert Game.objects.get(pk=club["E"]).outcome == "redeal"
    assert (any_group("Ann"), any_group("Bao"), any_group("Em")) == (1, 2, 1)
    assert stored_without_winner() == counted_without_winner()
    assert GameSeat.objects.filter(date__isnull=True).count() == 0
    assert seat_dates_differ() == []


def test_it_recounts_them_with_recompute_stats(club: dict[str, int]) -> None:
    expected = stored_without_winner()
    PlayerTotals.objects.update(no_winner=99)
    recompute_stats()
    assert stored_without_winner() == expected == counted_without_winner()


def test_it_uncounts_a_deleted_round(
    club: dict[str, int], django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        delete_game(club["D"])
    catch_up()
    assert (any_group("Ann"), any_group("Bao")) == (0, 1)
    assert stored_without_winner() == counted_without_winner()


def test_it_finds_and_rewrites_a_seat_date_that_drifted_with_revalidate(
    club: dict[str, int], django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    GameSeat.objects.filter(game_id=club["D"], seat=2).update(date=None)
    out = io.StringIO()
    call_command("revalidate", stdout=out)
    assert f"game {club['D']}: " in out.getvalue() and "seat 2 date" in out.getvalue()
    assert Game.objects.get(pk=club["D"]).stale
    with django_capture_on_commit_callbacks(execute=True):
        call_command("revalidate", "--update", stdout=io.StringIO())
    catch_up()
    assert seat_dates_differ() == []
    assert not Game.objects.get(pk=club["D"]).stale  # (A2 stays: the engine now refuses it)
    assert stored_without_winner() == counted_without_winner()


def test_it_fills_both_in_an_existing_archive_by_migration(club: dict[str, int]) -> None:
    expected = stored_without_winner()
    # What the archive held before the migrations: no seat dates, no such counter.
    GameSeat.objects.update(date=None)
    PlayerTotals.objects.update(no_winner=0)
    editor = SimpleNamespace(connection=connection)
    seat_dates_step.backfill(apps, editor)
    no_winner_step.recount(apps, editor)
    assert seat_dates_differ() == []
    assert stored_without_winner() == expected == counted_without_winner()
