"""An upload's verdicts as the result page and the job page list them: one row per record
listed in its report, with the stored (or duplicated) game's details and the offending line
split around the column at fault."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from django.db.models import Prefetch

from records.models import Game, GameSeat
from records.services import ImportReport, RecordResult
from records.services.report import describe_differences
from records.variants import describe


def _marked_line(error: dict[str, Any]) -> dict[str, str] | None:
    """The offending line split around the column at fault, for a visible marker."""
    text = error.get("text") or ""
    if not text:
        return None
    col = int(error.get("col") or 0)
    index = max(col - 1, 0)
    if col <= 0 or index >= len(text):
        return {"before": text, "at": "", "after": ""}
    return {"before": text[:index], "at": text[index], "after": text[index + 1:]}


def verdict_rows(report: ImportReport) -> list[dict[str, Any]]:
    ids = {r.game_id for r in report.results if r.game_id is not None}
    seats = Prefetch("seats", queryset=GameSeat.objects.order_by("seat"))
    try:
        games = {
            g.pk: g
            for g in Game.objects.filter(pk__in=ids)
            .only("pk", "ruleset", "switches", "players", "result_tag", "date")
            .prefetch_related(seats)
        }
    except (OperationalError, InterfaceError):
        # The database that stopped the import is still down: list the verdicts without the
        # games' details (each still links to its game) rather than fail the whole page.
        games = {}
    variants = getattr(report, "variants", {})  # a check's valid records (CheckReport)
    return [_row(result, games, variants.get(result.index, "")) for result in report.results]


def _row(result: RecordResult, games: dict[int, Game], variant: str) -> dict[str, Any]:
    game = games.get(result.game_id) if result.game_id is not None else None
    if game is not None:
        variant = describe(game.ruleset, game.switches, game.players)
    return {
        "number": result.index + 1,
        "line": result.line,
        "status": result.status,
        "game": game,
        "variant": variant,  # the game's ruleset, house rules and table in words
        "game_id": result.game_id,
        "error": result.error,
        "marked": _marked_line(result.error) if result.error else None,
        "differences": describe_differences(result.differences),
    }
