"""Storing a game's analysis (`fourcolor.analysis`) and telling when it is out of date.

The engine rates every decision of a round by simulation (docs/analysis.md, "The method"); here
its result is kept per game with what made it (engine version, samples, seed), in one
transaction with the per-seat rows that the statistics add up. Running the analysis is a
background job (jobs/analysis.py): nothing here simulates anything.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import transaction
from django.utils import timezone

import fourcolor
from fourcolor.analysis import Analysis

from records.models import Game, GameAnalysis, GameSeat, SeatAnalysis


def load_record(game: Game) -> fourcolor.Record:
    """The record the analysis reads: the game's canonical text, as the replay reads it."""
    return fourcolor.parse_record(game.canonical_text)


def seat_counts(analysis: Analysis) -> dict[int, dict[str, Any]]:
    """Per seat: decisions, the number of each verdict and the summed loss (the columns of
    SeatAnalysis), from the decisions themselves."""
    counts: dict[int, dict[str, Any]] = {}
    for seat in analysis.seats:
        mine = [d for d in analysis.decisions if d.seat == seat]
        verdicts = Counter(d.verdict for d in mine)
        counts[int(seat)] = {
            "decisions": len(mine),
            "good": verdicts["good"],
            "inaccuracies": verdicts["inaccuracy"],
            "mistakes": verdicts["mistake"],
            "blunders": verdicts["blunder"],
            "loss": float(sum(d.loss for d in mine)),
        }
    return counts


def store_analysis(
    game_id: int, analysis: Analysis, *, seconds: float = 0.0, requested_by: Any = None
) -> GameAnalysis:
    """Replace the game's analysis (if any) by `analysis`, with its seat rows, in one
    transaction. Raises Game.DoesNotExist when the game was deleted meanwhile."""
    with transaction.atomic():
        # Locks the game: a deletion running at the same time waits, or wins and we raise.
        Game.objects.select_for_update().only("pk").get(pk=game_id)
        GameAnalysis.objects.filter(game_id=game_id).delete()
        user = requested_by if getattr(requested_by, "is_authenticated", False) else None
        row = GameAnalysis.objects.create(
            game_id=game_id,
            engine_version=analysis.engine,
            samples=analysis.samples,
            seed=analysis.seed,
            result=analysis.to_dict(),
            decisions=len(analysis.decisions),
            analysed_at=timezone.now(),
            seconds=round(seconds, 3),
            requested_by=user,
            stale=analysis.engine != fourcolor.__version__,
        )
        players = dict(
            GameSeat.objects.filter(game_id=game_id).values_list("seat", "player_id")
        )
        SeatAnalysis.objects.bulk_create(
            SeatAnalysis(analysis=row, game_id=game_id, seat=seat, player_id=players[seat],
                         **counts)
            for seat, counts in sorted(seat_counts(analysis).items())
            if seat in players
        )
    return row


def mark_stale_analyses() -> int:
    """Mark every analysis made by another engine version than this one as stale (and clear
    the mark of those made by this one); returns how many are stale. `revalidate` calls it,
    whichever games it checks: an engine change may change every rating, and the analysis of a
    game the engine still reads the same is as old as any other."""
    current = fourcolor.__version__
    GameAnalysis.objects.filter(engine_version=current, stale=True).update(stale=False)
    GameAnalysis.objects.exclude(engine_version=current).filter(stale=False).update(stale=True)
    return GameAnalysis.objects.filter(stale=True).count()
