"""Storing an analysis: the engine's JSON kept as written, one row per seat with the counts the
statistics add up, a new analysis replacing the old one whole, and `revalidate` marking the
analyses of another engine stale."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

import fourcolor
from fourcolor.analysis import Analysis, analyse
from records.analysis import load_record, mark_stale_analyses, store_analysis
from records.models import Game, GameAnalysis, GameSeat, SeatAnalysis

from tests.analysis.fixtures import SAMPLES

pytestmark = pytest.mark.django_db


def _analysis(game_id: int, seed: int = 0) -> Any:
    return analyse(load_record(Game.objects.get(pk=game_id)), samples=SAMPLES, seed=seed)


def test_it_keeps_the_engines_result_with_its_parameters(four_seat_id: int) -> None:
    analysis = _analysis(four_seat_id, seed=3)

    row = store_analysis(four_seat_id, analysis, seconds=1.25)

    assert (row.engine_version, row.samples, row.seed, row.stale) == (
        fourcolor.__version__, SAMPLES, 3, False)
    assert row.result == analysis.to_dict()
    assert Analysis.from_dict(row.result) == analysis
    assert row.decisions == len(analysis.decisions) > 0
    assert row.seconds == 1.25


def test_it_writes_one_row_per_seat_with_its_verdict_counts(four_seat_id: int) -> None:
    analysis = _analysis(four_seat_id)

    row = store_analysis(four_seat_id, analysis)

    players = dict(GameSeat.objects.filter(game_id=four_seat_id).values_list("seat", "player"))
    seats = list(SeatAnalysis.objects.filter(analysis=row).order_by("seat"))
    assert [s.seat for s in seats] == [1, 2, 3, 4]
    for seat in seats:
        mine = [d for d in analysis.decisions if d.seat == seat.seat]
        assert seat.player_id == players[seat.seat]
        assert seat.game_id == four_seat_id
        assert seat.decisions == len(mine) == analysis.seats[seat.seat].decisions
        assert seat.good == sum(d.verdict == "good" for d in mine)
        assert seat.inaccuracies == sum(d.verdict == "inaccuracy" for d in mine)
        assert seat.mistakes == sum(d.verdict == "mistake" for d in mine)
        assert seat.blunders == sum(d.verdict == "blunder" for d in mine)
        assert seat.loss == pytest.approx(sum(d.loss for d in mine))
        assert seat.accuracy == pytest.approx(analysis.seats[seat.seat].accuracy, abs=1e-3)
        assert seat.mean_loss == pytest.approx(analysis.seats[seat.seat].mean_loss, abs=1e-3)


def test_a_new_analysis_replaces_the_old_one(game_id: int) -> None:
    first = store_analysis(game_id, _analysis(game_id, seed=1))
    second_analysis = _analysis(game_id, seed=2)

    second = store_analysis(game_id, second_analysis)

    assert not GameAnalysis.objects.filter(pk=first.pk).exists()
    assert GameAnalysis.objects.get(game_id=game_id).seed == 2
    assert SeatAnalysis.objects.filter(game_id=game_id).count() == 2
    assert set(SeatAnalysis.objects.values_list("analysis", flat=True)) == {second.pk}


def test_it_refuses_to_store_for_a_deleted_game(game_id: int) -> None:
    analysis = _analysis(game_id)
    Game.objects.filter(pk=game_id).delete()

    with pytest.raises(Game.DoesNotExist):
        store_analysis(game_id, analysis)
    assert not GameAnalysis.objects.exists()


def test_deleting_the_game_deletes_its_analysis(game_id: int) -> None:
    store_analysis(game_id, _analysis(game_id))

    Game.objects.get(pk=game_id).delete()

    assert not GameAnalysis.objects.exists() and not SeatAnalysis.objects.exists()


def test_revalidate_marks_the_analyses_of_another_engine_stale(
    game_id: int, four_seat_id: int
) -> None:
    store_analysis(game_id, _analysis(game_id))
    store_analysis(four_seat_id, _analysis(four_seat_id))
    GameAnalysis.objects.filter(game_id=game_id).update(engine_version="0.9.0")

    out = io.StringIO()
    call_command("revalidate", stdout=out)

    stale = dict(GameAnalysis.objects.values_list("game_id", "stale"))
    assert stale == {game_id: True, four_seat_id: False}
    assert "1 stored analyses made by another engine version (stale)" in out.getvalue()


def test_revalidate_stale_only_also_marks_them(game_id: int) -> None:
    store_analysis(game_id, _analysis(game_id))
    GameAnalysis.objects.update(engine_version="0.9.0")
    # The game itself was checked by this engine: `--stale` skips it, not its analysis.
    call_command("revalidate", "--stale", stdout=_Null())

    assert GameAnalysis.objects.get().stale


def test_an_analysis_of_this_engine_is_current_again(game_id: int) -> None:
    store_analysis(game_id, _analysis(game_id))
    GameAnalysis.objects.update(stale=True)

    assert mark_stale_analyses() == 0
    assert not GameAnalysis.objects.get().stale


class _Null:
    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass
