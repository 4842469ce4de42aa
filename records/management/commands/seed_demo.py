"""`manage.py seed_demo [--games N] [--seed S] [--force] [--analyse N]`: a demo archive from
self-play.

Matches and single rounds played by the engine's bots (`fourcolor.generate`), both rulesets,
2 to 4 players with names in several scripts, dated over the past six months, stored through
the import service like any upload. Does nothing when the database already has games, unless
--force (then the same seed only yields duplicates: pass another --seed for new games).

Then a few of them (`--analyse`, spread over the archive) are analysed, so that the demo shows
the reviewer's marks, chart and options: here, in this command, at a modest sample count
(`--analysis-samples`), which keeps `make run`'s start-up to seconds; a real request for an
analysis (replay page, API) runs as a background job at the full count.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from tqdm import tqdm

import fourcolor
from fourcolor.generate import generate_match, generate_record
from fourcolor.analysis import analyse
from records.analysis import load_record, store_analysis
from records.models import Game
from records.services import RecordResult, import_texts

# Realistic names in several scripts: Vietnamese, Chinese, Latin, Cyrillic, Arabic, ...
DEMO_NAMES = (
    "Nguyễn Thị Lan", "Trần Văn Bình", "Lê Hoàng Anh", "Phạm Minh Châu", "Võ Thị Hồng",
    "Đặng Quốc Huy", "陳美玲", "林志明", "黃淑芬", "張偉", "李秀英", "María García",
    "Jonas Weber", "Chloé Martin", "Søren Åberg", "João Silva", "Анна Иванова",
    "Дмитрий Соколов", "Ольга Петренко", "فاطمة الزهراء", "عمر خالد", "佐藤 花子",
    "김민준", "Ελένη Παπαδοπούλου", "Noor Hassan", "Aroha Ngata",
)
DEMO_EVENTS = (
    "Friday club", "Tết tournament", "Chợ Lớn café league", "Online ladder",
    "Family table", "Spring open",
)
RULESETS = ("classic", "bga")
DAYS_BACK = 182
# Games analysed by default, and at how many samples per option (see the module's docstring).
DEMO_ANALYSES = 3
DEMO_SAMPLES = 8


def demo_records(games: int, seed: int, today: datetime.date) -> Iterator[fourcolor.Record]:
    """`games` rounds: mostly matches of 2 to 8 rounds, some single rounds, all seeded."""
    rng = random.Random(f"fourcolor-demo:{seed}")
    made = 0
    number = 0
    while made < games:
        number += 1
        ruleset = rng.choice(RULESETS)
        players = rng.choice((2, 3, 4, 4))
        names = rng.sample(DEMO_NAMES, players)
        day = today - datetime.timedelta(days=rng.randrange(DAYS_BACK))
        date = day.strftime("%Y.%m.%d")
        event = rng.choice(DEMO_EVENTS)
        rounds = min(games - made, rng.choice((1, 2, 3, 4, 4, 6, 8)))
        game_seed = seed * 100_000 + number
        if rounds == 1:
            dealer = rng.randint(1, players)
            tags = {"Event": event, "Site": "fourcolor demo", "Date": date}
            yield generate_record(ruleset, players, game_seed, dealer=dealer, names=names,
                                  tags=tags)
        else:
            match_id = f"demo-{seed}-{number:04d}"
            yield from generate_match(ruleset, players, game_seed, rounds=rounds, names=names,
                                      match_id=match_id, date=date, event=event)
        made += rounds


class Command(BaseCommand):
    help = "Fill an empty archive with demo games played by the engine's bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=150, help="rounds to store (150)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the demo data (1)")
        parser.add_argument("--force", action="store_true",
                            help="seed even when the database already has games")
        parser.add_argument("--analyse", type=int, default=DEMO_ANALYSES, metavar="N",
                            help=f"analyse N of the stored games ({DEMO_ANALYSES}; 0: none)")
        parser.add_argument("--analysis-samples", type=int, default=DEMO_SAMPLES, metavar="K",
                            help=f"simulated playouts per option for those ({DEMO_SAMPLES})")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["analyse"] < 0 or options["analysis_samples"] < 1:
            raise CommandError("--analyse must be at least 0 and --analysis-samples at least 1")
        if Game.objects.exists() and not options["force"]:
            self.stdout.write("The database already has games: nothing seeded (use --force).")
            return
        today = timezone.localdate()
        before = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        bar = tqdm(total=games, unit="game", disable=None, leave=False)

        def on_result(result: RecordResult) -> None:
            bar.update(1)

        with bar:
            texts = (fourcolor.write_fcn(r) for r in demo_records(games, options["seed"], today))
            report = import_texts(texts, None, max_results=0, on_result=on_result)
        for problem in report.problems:
            self.stdout.write(self.style.WARNING(f"demo record {problem.index + 1}: "
                                                 f"{problem.message}"))
        self.stdout.write(self.style.SUCCESS(
            f"Seeded {report.stored} demo games ({report.duplicates} duplicates, "
            f"{report.refused} refused)."
        ))
        # The games this run stored (ids only grow; results are not kept: max_results=0).
        ids = list(Game.objects.filter(pk__gt=before).order_by("pk")
                   .values_list("pk", flat=True))
        if ids and options["analyse"]:
            self._analyse(ids, options["analyse"], options["analysis_samples"])

    def _analyse(self, game_ids: list[int], count: int, samples: int) -> None:
        """Analyse `count` of the games, spread evenly over them, every seat."""
        step = max(1, len(game_ids) // count)
        chosen = game_ids[::step][:count]
        seconds = 0.0
        for game in tqdm(Game.objects.filter(pk__in=chosen).order_by("pk"), total=len(chosen),
                         unit="analysis", disable=None, leave=False):
            started = time.monotonic()
            analysis = analyse(load_record(game), samples=samples, seed=0)
            took = time.monotonic() - started
            store_analysis(game.pk, analysis, seconds=took)
            seconds += took
        self.stdout.write(self.style.SUCCESS(
            f"Analysed {len(chosen)} demo games ({samples} samples per option) in "
            f"{seconds:.1f} s."
        ))
