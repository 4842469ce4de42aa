"""manage.py revalidate: the engine re-run over stored originals finds what changed."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

import fourcolor
from records.models import Game, GameSeat
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts, match_texts

pytestmark = pytest.mark.django_db


def _revalidate(*args: str) -> str:
    out = io.StringIO()
    call_command("revalidate", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _import(count: int = 5) -> list[int]:
    report = import_records(fcn_file(good_texts(count, start=200)))
    return [r.game_id for r in report.results if r.game_id is not None]


def test_it_finds_nothing_to_report_in_an_untouched_archive() -> None:
    _import()
    import_records(fcn_file(match_texts("reval-match", rounds=2)))
    out = _revalidate()
    assert "checked 7 games" in out and "7 unchanged, 0 changed, 0 now refused" in out
    assert not Game.objects.filter(stale=True).exists()


def test_it_finds_and_marks_a_game_whose_derived_data_was_changed_by_hand() -> None:
    ids = _import()
    Game.objects.filter(pk=ids[1]).update(points=999)
    seat = GameSeat.objects.filter(game_id=ids[3]).order_by("seat").first()
    assert seat is not None
    GameSeat.objects.filter(pk=seat.pk).update(delta=seat.delta + 5, pongs=seat.pongs + 1)
    out = _revalidate()
    assert "5 games" in out and "3 unchanged, 2 changed" in out
    assert f"game {ids[1]}: engine {fourcolor.__version__}: points: stored 999" in out
    assert f"game {ids[3]}:" in out and f"seat {seat.seat} delta: stored {seat.delta + 5}" in out
    assert f"seat {seat.seat} pongs" in out
    stale = dict(Game.objects.filter(stale=True).values_list("pk", "stale_reason"))
    assert set(stale) == {ids[1], ids[3]}
    assert "points: stored 999" in stale[ids[1]]


def test_it_finds_a_changed_match_player_and_tags() -> None:
    ids = _import(3)
    game = Game.objects.get(pk=ids[0])
    tags = dict(game.tags, Event="edited")
    Game.objects.filter(pk=ids[1]).update(tags=tags)
    other = GameSeat.objects.filter(game_id=ids[2]).order_by("seat").last()
    first = GameSeat.objects.filter(game_id=ids[2]).order_by("seat").first()
    assert other is not None and first is not None and other.player_id != first.player_id
    GameSeat.objects.filter(pk=first.pk).update(player_id=other.player_id)
    out = _revalidate()
    assert f"game {ids[1]}: " in out and "tags: stored" in out
    assert f"seat {first.seat} player: stored" in out


def test_it_marks_a_game_the_engine_now_refuses() -> None:
    ids = _import(2)
    game = Game.objects.get(pk=ids[0])
    broken = game.original_text.replace("[Dealer", "[Dealer \"9\"]\n[Dealerx", 1)
    Game.objects.filter(pk=ids[0]).update(original_text=broken)
    out = _revalidate()
    assert "1 now refused" in out
    assert f"game {ids[0]}: engine {fourcolor.__version__}: now refused: " in out
    assert Game.objects.get(pk=ids[0]).stale


def test_it_rechecks_only_games_of_another_engine_version_with_stale() -> None:
    ids = _import(4)
    Game.objects.filter(pk=ids[0]).update(engine_version="0.9.0", points=12345)
    Game.objects.filter(pk=ids[1]).update(points=54321)  # current version: not looked at
    out = _revalidate("--stale")
    assert "checked 1 games" in out and "points: stored 12345" in out
    assert list(Game.objects.filter(stale=True).values_list("pk", flat=True)) == [ids[0]]
    # Still of the old version: a later --stale run looks at it again.
    assert Game.objects.get(pk=ids[0]).engine_version == "0.9.0"


def test_it_rewrites_changed_derived_data_with_update_and_clears_the_mark() -> None:
    ids = _import(3)
    original = Game.objects.get(pk=ids[2])
    Game.objects.filter(pk=ids[2]).update(points=1, engine_version="0.1", stale=True)
    GameSeat.objects.filter(game_id=ids[2]).delete()
    out = _revalidate("--update")
    assert "1 updated" in out
    game = Game.objects.get(pk=ids[2])
    assert game.points == original.points and not game.stale
    assert game.engine_version == fourcolor.__version__
    assert game.seats.count() == game.players
    assert "0 changed" in _revalidate() and "3 unchanged" in _revalidate()
