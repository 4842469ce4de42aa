"""`manage.py analyse_games [ID ...] [--player NAME] [--limit N] [--samples K] [--seed X] [--run]`:
analyse many games as one batch (jobs/batches.py).

Without ids, every game (a player's, with `--player`; the `--limit` newest); games whose stored
analysis was made by this engine with the same samples and seed are left out, so the command
also brings stale analyses up to date after an engine upgrade. The batch is queued for the job
workers (every Celery worker, when a broker is configured; `manage.py run_jobs` otherwise) and
followed at /jobs/<id>/ or /api/v1/jobs/<id>/. With `--run` this process runs it, one game
after another, through the same jobs (what a worker would do), with a progress bar.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from fourcolor.notation.names import player_key
from jobs.analysis import Parameters
from jobs.batches import create_batch
from jobs.models import Job
from jobs.publish import enqueue
from jobs.worker import run_here
from records.models import MAX_ID, Player


MAX_LIMIT = 2**31 - 1


class Command(BaseCommand):
    help = "Analyse many games (every seat's decisions) as one background job."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="these games (default: every game)")
        parser.add_argument("--player", metavar="NAME", help="only this player's games")
        parser.add_argument("--limit", type=int, metavar="N", help="the N newest games at most")
        parser.add_argument("--samples", type=int, metavar="K",
                            help="simulated deals per option (default: ANALYSIS_SAMPLES)")
        parser.add_argument("--seed", type=int, default=0, metavar="X", help="random seed (0)")
        parser.add_argument("--run", action="store_true",
                            help="run the batch in this process instead of queueing it")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            params = Parameters.of(options["samples"], options["seed"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["limit"] is not None and not 1 <= options["limit"] <= MAX_LIMIT:
            raise CommandError(f"--limit must be between 1 and {MAX_LIMIT}")
        bad = [pk for pk in options["ids"] if not 1 <= pk <= MAX_ID]
        if bad:
            raise CommandError(f"no game can have the id {bad[0]}")
        player = None
        if options["player"] is not None:
            player = Player.objects.filter(name_key=player_key(options["player"])).first()
            if player is None:
                raise CommandError(f"no player named {options['player']!r}")
        job = create_batch(None, params, games=options["ids"] or None,
                           player=player.pk if player else None, limit=options["limit"])
        if not options["run"]:
            enqueue(job)
            self.stdout.write(f"batch job {job.pk} queued for the job workers: follow it at "
                              f"/jobs/{job.pk}/ or /api/v1/jobs/{job.pk}/")
            return
        self._run(job)

    def _run(self, batch: Job) -> None:
        run_here(batch.pk)
        batch.refresh_from_db()
        bar = tqdm(total=batch.total or 0, initial=batch.resume_at, unit="game", disable=None,
                   leave=False)
        with bar:
            for child_id in batch.children.filter(status=Job.Status.QUEUED).order_by("pk") \
                    .values_list("pk", flat=True):
                run_here(child_id)  # unless a worker runs it, or ran it meanwhile
                bar.update(1)
        batch.refresh_from_db()
        report = batch.report or {}
        analysed = int(report.get("analysed", 0))
        summary = (f"batch job {batch.pk}: {analysed} game{'' if analysed == 1 else 's'} "
                   f"analysed, {report.get('current', 0)} already analysed or queued so, "
                   f"{report.get('failed', 0)} failed")
        for failed in report.get("failed_games", []):
            self.stdout.write(f"game {failed['game_id']}: {failed['reason']}")
        if batch.status != Job.Status.DONE:
            summary += f" ({batch.get_status_display()}: analyses still running elsewhere)"
        style = self.style.SUCCESS if not report.get("failed") else self.style.WARNING
        self.stdout.write(style(summary))
