"""`manage.py seed_demo [--games N] [--seed S] [--force] [--analyse N]`: a demo archive from
self-play.

Matches and single rounds played by the engine's bots (`fourcolor.generate`), both rulesets,
2 to 4 players with names in several scripts (and one table in VARIANT_EVERY a house variant
or a classic table of 5 to 8), dated over the past six months, stored through the import
service like any upload. Does nothing when the database already has games, unless --force
(then the same seed only yields duplicates: pass another --seed for new games).

The demo shows what a visitor can look for: claims of every kind and forced finishes come from
the bots' play; in every single round won on a live card the winner lets it go and the bots
play on (`with_missed_win`), so the review panel has missed wins to list; one round in three
carries comments; matches keep running credits. Other apps add their part
(`records.signals.demo_seeded`: drafts.demo makes a demo user's drafts). Then `--analyse` of
the games are analysed here at a modest sample count, which keeps `make run`'s start-up short.
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
from fourcolor.generate import generate_match, generate_record, make_bot, play_out
from fourcolor.round import Round
from fourcolor.analysis import analyse
from records.analysis import load_record, store_analysis
from records.models import Game
from records.parallel import in_processes, split_range
from records.demo_tables import valid_at_tables
from records.services import ImportReport, RecordStatus, import_texts
from records.services.importing import BATCH_RECORDS, announce_stored
from records.services.storing import KnownIds, store_retrying
from records.signals import demo_seeded

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
# One table in this many plays something other than a shipped ruleset at 2 to 4 seats: a house
# variant (its Switches tag) or, in turn, a classic table of five to eight.
VARIANT_EVERY = 5
HOUSE_VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    "classic": ({"steal_generals": "never"}, {"dealt_sets_locked": True, "lucky_draw": True}),
    "bga": ({"steal_generals": "never", "threshold": 8},
            {"below_threshold": "shortfall", "color_groups": "any"}),
}
# A bot that also makes forced finishes under the threshold, for the demo to show them.
DEMO_BOT = "reckless"
DAYS_BACK = 182
# Single rounds whose winner misses the win (every one), and rounds with comments: one in
# this many.
MISSED_WIN_EVERY = 1
COMMENTED_ROUND_EVERY = 3
DEMO_COMMENTS = (
    "Bold meld: it gives away what she is collecting.",
    "Nước này hơi liều, nhưng đáng thử.",
    "這張牌打得好，下家沒得吃。",
    "Ouch: the winning card went by a few turns earlier.",
    "Ván này kết thúc rất nhanh.",
    "和牌！漂亮。",
)
DEMO_ANALYSES = 3
DEMO_SAMPLES = 8
ANALYSED_MIN_EVENTS = 30
# A parallel seeding (--jobs) plays its rounds in pieces of this many, each its own process's
# work (one piece at a time per process, so the progress is steady and memory small); the
# deal seeds of piece k start at k * PART_SEEDS, far above any serial demo's.
PIECE_ROUNDS = 2000
PART_SEEDS = 10**12


def demo_records(
    games: int, seed: int, today: datetime.date, part: int = 0
) -> Iterator[fourcolor.Record]:
    """`games` rounds: mostly matches of 2 to 8 rounds, some single rounds, all seeded.

    `part` numbers the pieces of a parallel seeding (`--jobs`): each piece draws from its own
    generators and names its matches and deals apart, so no two pieces play the same round;
    part 0 is the serial demo, unchanged."""
    suffix = f":{part}" if part else ""
    rng = random.Random(f"fourcolor-demo:{seed}{suffix}")
    # Comments, missed wins and variants draw from generators of their own: the tables, names
    # and dates are the seed's alone.
    extras = random.Random(f"fourcolor-demo-extras:{seed}{suffix}")
    variants = random.Random(f"fourcolor-demo-variants:{seed}{suffix}")
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
        game_seed = seed * 100_000 + number + part * PART_SEEDS
        # The dealer is drawn for the table as drawn (a larger table keeps it).
        dealer = rng.randint(1, players) if rounds == 1 else 1
        ruleset, players, names, switches = _variant(ruleset, players, names, number, variants)
        if rounds == 1:
            tags = {"Event": event, "Site": "fourcolor demo", "Date": date}
            played = [generate_record(ruleset, players, game_seed, dealer=dealer, names=names,
                                      tags=tags, bot=DEMO_BOT, switches=switches)]
            if extras.randrange(MISSED_WIN_EVERY) == 0:
                played = [with_missed_win(played[0], extras)]
        else:
            # Not in matches: a round's result there sets the credits the next rounds carry.
            match_id = f"demo-{seed}-{part}-{number:04d}" if part else f"demo-{seed}-{number:04d}"
            played = generate_match(ruleset, players, game_seed, rounds=rounds, names=names,
                                    match_id=match_id, date=date, event=event, bot=DEMO_BOT,
                                    switches=switches)
        for record in played:
            if extras.randrange(COMMENTED_ROUND_EVERY) == 0:
                record = with_comments(record, extras)
            yield record
        made += rounds


def _variant(
    ruleset: str, players: int, names: list[str], number: int, rng: random.Random
) -> tuple[str, int, list[str], dict[str, Any]]:
    """The table `number` as drawn, or (one in VARIANT_EVERY, alternately) a classic table of
    5, 6, 7, 8 in turn (more names drawn; the standard rules or a house variant), or the same
    table under a house variant of its ruleset. The large tables come first (tables 5, 15, 25,
    35), so that the default demo's 150 rounds (37 tables) hold every size."""
    if number % VARIANT_EVERY:
        return ruleset, players, names, {}
    if number % (2 * VARIANT_EVERY) == 0:
        return ruleset, players, names, dict(rng.choice(HOUSE_VARIANTS[ruleset]))
    more = 5 + (number // (2 * VARIANT_EVERY)) % 4
    others = [name for name in DEMO_NAMES if name not in names]
    switches = rng.choice(({}, *HOUSE_VARIANTS["classic"]))
    return "classic", more, names + rng.sample(others, more - players), dict(switches)


def with_missed_win(record: fourcolor.Record, rng: random.Random) -> fourcolor.Record:
    """The record (just generated, so changed in place) with its winner letting the winning
    card go and the bots playing the round on to its end, with the Result that follows; a
    round not won on a live card is left as it is."""
    events = record.events
    if not events or events[-1].verb != "w":
        return record
    state = Round.from_record(record)
    for event in events[:-1]:
        state.push(event)
    bots = [make_bot(DEMO_BOT, rng) for _ in range(record.players)]
    events[:] = [*events[:-1], *play_out(state, bots, declining=events[-1].seat)]
    record.tags["Result"] = state.end_of_record().result_tag
    return record


def with_comments(record: fourcolor.Record, rng: random.Random) -> fourcolor.Record:
    """The record (just generated, so changed in place) with a comment on its first meld and
    one on its last event."""
    events = record.events
    if events:
        melds = [i for i, event in enumerate(events) if event.verb == "m"]
        for index in sorted({melds[0] if melds else 0, len(events) - 1}):
            events[index] = events[index]._replace(comments=(rng.choice(DEMO_COMMENTS),))
    return record


def _seed_piece(piece: tuple[int, int, int, datetime.date, int]) -> ImportReport:
    """One piece of a parallel seeding, in its own process: `rounds` rounds of part `part`,
    stored without announcing them (the parent announces the whole seeding once); each round
    played at `tables` tables (records.demo_tables: one table is the round as played)."""
    part, rounds, seed, today, tables = piece
    rng = random.Random(f"fourcolor-demo-tables:{seed}:{part}")
    played = demo_records(-(-rounds // tables), seed, today, part=part)
    valid = list(valid_at_tables(played, tables, rounds, rng, DEMO_NAMES, DEMO_EVENTS, today,
                                 DAYS_BACK))
    report = ImportReport(max_results=0)
    ids = KnownIds()
    for start in range(0, len(valid), BATCH_RECORDS):
        outcomes = store_retrying(valid[start:start + BATCH_RECORDS], None, ids)
        if isinstance(outcomes, Exception):
            raise outcomes
        for status, _game in outcomes.values():
            report.stored += status is RecordStatus.STORED
            report.duplicates += status is RecordStatus.DUPLICATE
    return report


def _seed_in_processes(
    games: int, seed: int, today: datetime.date, jobs: int, tables: int, bar: tqdm[Any]
) -> ImportReport:
    """`games` rounds in pieces of PIECE_ROUNDS over `jobs` processes, their reports merged."""
    pieces = [(number + 1, len(span), seed, today, tables)
              for number, span in enumerate(split_range(0, games, -(-games // PIECE_ROUNDS)))]
    report = ImportReport(max_results=0)
    for piece_report in in_processes(_seed_piece, pieces, jobs):
        report = report.merge(piece_report)
        bar.update(piece_report.total)
    return report


class Command(BaseCommand):
    help = "Fill an empty archive with demo games played by the engine's bots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=150, help="rounds to store (150)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the demo data (1)")
        parser.add_argument("--force", action="store_true",
                            help="seed even when the database already has games")
        parser.add_argument("--analyse", type=int, default=DEMO_ANALYSES, metavar="N",
                            help=f"analyse N of the stored games ({DEMO_ANALYSES}; 0: none)")
        parser.add_argument("--jobs", type=int, default=1, metavar="N",
                            help="play and store the rounds in N processes (1); another "
                                 "demo than the serial one, for archives at scale")
        parser.add_argument("--tables", type=int, default=1, metavar="K",
                            help="store each round the bots play at K tables (other names, "
                                 "date, event): K times fewer rounds to play (1)")
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
        if options["tables"] < 1 or options["jobs"] < 1:
            raise CommandError("--jobs and --tables must be at least 1")
        parallel = options["jobs"] > 1 or options["tables"] > 1
        with tqdm(total=games, unit="game", disable=None, leave=False) as bar:
            if parallel:
                report = _seed_in_processes(games, options["seed"], today, options["jobs"],
                                            options["tables"], bar)
            else:
                texts = (fourcolor.write_fcn(r)
                         for r in demo_records(games, options["seed"], today))
                report = import_texts(texts, None, max_results=0,
                                      on_result=lambda result: bar.update(1))
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
        if ids and parallel:
            # The pieces stored without telling the statistics: once for all here, as a
            # parallel import does (one ratings replay at the end, not one per piece).
            announce_stored(ids)
        if ids and options["analyse"]:
            self._analyse(ids, options["analyse"], options["analysis_samples"])
        # The other apps' part of the demo (drafts: the demo user's drafts).
        for _receiver, said in demo_seeded.send(sender=self.__class__, seed=options["seed"]):
            if said:
                self.stdout.write(self.style.SUCCESS(str(said)))

    def _analyse(self, game_ids: list[int], count: int, samples: int) -> None:
        """Analyse `count` of the games, every seat: of each of `count` even slices of them,
        the shortest round (the fewest decisions to simulate) of at least ANALYSED_MIN_EVENTS
        events (a redeal or a quick win shows the reviewer little)."""
        step = max(1, len(game_ids) // count)
        events = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "event_count"))
        chosen = [min(game_ids[start:start + step],
                      key=lambda pk: (events[pk] < ANALYSED_MIN_EVENTS, events[pk], pk))
                  for start in range(0, len(game_ids), step)][:count]
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
