"""`manage.py revalidate [--stale] [--update]`: re-run the engine over stored original texts.

After an engine upgrade (or to audit the archive), every game's original text is checked again
and everything derived from it compared with what is stored: the verdict, every derived column,
the match and every seat row. Games that differ are reported and marked `stale` with the
reason; games that agree are stamped with the current engine version.

With `--background` the work is a background job (jobs/), queued for the job worker (Celery's
when a broker is configured, `manage.py run_jobs` otherwise): follow it at /jobs/<id>/ or
/api/v1/jobs/<id>/.
"""

from __future__ import annotations

from typing import Any

import fourcolor
from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from jobs.publish import request_stats
from jobs.queue import submit_revalidate
from jobs.work import revalidated_games
from records.services import revalidate_games


class Command(BaseCommand):
    help = "Re-validate stored games with the current engine; report and mark those that changed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--stale", action="store_true",
            help=f"only games validated by another engine version than {fourcolor.__version__}",
        )
        parser.add_argument(
            "--update", action="store_true",
            help="rewrite the derived data of games that are still valid but changed",
        )
        parser.add_argument("--max-details", type=int, default=1000,
                            help="changed games listed (default 1000); all are counted")
        parser.add_argument(
            "--background", action="store_true",
            help="run as a background job (on the Celery workers when CELERY_BROKER_URL is set)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["background"]:
            self._background(options)
            return
        games = revalidated_games(stale=options["stale"])
        bar = tqdm(total=games.count(), unit="game", disable=None, leave=False)
        with bar:
            report = revalidate_games(
                games, update=options["update"], max_details=options["max_details"],
                on_game=lambda game, diffs: bar.update(1),
            )
        for game_id, reason in report.details:
            self.stdout.write(f"game {game_id}: {reason}")
        if report.details_omitted:
            self.stdout.write(f"... and {report.details_omitted} more not listed")
        summary = (
            f"checked {report.checked} games with engine {fourcolor.__version__}: "
            f"{report.unchanged} unchanged, {report.changed} changed, {report.refused} now "
            f"refused, {report.updated} updated; {report.stale_analyses} stored analyses "
            "made by another engine version (stale)"
        )
        if report.updated:
            request_stats()  # the rewritten games are due: the statistics job counts them again
        clean = not (report.changed or report.refused)
        self.stdout.write(self.style.SUCCESS(summary) if clean else self.style.WARNING(summary))

    def _background(self, options: dict[str, Any]) -> None:
        job = submit_revalidate(None, stale=options["stale"], update=options["update"])
        self.stdout.write(f"job {job.pk} queued for the job worker: follow it at /jobs/{job.pk}/ "
                          f"or /api/v1/jobs/{job.pk}/")
