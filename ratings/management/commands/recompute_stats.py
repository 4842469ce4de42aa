"""`manage.py recompute_stats`: rebuild the statistics totals and the ratings from the stored
games (the per-seat facts themselves are rebuilt by `manage.py revalidate --update`)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from ratings import services
from records.models import Game


class Command(BaseCommand):
    help = (
        "Rebuild every table derived from the stored games: play order, per-player and "
        "per-pair totals, ratings and their history. --missing only adds games not counted "
        "yet; --pending replays the ratings imports left for a scheduled pass; --ratings-only "
        "keeps the totals and rates every round again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--missing", action="store_true",
            help="only count and rate games the derived tables do not know yet",
        )
        mode.add_argument(
            "--pending", action="store_true",
            help="only replay the ratings that imports left for a scheduled pass "
                 "(more than RATINGS_REPLAY_LIMIT rounds to replay)",
        )
        mode.add_argument(
            "--ratings-only", action="store_true",
            help="rate every counted round again, leaving the totals as they are",
        )
        parser.add_argument(
            "--ruleset", help="with --ratings-only: only this ruleset's ratings",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bars")

    def handle(self, *args: Any, **options: Any) -> None:
        bars: dict[str, tqdm] = {}
        quiet = options["no_progress"] or options["verbosity"] == 0
        count_total = (
            Game.objects.filter(counted__isnull=True).count() if options["missing"]
            else Game.objects.count()
        )

        def progress(phase: str, done: int) -> None:
            if quiet:
                return
            if phase not in bars:
                for bar in bars.values():
                    bar.close()
                total = (
                    services.rated_count(phase.split(" ", 1)[1]) if phase.startswith("ratings ")
                    else count_total if phase == "count" else None
                )
                bars[phase] = tqdm(
                    total=total, desc=phase, unit="game", file=self.stderr._out,
                    disable=total == 0,
                )
            bars[phase].update(done)

        if options["ruleset"] and not options["ratings_only"]:
            raise CommandError("--ruleset only applies with --ratings-only")
        started = time.monotonic()
        if options["missing"]:
            report = services.on_missing_games(progress=progress)
        elif options["pending"]:
            report = services.rate_pending(progress=progress)
        elif options["ratings_only"]:
            report = services.recompute_ratings(options["ruleset"], progress=progress)
        else:
            report = services.recompute_stats(progress=progress)
        for bar in bars.values():
            bar.close()
        elapsed = time.monotonic() - started
        rated = ", ".join(f"{name} {count}" for name, count in report.rulesets.items()) or "none"
        if report.deferred:
            waiting = ", ".join(sorted(report.deferred))
            self.stdout.write(f"ratings of {waiting} left for `recompute_stats --pending`")
        self.stdout.write(
            f"games counted: {report.games}; rated rounds replayed: {report.rated} ({rated}); "
            f"player total rows: {report.player_rows}; pair total rows: {report.pair_rows}; "
            f"in {elapsed:.1f}s"
        )
