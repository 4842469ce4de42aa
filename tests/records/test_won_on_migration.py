"""records.0004 and ratings.0004: stored rounds get whose card ended them (self_draw, draw,
discard) recomputed from their records, and the stored totals recounted.

The archive is imported with the current code (three values), put back into the shape the
old code stored (`draw` for any draw, one wins-on-draw counter), and the migrations' data steps
must give back exactly what the import wrote."""

from __future__ import annotations

import importlib
from collections import Counter
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import F

from ratings.models import PlayerTotals
from records.models import Game, GameSeat
from records.services import import_records

from .conftest import fcn_file, good_texts

pytestmark = pytest.mark.django_db

records_step = importlib.import_module("records.migrations.0004_won_on_whose_card")
ratings_step = importlib.import_module("ratings.migrations.0004_wins_on_self_draw")


def stored() -> tuple[dict[int, str | None], dict[tuple[int, int], str | None]]:
    games = dict(Game.objects.values_list("pk", "on"))
    seats = {(g, s): w for g, s, w in GameSeat.objects.values_list("game_id", "seat", "won_on")}
    return games, seats


def totals() -> dict[tuple[int, str, int], tuple[int, int, int]]:
    return {
        (t.player_id, t.ruleset, t.players): (
            t.wins_on_self_draw, t.wins_on_draw, t.wins_on_discard
        )
        for t in PlayerTotals.objects.all()
    }


@pytest.fixture
def archive() -> None:
    report = import_records(fcn_file(good_texts(60)))
    assert report.stored == 60


def test_it_recomputes_whose_draw_a_round_was_won_on_from_its_record(archive: None) -> None:
    games, seats = stored()
    sources = Counter(games.values())
    # The sample has all three, or the test would not tell them apart.
    assert sources["self_draw"] > 0 and sources["draw"] > 0 and sources["discard"] > 0
    # What the old code stored: `draw` for either draw.
    records_step.merge_draws(apps, SimpleNamespace(connection=connection))
    assert Game.objects.filter(on="self_draw").count() == 0
    assert GameSeat.objects.filter(won_on="self_draw").count() == 0
    records_step.split_draws(apps, SimpleNamespace(connection=connection))
    assert stored() == (games, seats)


def test_it_recounts_the_stored_totals(archive: None) -> None:
    want = totals()
    assert sum(v[0] for v in want.values()) > 0 and sum(v[1] for v in want.values()) > 0
    # The old totals: one counter for wins on any draw.
    PlayerTotals.objects.update(
        wins_on_draw=F("wins_on_draw") + F("wins_on_self_draw"), wins_on_self_draw=0
    )
    assert totals() != want
    ratings_step.recount(apps, SimpleNamespace(connection=connection))
    assert totals() == want


def test_it_leaves_a_game_whose_text_no_longer_reads_as_it_was(archive: None) -> None:
    game = Game.objects.filter(on="self_draw").first()
    assert game is not None
    records_step.merge_draws(apps, SimpleNamespace(connection=connection))
    Game.objects.filter(pk=game.pk).update(canonical_text="not a record")
    records_step.split_draws(apps, SimpleNamespace(connection=connection))
    assert Game.objects.get(pk=game.pk).on == "draw"  # revalidate reports it; not guessed here
    assert Game.objects.filter(on="self_draw").exists()  # the others were recomputed
