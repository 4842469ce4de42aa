"""The work a job does that a whole job and a part of a split job share: the report's limits,
a revalidation's chunk and counts."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

import fourcolor
from records.models import Game
from records.services import ImportReport, RevalidateReport, revalidate_games

# Per-record results and problems kept in a job's report (the counts cover every record).
MAX_RESULTS = 1000
MAX_PROBLEMS = 100
# Games revalidated between two progress reports.
REVALIDATE_CHUNK = 500


def new_report(data: dict[str, Any] | None = None) -> ImportReport:
    """A job's import report (empty, or read back from `Job.report`), with its limits."""
    if data:
        return ImportReport.from_dict(data, max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS)
    return ImportReport(max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS)


COUNTS = ("checked", "unchanged", "changed", "refused", "updated", "details_omitted")


def revalidate_report(report: RevalidateReport) -> dict[str, Any]:
    details = [{"game_id": pk, "reason": reason} for pk, reason in report.details]
    return {key: getattr(report, key) for key in COUNTS} | {"details": details}


def revalidated_games(*, stale: bool) -> QuerySet[Game]:
    """The games a revalidation checks: every game, or (`stale`) those validated by another
    engine version."""
    games = Game.objects.all()
    return games.exclude(engine_version=fourcolor.__version__) if stale else games


def add_revalidated(totals: dict[str, Any], reports: list[dict[str, Any]]) -> dict[str, Any]:
    """`totals` with these revalidation counts added, the details the first MAX_PROBLEMS."""
    for key in COUNTS:
        totals[key] = int(totals.get(key, 0)) + sum(int(r.get(key, 0)) for r in reports)
    details = list(totals.get("details", [])) + [d for r in reports for d in r.get("details", [])]
    totals["details"] = details[:MAX_PROBLEMS]
    totals["details_omitted"] += len(details) - len(totals["details"])
    return totals


def revalidate_next(games: QuerySet[Game], last_id: int, totals: dict[str, Any], *,
                    update: bool) -> list[int]:
    """Revalidate the next chunk of `games` after id `last_id` and add its counts and details
    to `totals`; the chunk's ids, none when all are done. A whole job and a job's part go
    through their games with it."""
    chunk = list(games.filter(pk__gt=last_id).order_by("pk")
                 .values_list("pk", flat=True)[:REVALIDATE_CHUNK])
    if not chunk:
        return chunk
    report = revalidate_games(Game.objects.filter(pk__in=chunk), update=update,
                              chunk_size=REVALIDATE_CHUNK, max_details=MAX_PROBLEMS)
    add_revalidated(totals, [revalidate_report(report)])
    return chunk
