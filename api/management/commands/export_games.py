"""`manage.py export_games [filters] [--format fcn|json|ndjson] [--output FILE]`.

Streams the archive (or the games the filters select) in id order, a chunk of rows at a time,
so exporting a whole archive needs no more memory than exporting ten games. The lines are the
API export's (api.game_object, one implementation for both):

- fcn: the original texts, verbatim, separated by a blank line (importable as is);
- ndjson: one JSON object per line, the game object of `/api/v1/games/{id}/` with `text`, the
  record as uploaded (`--no-text` leaves it out), as `GET /api/v1/games/export/?with_text=true`
  writes them; `import_games` reads such a file back through its `text`. Its URLs are paths
  unless `--base-url https://fourcolor.example` makes them absolute, as the API's;
- json: the same objects as one JSON array, written incrementally.
"""

from __future__ import annotations

import datetime
import os
import sys
from collections.abc import Generator
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from tqdm import tqdm

from api.game_object import fcn_lines, games_queryset, ndjson_lines
from records.filters import GameFilters
from records.models import Game, Outcome

def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = "Export stored games as FCN, a JSON array or NDJSON (streamed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--player", help="games with this player (name, any case)")
        parser.add_argument("--ruleset", help="classic, bga, ...")
        parser.add_argument("--players", type=int, choices=(2, 3, 4), help="number of seats")
        parser.add_argument("--outcome", choices=Outcome.values)
        parser.add_argument("--since", type=_date, help="played on or after (YYYY-MM-DD)")
        parser.add_argument("--until", type=_date, help="played on or before (YYYY-MM-DD)")
        parser.add_argument("--match", help="the Match tag")
        parser.add_argument("--format", choices=("fcn", "json", "ndjson"), default="fcn")
        parser.add_argument("--no-text", dest="with_text", action="store_false",
                            help="JSON/NDJSON: leave out each game's text as uploaded")
        parser.add_argument("--base-url", default="",
                            help="JSON/NDJSON: make the objects' URLs absolute on this site "
                            "(e.g. https://fourcolor.example); paths otherwise")
        parser.add_argument("--output", "-o", help="write here instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        # argparse has checked the options' types; the filter value says what each means.
        games = GameFilters.from_options(options).apply(Game.objects.all()).order_by("pk")
        total = games.count()
        games = games_queryset(detail=True).filter(pk__in=games.values("pk")).order_by("pk")
        fmt = options["format"]
        context = {"base_url": options["base_url"]}
        pieces = (fcn_lines(games) if fmt == "fcn"
                  else ndjson_lines(games, context, options["with_text"]))
        array = fmt == "json"
        bar = tqdm(total=total, unit="game", disable=None, file=sys.stderr, leave=False)
        written = 0
        with bar:
            if options["output"]:
                # newline="": line endings are written exactly as stored.
                try:
                    with open(options["output"], "w", encoding="utf-8", newline="") as out:
                        written = self._write(pieces, out, bar, array=array)
                except OSError as exc:
                    raise CommandError(f"{options['output']}: {exc.strerror or exc}") from None
            else:
                self.stdout.ending = ""  # the pieces hold their own line endings
                try:
                    written = self._write(pieces, self.stdout, bar, array=array)
                except BrokenPipeError:
                    # The reader went away (`export_games | head`): stop quietly, like cat,
                    # closing the database cursor while the connection is still open.
                    pieces.close()
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, sys.stdout.fileno())
                    raise SystemExit(1) from None
        where = options["output"] or "standard output"
        self.stderr.write(f"exported {written} games ({fmt}) to {where}")

    def _write(self, pieces: Generator[str, None, None], out: IO[str] | OutputWrapper,
               bar: tqdm, *, array: bool) -> int:
        """Each game's piece; as a JSON `array`, the same objects as the NDJSON lines, in one
        array written incrementally."""
        written = 0
        if array:
            out.write("[")
        for piece in pieces:
            out.write((",\n" if written else "\n") + piece.removesuffix("\n") if array else piece)
            written += 1
            bar.update(1)
        if array:
            out.write("\n]\n")
        return written
