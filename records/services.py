"""The archive's business logic: import, derivation, revalidation, filters and match credits.

Everything that writes games goes through here (the commands, the API and the web upload are
thin layers over it), so that a game is stored the same way whichever door it came in by.

Import policy (see `import_records`):

- each record is validated by the engine first; the valid ones are stored in batches, one short
  transaction per batch (games, seats, new players, new matches, a few statements in all), so
  a record's game and seats are always committed together and nothing is partially stored;
- a record whose canonical text (`fourcolor.write_fcn`) is already stored is a *duplicate*. A
  batch looks its hashes up first, but the unique index on `Game.content_hash` has the last
  word: when a concurrent upload stores one of them meanwhile, the batch's INSERT fails, and
  the batch is stored again record by record, each in its own transaction (savepoint), where
  the index tells which is a duplicate. So two uploads of the same file racing on PostgreSQL
  still end with one stored game per record;
- a refused record is reported with its line, column, ply, category, message and line text;
- a lost database connection is retried; if it stays lost the import stops and reports every
  record not stored (status "unavailable") and the record to resume from (`start_at`).
"""

from __future__ import annotations

import codecs
import dataclasses
import datetime
import hashlib
import io
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    transaction,
)
from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet
from django.dispatch import Signal
from django.utils import timezone

import fourcolor
from fourcolor.errors import FcnError, LimitError
from fourcolor.facts import SeatFacts, finish_taken_from, seat_facts
from fourcolor.notation import MAX_LINE_CHARS, MAX_RECORD_CHARS

from records.analysis import mark_stale_analyses
from records.models import (
    MAX_PLAYER_NAME,
    Game,
    GameSeat,
    Match,
    Player,
    match_key,
    player_key,
)
from records.signals import game_rewritten, game_stored, games_stored_batch

logger = logging.getLogger(__name__)

READ_CHUNK = 64 * 1024
# A line longer than the engine's limit is refused whatever follows in it: keep only enough of
# it (in bytes, up to 4 per character) for the engine to say so, and memory stays flat.
_LINE_CAP_BYTES = 4 * (MAX_LINE_CHARS + 2)
_LINE_CAP_CHARS = MAX_LINE_CHARS + 2
# The offending line quoted in a refusal is cut to this many characters.
QUOTE_CHARS = 300
_CACHE_LIMIT = 10_000
_MAX_DB_INT = 2**31 - 1
_BYTE_EOL = re.compile(rb"\r\n|\n|\r")
_TEXT_EOL = re.compile(r"\r\n|\n|\r")

Uploader = Any  # a user instance, AnonymousUser or None


# ----------------------------------------------------------------------------- derivation


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_fcn_date(value: str | None) -> datetime.date | None:
    """The `Date` tag ('YYYY.MM.DD') as a date; None when absent, partial ('2026.??.??') or not
    a real day."""
    if not value or not re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", value):
        return None
    year, month, day = (int(part) for part in value.split("."))
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def parse_round_number(value: str | None) -> int | None:
    """The `Round` tag as a positive number; None when absent or not a plain number."""
    if value is None or not value.strip().isdecimal() or not value.strip().isascii():
        return None
    number = int(value.strip())
    return number if 0 < number <= _MAX_DB_INT else None


def derive_game_fields(check: fourcolor.Check) -> dict[str, Any]:
    """The `Game` columns the engine derives from a valid record (import and revalidate share
    this, so a stored game is exactly what the current engine says about its text)."""
    game, record = check.game, check.record
    if game is None or record is None:
        raise ValueError("a refused record has no derived fields")
    canonical = fourcolor.write_fcn(record)
    return {
        "ruleset": record.ruleset_name,
        "players": record.players,
        "dealer": record.dealer,
        "outcome": game.outcome,
        "finisher": game.seat,
        # Whose card ended the round (self_draw, draw, discard), not only where it came from.
        "on": finish_taken_from(game),
        "points": game.points,
        "exposed_points": game.exposed_points,
        "hidden_points": game.hidden_points,
        "lucky_card": game.lucky_card.token if game.lucky_card is not None else None,
        "lucky_bonus": game.lucky_bonus,
        # JSON object keys are strings: store them so, and a reloaded game compares equal.
        "settlement": {str(seat): delta for seat, delta in sorted(game.settlement.items())},
        "event_count": game.event_count,
        "result_tag": game.result_tag,
        "tags": dict(record.tags),
        "event": record.tag("Event") or "",
        "site": record.tag("Site") or "",
        "date": parse_fcn_date(record.tag("Date")),
        "round_number": parse_round_number(record.tag("Round")),
        "canonical_text": canonical,
        "content_hash": sha256_text(canonical),
        "engine_version": fourcolor.__version__,
    }


# Every per-seat fact the engine gives; each is a GameSeat column of the same name.
SEAT_FACT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(SeatFacts))


def derive_seat_fields(check: fourcolor.Check) -> list[dict[str, Any]]:
    """One dict per seat: every `fourcolor.facts.SeatFacts` field, ready for `GameSeat`."""
    if check.game is None:
        raise ValueError("a refused record has no seat facts")
    rows = []
    for facts in seat_facts(check.game):
        # Shallow (dataclasses.asdict deep-copies, at a cost per import): the values are plain.
        # A SeatFacts' attributes are its fields, in order: a copy of them is the row.
        row = dict(vars(facts))
        row["win_melds"] = list(facts.win_melds)  # JSON has lists, not tuples
        rows.append(row)
    return rows


# Compared by revalidate; engine_version changes by design, the rest must not.
COMPARED_GAME_FIELDS: tuple[str, ...] = (
    "ruleset", "players", "dealer", "outcome", "finisher", "on", "points", "exposed_points",
    "hidden_points", "lucky_card", "lucky_bonus", "settlement", "event_count", "result_tag",
    "tags", "event", "site", "date", "round_number", "canonical_text", "content_hash",
)


def storage_limits(check: fourcolor.Check) -> FcnError | None:
    """What the engine accepts but the archive cannot store: over-long player names."""
    record = check.record
    if record is None:
        return None
    for number, name in enumerate(record.seats, start=1):
        if len(name) > MAX_PLAYER_NAME:
            line, col = record.position(f"Seat{number}")
            return LimitError(
                f"Seat{number}: a player name has at most {MAX_PLAYER_NAME} characters, "
                f"not {len(name)}",
                line=line,
                col=col,
            )
    return None


# ----------------------------------------------------------------------------- reading input


def _chunks(source: Any) -> Iterator[bytes | str]:
    """Pieces of a bytes/str value, a binary or text file object, or an iterable of pieces."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(bytes(source))
    elif isinstance(source, str):
        source = io.StringIO(source, newline="")
    read = getattr(source, "read", None)
    if callable(read):
        while chunk := read(READ_CHUNK):
            yield chunk
        return
    for chunk in source:
        if chunk:
            yield chunk


def _split_lines(chunks: Iterable[bytes | str]) -> Iterator[bytes | str]:
    """Lines with their endings (\\r\\n, \\n or a bare \\r, as the engine counts them).

    An over-long line is cut to `_LINE_CAP_*` (the engine refuses it anyway) so that a file
    without line breaks cannot fill the memory."""
    buf: Any = None
    kept: Any = None  # the cut start of an over-long line while its rest is skipped
    for chunk in chunks:
        if buf is None:
            buf = chunk[:0]
        if type(chunk) is not type(buf):
            raise TypeError("the input mixes bytes and text")
        buf += chunk
        eol = _BYTE_EOL if isinstance(buf, bytes) else _TEXT_EOL
        cap = _LINE_CAP_BYTES if isinstance(buf, bytes) else _LINE_CAP_CHARS
        start = 0
        for m in eol.finditer(buf):
            if m.end() == len(buf) and buf[m.start() : m.end()] in (b"\r", "\r"):
                break  # maybe the first half of a \r\n split between two chunks
            if kept is not None:
                yield kept + buf[m.start() : m.end()]
                kept = None
            elif m.start() - start > cap:
                # An over-long line within one piece: cut as when it spans pieces.
                yield buf[start : start + cap] + buf[m.start() : m.end()]
            else:
                yield buf[start : m.end()]
            start = m.end()
        buf = buf[start:]
        if len(buf) > cap:
            if kept is None:
                kept = buf[:cap]
            buf = buf[:0]
    if buf is not None and (buf or kept is not None):
        yield (kept + buf[:0]) if kept is not None else buf


@dataclass
class _BadLine:
    number: int
    error: FcnError
    text: str


class _DecodedLines:
    """The text lines of an input, strictly decoded as UTF-8 when it is bytes.

    A line that is not valid UTF-8 is passed on with replacement characters (so that the file
    still splits into records) and noted: the record holding it is refused with its position.
    Only the first bad line after each line starting with "[" is kept, so notes stay few."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.number = 0  # the line most recently passed on
        self.done = False
        self.bad: list[_BadLine] = []
        self._segment_has_bad = False

    def __iter__(self) -> Iterator[str]:
        for raw in _split_lines(_chunks(self.source)):
            self.number += 1
            if self.number == 1:
                raw = raw.removeprefix(codecs.BOM_UTF8) if isinstance(raw, bytes) else (
                    raw.removeprefix("\ufeff")
                )
            text = self._decode(raw) if isinstance(raw, bytes) else raw
            if text.startswith("["):
                self._segment_has_bad = False
            yield text
        self.done = True

    def _decode(self, raw: bytes) -> str:
        decoder = codecs.getincrementaldecoder("utf-8")("strict")
        try:
            # Not final: a line cut at the cap may end inside a character.
            return decoder.decode(raw, final=len(raw) < _LINE_CAP_BYTES)
        except UnicodeDecodeError as exc:
            if not self._segment_has_bad:
                self._segment_has_bad = True
                col = len(raw[: exc.start].decode("utf-8")) + 1
                error = FcnError(
                    f"invalid UTF-8: byte 0x{raw[exc.start]:02X} ({exc.reason}); "
                    "records must be UTF-8 text",
                    category="encoding",
                    line=self.number,
                    col=col,
                )
                text = raw.decode("utf-8", "replace")
                self.bad.append(_BadLine(self.number, error, text.rstrip("\r\n")[:QUOTE_CHARS]))
            return raw.decode("utf-8", "replace")

    def take_bad(self, first_line: int) -> _BadLine | None:
        """The first bad line of the record that starts at `first_line` and was just read.

        The engine yields a record once it has read the first line of the next one (the last
        line passed on); at the end of the input every remaining line is the record's."""
        limit = self.number + 1 if self.done else self.number
        mine = [b for b in self.bad if b.number < limit]
        self.bad = [b for b in self.bad if b.number >= limit]
        return next((b for b in mine if b.number >= first_line), None)


def _unencodable(text: str, first_line: int) -> FcnError | None:
    """A lone surrogate (text that came decoded from JSON, say) cannot be stored as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        before = text[: exc.start].replace("\r\n", "\n").replace("\r", "\n")
        line = first_line + before.count("\n")
        col = len(before) - (before.rfind("\n") + 1) + 1
        return FcnError(
            f"U+{ord(text[exc.start]):04X} is a lone surrogate, not a character; records "
            "must be UTF-8 text",
            category="encoding",
            line=line,
            col=col,
        )
    return None


# Control characters as the visible symbols of Unicode's Control Pictures block (NUL -> ␀,
# ESC -> ␛, DEL -> ␡; C1 controls, which have none, -> U+FFFD), one for one so that a column
# still points at the same character. Tabs are kept.
_SHOWN_CONTROLS = {code: 0x2400 + code for code in range(0x20) if code != 0x09} | {
    0x7F: 0x2421} | dict.fromkeys(range(0x80, 0xA0), 0xFFFD)


def shown(text: str) -> str:
    """`text` as a report may keep and show it: no control character. (PostgreSQL's text and
    jsonb cannot hold U+0000, and a terminal would act on an escape sequence.)"""
    return text.translate(_SHOWN_CONTROLS)


def line_of(text: str, first_line: int, line: int) -> str:
    """Line `line` of the file, from a record's text that starts at `first_line` (cut)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    index = line - first_line
    if 0 <= index < len(lines):
        return lines[index][:QUOTE_CHARS]
    return ""


# ----------------------------------------------------------------------------- reports


@dataclass
class RecordResult:
    """What became of one record of an upload."""

    index: int  # 0-based position in the file
    line: int  # the record's first line in the file
    status: str  # "stored", "duplicate" or "refused"
    game_id: int | None = None  # the stored game (for a duplicate: the one already stored)
    error: dict[str, Any] | None = None  # line, col, ply, category, message, event, text, error

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def message(self) -> str:
        """One line: `LINE:COL: error[CATEGORY]: MESSAGE (ply N...)`, or the duplicate's game."""
        if self.error is not None:
            return str(self.error["error"])
        if self.status == "duplicate":
            return f"{self.line}: duplicate of game {self.game_id}"
        return f"{self.line}: stored as game {self.game_id}"


@dataclass
class ImportReport:
    """Counts for the whole upload; the first results and problems in detail (memory stays
    flat however long the file)."""

    stored: int = 0
    duplicates: int = 0
    refused: int = 0
    results: list[RecordResult] = field(default_factory=list)
    problems: list[RecordResult] = field(default_factory=list)
    results_omitted: int = 0
    problems_omitted: int = 0
    max_results: int = 1000
    max_problems: int = 100
    # Records not stored because the database stayed unavailable (the import stopped).
    unavailable: int = 0
    # Index (0-based, in the whole stream) of the first record not yet decided and committed:
    # pass it as `start_at` to resume. After a complete import, the number of records read.
    next_index: int = 0
    stopped: str = ""  # why the import stopped before the end ("" when it did not)
    # The refusal of the record after `max_records`: listed in `results` and `problems`
    # whatever their caps, since it says why the rest of the file was not read.
    limit_refusal: RecordResult | None = None
    # The database's own words when it stopped the import: for the log and the operator's
    # command line only (they may name hosts and ports), never in `as_dict()` nor on a page.
    cause: str = ""

    @property
    def total(self) -> int:
        return self.stored + self.duplicates + self.refused + self.unavailable

    def add(self, result: RecordResult, *, keep: bool = False) -> None:
        """Count a record's result and list it while the lists have room (always with
        `keep`)."""
        if result.status == "stored":
            self.stored += 1
        elif result.status == "duplicate":
            self.duplicates += 1
        elif result.status == "unavailable":
            self.unavailable += 1
        else:
            self.refused += 1
        if keep or len(self.results) < self.max_results:
            self.results.append(result)
        else:
            self.results_omitted += 1
        if result.status != "stored":
            if keep or len(self.problems) < self.max_problems:
                self.problems.append(result)
            else:
                self.problems_omitted += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "stored": self.stored,
            "duplicates": self.duplicates,
            "refused": self.refused,
            "unavailable": self.unavailable,
            "total": self.total,
            "next_index": self.next_index,
            "stopped": self.stopped,
            "results": [r.as_dict() for r in self.results],
            "results_omitted": self.results_omitted,
            "problems": [r.as_dict() for r in self.problems],
            "problems_omitted": self.problems_omitted,
        }


def _refusal(
    index: int, first_line: int, error: FcnError, text: str, seats: Sequence[str] = ()
) -> RecordResult:
    detail = {key: shown(value) if isinstance(value, str) else value
              for key, value in error.as_dict().items()}
    detail["text"] = shown(text)
    detail["error"] = shown(str(error))
    # The players' names when the tags could be read, so that a page can say "Noor may not
    # ..." rather than the engine's "seat 4 may not ..." (web.refusals).
    detail["seats"] = [shown(name) for name in seats]
    return RecordResult(index, first_line, "refused", error=detail)


# ----------------------------------------------------------------------------- storing

# Valid records stored per transaction: one INSERT for their games, one for their seats, one
# lookup each for players and matches, instead of ~5 round trips per record.
BATCH_RECORDS = 250
# ...or fewer, once the batch's first record waited this long (a slow stream still commits,
# and reports progress, at a steady pace).
BATCH_SECONDS = 1.0
# After a lost connection the batch is retried on a new one after each of these pauses
# (seconds, ~7.5 s in all: a database restart fits in it); then the import stops.
DB_RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
STATS_BATCH = 5000  # stored games handed to derived-data apps (statistics, ratings) at a time
_DB_DOWN = (OperationalError, InterfaceError)


class _Ids:
    """Player and match ids already known to this import, to spare queries.

    Ids enter only after their transaction committed (see `_store_records`)."""

    def __init__(self) -> None:
        self.players: dict[str, int] = {}
        self.matches: dict[str, int] = {}

    def clear(self) -> None:
        self.players.clear()
        self.matches.clear()

    def remember(self, players: dict[str, int], matches: dict[str, int]) -> None:
        if len(self.players) + len(players) > _CACHE_LIMIT:
            self.players.clear()
        if len(self.matches) + len(matches) > _CACHE_LIMIT:
            self.matches.clear()
        self.players.update(players)
        self.matches.update(matches)


@dataclass
class _Valid:
    """A record the engine accepted, with everything derived from it, waiting to be stored."""

    index: int
    line: int
    text: str
    fields: dict[str, Any]
    seats: list[dict[str, Any]]
    match_tag: str | None

    @classmethod
    def of(cls, check: fourcolor.Check, text: str, index: int = 0, line: int = 1) -> _Valid:
        assert check.record is not None
        return cls(index, line, text, derive_game_fields(check), derive_seat_fields(check),
                   check.record.tag("Match"))

    @property
    def content_hash(self) -> str:
        return str(self.fields["content_hash"])


def _match_id(tag: str, ids: _Ids, new: dict[str, int]) -> int:
    return _match_ids({match_key(tag): tag}, ids, new)[match_key(tag)]


def _match_ids(tags: dict[str, str], ids: _Ids, new: dict[str, int]) -> dict[str, int]:
    """Match id per key (of `tags`: key -> tag), creating the missing matches."""
    return _get_or_create(Match, tags, ids.matches, new, lambda key, tag: Match(key=key, tag=tag))


def _player_ids(names: Iterable[str], ids: _Ids, new: dict[str, int]) -> dict[str, int]:
    """Player id per name key, creating players on first sight (named as first seen)."""
    wanted: dict[str, str] = {}
    for name in names:
        wanted.setdefault(player_key(name), name)
    return _get_or_create(
        Player, wanted, ids.players, new, lambda key, name: Player(name_key=key, name=name)
    )


def _get_or_create(
    model: Any,
    wanted: dict[str, str],
    known: dict[str, int],
    new: dict[str, int],
    make: Callable[[str, str], Any],
) -> dict[str, int]:
    """Ids of `model` rows by unique key (`key` for matches, `name_key` for players): known
    ones from the cache, then one SELECT, then one INSERT of the missing ones that skips
    keys a concurrent import inserted meanwhile (ON CONFLICT DO NOTHING / INSERT OR IGNORE;
    it waits for that import's transaction), then one SELECT of the inserted ones."""
    column = "key" if model is Match else "name_key"
    found = {key: known[key] for key in wanted if key in known}
    # Sorted: concurrent imports take the unique-index locks in one order (no deadlock).
    missing = sorted(key for key in wanted if key not in found)
    for attempt in (1, 2):
        if not missing:
            break
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            rows = model.objects.filter(**{f"{column}__in": chunk}).values_list(column, "pk")
            for key, pk in rows:
                found[key] = new[key] = pk
        missing = [key for key in missing if key not in found]
        if missing and attempt == 1:
            model.objects.bulk_create(
                [make(key, wanted[key]) for key in missing], ignore_conflicts=True
            )
    if missing:  # inserted, yet not found: only a concurrent delete does that
        raise IntegrityError(f"{model.__name__} rows vanished while being created: {missing[:3]}")
    return found


def _send_on_commit(signal: Signal, game_id: int) -> None:
    """Tell receivers about a game once it is committed (at once outside a transaction)."""
    if signal.has_listeners(Game):
        transaction.on_commit(lambda: signal.send(sender=Game, game_id=game_id))


Outcomes = dict[int, tuple[str, int]]  # record index -> ("stored" | "duplicate", game id)


def _insert(
    valid: list[_Valid], user: Any, ids: _Ids, stamp: datetime.datetime, retry: bool,
    new_players: dict[str, int], new_matches: dict[str, int],
) -> tuple[Outcomes, list[int]]:
    """Store `valid` inside the caller's transaction: the outcome of each record and the ids of
    the games stored. A record whose content hash is stored is a duplicate, unless this is a
    `retry` after a lost connection and an earlier attempt of this very batch stored it (same
    upload time and uploader: the commit went through but its answer was lost); a record
    repeating an earlier one of the batch is a duplicate of it. A concurrent upload storing one
    of the hashes between the SELECT and the INSERT makes the INSERT fail (IntegrityError)."""
    user_id = user.pk if user is not None else None
    stored = _stored_hashes({v.content_hash for v in valid})
    outcomes: Outcomes = {}
    mine: list[int] = []
    first: dict[str, _Valid] = {}
    for v in valid:
        h = v.content_hash
        if h in stored and h not in first:
            pk, at, by = stored[h]
            first[h] = v
            if retry and at == stamp and by == user_id:
                outcomes[v.index] = ("stored", pk)
                mine.append(pk)
            else:
                outcomes[v.index] = ("duplicate", pk)
        elif h not in first:
            first[h] = v
    fresh = [v for v in valid if v.content_hash not in stored and first[v.content_hash] is v]
    if fresh:
        tags = {match_key(v.match_tag): v.match_tag for v in fresh if v.match_tag is not None}
        # Lock order across concurrent imports: matches, games, players (keys sorted).
        matches = _match_ids(tags, ids, new_matches) if tags else {}
        games = Game.objects.bulk_create([
            Game(
                **v.fields,
                match_id=matches[match_key(v.match_tag)] if v.match_tag is not None else None,
                original_text=v.text, uploaded_by_id=user_id, uploaded_at=stamp,
                validated_at=stamp,
            )
            for v in fresh
        ])
        players = _player_ids(
            (row["name"] for v in fresh for row in v.seats), ids, new_players
        )
        GameSeat.objects.bulk_create([
            GameSeat(game_id=game.pk, player_id=players[player_key(row["name"])], **row)
            for v, game in zip(fresh, games, strict=True)
            for row in v.seats
        ])
        for v, game in zip(fresh, games, strict=True):
            outcomes[v.index] = ("stored", game.pk)
            mine.append(game.pk)
    for v in valid:
        if v.index not in outcomes:  # a repeat of an earlier record of the batch
            outcomes[v.index] = ("duplicate", outcomes[first[v.content_hash].index][1])
    return outcomes, mine


def _stored_hashes(hashes: set[str]) -> dict[str, tuple[int, datetime.datetime, int | None]]:
    """The stored games among these content hashes: hash -> (id, uploaded_at, uploader id)."""
    wanted = sorted(hashes)
    stored = {}
    for start in range(0, len(wanted), 500):
        rows = Game.objects.filter(content_hash__in=wanted[start : start + 500]).values_list(
            "content_hash", "pk", "uploaded_at", "uploaded_by_id"
        )
        stored.update((h, (pk, at, by)) for h, pk, at, by in rows)
    return stored


def _store_records(
    valid: list[_Valid], user: Any, ids: _Ids, stamp: datetime.datetime, retry: bool = False
) -> Outcomes:
    """Store records in one transaction: all of them or none."""
    new_players: dict[str, int] = {}
    new_matches: dict[str, int] = {}
    with transaction.atomic():
        outcomes, mine = _insert(valid, user, ids, stamp, retry, new_players, new_matches)
        for game_id in mine:
            _send_on_commit(game_stored, game_id)
    ids.remember(new_players, new_matches)
    return outcomes


def _store_batch(
    valid: list[_Valid], user: Any, ids: _Ids, stamp: datetime.datetime, retry: bool = False
) -> Outcomes:
    """Store a batch in one transaction; when a unique index refuses it (a concurrent upload
    stored one of its records, or deleted a cached player), store it record by record."""
    if len(valid) > 1:
        try:
            return _store_records(valid, user, ids, stamp, retry)
        except IntegrityError:
            ids.clear()  # a cached id may point at a row deleted meanwhile: look again
    outcomes: Outcomes = {}
    decided: dict[str, int] = {}  # content hash -> game, for repeats inside the batch
    for v in valid:
        if v.content_hash in decided:
            outcomes[v.index] = ("duplicate", decided[v.content_hash])
            continue
        outcomes.update(_store_one(v, user, ids, stamp, retry))
        decided[v.content_hash] = outcomes[v.index][1]
    return outcomes


def _store_one(
    v: _Valid, user: Any, ids: _Ids, stamp: datetime.datetime, retry: bool = False
) -> Outcomes:
    for attempt in (1, 2):
        try:
            return _store_records([v], user, ids, stamp, retry)
        except IntegrityError:
            # The record's transaction (or savepoint) is rolled back as a whole; the unique
            # index on content_hash said whether another upload stored it first.
            existing = (
                Game.objects.filter(content_hash=v.content_hash)
                .values_list("pk", flat=True)
                .first()
            )
            if existing is not None:
                return {v.index: ("duplicate", existing)}
            if attempt == 2:
                raise
            ids.clear()
    raise AssertionError("unreachable")


def _store_retrying(valid: list[_Valid], user: Any, ids: _Ids) -> Outcomes | DatabaseError:
    """`_store_batch`, retried on a new connection after each of DB_RETRY_DELAYS when the
    connection is lost; the last error when it stays lost. Every attempt stamps the games with
    the same upload time, which is how a retry recognises games its lost commit stored."""
    stamp = _new_stamp()
    delays = iter(DB_RETRY_DELAYS)
    retry = False
    while True:
        try:
            return _store_batch(valid, user, ids, stamp, retry)
        except _DB_DOWN as exc:
            if connection.in_atomic_block:
                raise  # the caller's transaction is lost with the connection: theirs to handle
            delay = next(delays, None)
            logger.warning("database unavailable while storing records %d-%d (%s)%s",
                           valid[0].index, valid[-1].index, " ".join(str(exc).split()),
                           f"; retrying in {delay:g} s" if delay is not None else "")
            connection.close()
            if delay is None:
                return exc
            ids.clear()
            retry = True
            time.sleep(delay)


_stamps = threading.Lock()
_last_stamp: list[datetime.datetime] = []


def _new_stamp() -> datetime.datetime:
    """The upload time of a batch, distinct from every other batch's in this process (threads
    included): a retry recognises its own games by it."""
    with _stamps:
        now = timezone.now()
        if _last_stamp and now <= _last_stamp[0]:
            now = _last_stamp[0] + datetime.timedelta(microseconds=1)
        _last_stamp[:] = [now]
        return now


def store_game(
    check: fourcolor.Check,
    original_text: str,
    uploader: Uploader = None,
    *,
    ids: _Ids | None = None,
) -> tuple[str, int]:
    """Store one valid record in its own transaction: ("stored", id) or ("duplicate", id of the
    game already stored with the same canonical content)."""
    user = uploader if getattr(uploader, "is_authenticated", False) else None
    outcomes = _store_one(
        _Valid.of(check, original_text), user, ids if ids is not None else _Ids(), _new_stamp()
    )
    return outcomes[0]


def import_records(
    stream: Any,
    uploader: Uploader = None,
    *,
    max_results: int = 1000,
    max_problems: int = 100,
    on_result: Callable[[RecordResult], None] | None = None,
    progress: Callable[[ImportReport], None] | None = None,
    start_at: int = 0,
    max_records: int | None = None,
    announce: bool = True,
) -> ImportReport:
    """Validate every record of a file, then store the valid ones in batches.

    `stream`: bytes or str, a binary or text file object (open text files with newline='' to
    keep line endings verbatim), or an iterable of lines. Bytes are decoded as strict UTF-8;
    a record with invalid UTF-8 is refused with the position of the first bad byte.

    Up to BATCH_RECORDS valid records (or those validated within BATCH_SECONDS) are stored
    per transaction: each record's game and seats are always committed together.

    - `on_result` sees every record's result once its batch is decided, in file order (for
      progress bars and streaming answers); the report keeps the counts and the first results
      and problems.
    - `progress(report)` is called after each committed batch and once at the end; then
      `report.next_index` is where a resumed import would start.
    - `start_at`: skip the first `start_at` records of the stream (not validated, stored nor
      counted; result indexes and lines stay those of the whole stream), to resume an
      interrupted import with `start_at=report.next_index`.
    - `max_records`: the most records one upload may hold (None: no limit). Reading stops at
      the record after them: the records before keep their verdicts (the valid ones are
      stored), that record is refused (category `limit`, at its first line) for all the
      rest, which is not read, and `report.stopped` says so.

    When the database connection is lost the batch is retried on a new connection (see
    DB_RETRY_DELAYS); if it stays lost, the import stops: the records not stored get the
    status "unavailable" (category `unavailable`), `report.stopped` says why and
    `report.next_index` is the first record not stored. Other database errors are raised."""
    lines = _DecodedLines(stream)
    return _import(fourcolor.iter_records(lines), lines, uploader, max_results, max_problems,
                   on_result, progress, start_at, max_records, announce)


def count_records(stream: Any, limit: int | None = None) -> int:
    """How many records a file holds (as `import_records` takes it), read as a stream: for a
    progress bar, splitting is cheap next to validating. Bad UTF-8 does not stop the count;
    the import refuses that record. With `limit`, at most `limit` + 1: the import reads no
    further than the record it refuses for the limit."""
    lines = _DecodedLines(stream)
    count = 0
    for rt in fourcolor.iter_records(lines):
        lines.take_bad(rt.line)
        count += 1
        if limit is not None and count > limit:
            break
    return count


def import_texts(
    texts: Iterable[str],
    uploader: Uploader = None,
    *,
    max_results: int = 1000,
    max_problems: int = 100,
    on_result: Callable[[RecordResult], None] | None = None,
    progress: Callable[[ImportReport], None] | None = None,
    start_at: int = 0,
    max_records: int | None = None,
) -> ImportReport:
    """Like `import_records`, for texts that are one record each (a JSON upload, an NDJSON
    export's `original`s): each is stored exactly as given, lines counted from 1 in it.
    `start_at` skips that many texts (their indexes count); past `max_records` texts the next
    one is refused and the rest not read."""
    records = (
        fourcolor.RecordText(index, 1, text, len(text) > MAX_RECORD_CHARS)
        for index, text in enumerate(texts)
    )
    return _import(records, None, uploader, max_results, max_problems, on_result, progress,
                   start_at, max_records)


class _Importer:
    """One import: records are validated as they come and queued; a full (or old) queue is
    stored as a batch and its results reported in file order."""

    def __init__(
        self,
        uploader: Uploader,
        report: ImportReport,
        on_result: Callable[[RecordResult], None] | None,
        progress: Callable[[ImportReport], None] | None,
        announce: bool = True,
    ) -> None:
        self.user = uploader if getattr(uploader, "is_authenticated", False) else None
        self.announce = announce
        self.report = report
        self.on_result = on_result
        self.progress = progress
        self.ids = _Ids()
        self.queue: list[RecordResult | _Valid] = []
        self.valid = 0
        self.since = 0.0
        self.stored: list[int] = []  # not announced yet
        self.unsettled = False  # batches were announced as not final
        self.down: DatabaseError | None = None

    def add(self, entry: RecordResult | _Valid) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.queue.append(entry)
        if isinstance(entry, _Valid):
            self.valid += 1
        if self.valid >= BATCH_RECORDS or time.monotonic() - self.since >= BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        queue, self.queue, self.valid = self.queue, [], 0
        if not queue:
            return
        valid = [entry for entry in queue if isinstance(entry, _Valid)]
        outcomes = _store_retrying(valid, self.user, self.ids) if valid else {}
        if isinstance(outcomes, DatabaseError):
            self.down = outcomes
            self.report.stopped = "database unavailable"
            # psycopg's messages span lines.
            self.report.cause = " ".join(str(outcomes).split())[:QUOTE_CHARS]
            logger.warning("import stopped, database unavailable: %s", self.report.cause)
            self.report.next_index = valid[0].index
            for entry in queue:
                if isinstance(entry, _Valid):
                    entry = _unavailable(entry.index, entry.line, valid[0].index)
                self.emit(entry)
            return
        for entry in queue:
            if isinstance(entry, _Valid):
                status, game_id = outcomes[entry.index]
                entry = RecordResult(entry.index, entry.line, status, game_id=game_id)
                if status == "stored":
                    self.stored.append(game_id)
            self.emit(entry)
        self.report.next_index = queue[-1].index + 1
        if not self.announce:
            self.stored.clear()
        elif len(self.stored) >= STATS_BATCH:
            _announce_stored(self.stored, final=False)
            self.unsettled = True
        if self.progress is not None:
            self.progress(self.report)

    def finish(self) -> ImportReport:
        self.flush()
        if self.down is not None:
            # Announcing would only fail (with a traceback in the log): say what to run instead.
            if self.stored:
                logger.warning(
                    "%d stored games not counted in the statistics yet (database unavailable): "
                    "the next statistics job counts them", len(self.stored),
                )
        elif self.stored or self.unsettled:
            _announce_stored(self.stored, final=True)
        if self.progress is not None:
            self.progress(self.report)
        return self.report

    def emit(self, result: RecordResult) -> None:
        self.report.add(result, keep=result is self.report.limit_refusal)
        if self.on_result is not None:
            self.on_result(result)


def _import(
    records: Iterable[fourcolor.RecordText],
    lines: _DecodedLines | None,
    uploader: Uploader,
    max_results: int,
    max_problems: int,
    on_result: Callable[[RecordResult], None] | None,
    progress: Callable[[ImportReport], None] | None,
    start_at: int,
    max_records: int | None = None,
    announce: bool = True,
) -> ImportReport:
    report = ImportReport(max_results=max_results, max_problems=max_problems)
    report.next_index = max(start_at, 0)
    importer = _Importer(uploader, report, on_result, progress, announce)
    for rt in records:
        bad = lines.take_bad(rt.line) if lines is not None else None
        if rt.index < start_at:
            continue  # done by the import this one resumes
        if max_records is not None and rt.index >= max_records:
            _too_many(importer, rt, max_records)
            break  # the rest is not read: a huge file costs no more than its first records
        if importer.down is not None:
            # Not validated: the import stopped, and a resumed one will look at it.
            importer.emit(_unavailable(rt.index, rt.line, report.next_index))
        else:
            importer.add(_validate(rt, bad))
    return importer.finish()


def _too_many(importer: _Importer, rt: fourcolor.RecordText, max_records: int) -> None:
    """Refuse the record after the first `max_records`, once, for it and all that follow."""
    message = f"too many records in one upload: at most {max_records} (split the file)"
    quote = line_of(rt.text, rt.line, rt.line).encode("utf-8", "replace").decode("utf-8")
    refusal = _refusal(rt.index, rt.line, LimitError(message, line=rt.line, col=1), quote)
    importer.report.limit_refusal = refusal
    if importer.down is not None:
        importer.emit(refusal)  # the database stopped the import first: its reason stands
        return
    importer.report.stopped = message  # a database failure storing the last batch overrides
    importer.add(refusal)


def _unavailable(index: int, line: int, resume: int) -> RecordResult:
    message = f"not stored: database unavailable (resume at record {resume + 1})"
    return RecordResult(index, line, "unavailable", error={
        "line": line, "col": None, "ply": None, "category": "unavailable", "message": message,
        "event": None, "text": "", "error": f"{line}: error[unavailable]: {message}",
    })


def _announce_stored(game_ids: list[int], *, final: bool) -> None:
    """Tell derived-data apps about freshly stored games, in batches (far cheaper than one by
    one); `final` on the import's last call. A failing receiver is logged and never fails the
    upload: such games stay due, and the next statistics job (jobs app) counts them."""
    for receiver, response in games_stored_batch.send_robust(
        sender=Game, game_ids=list(game_ids), final=final
    ):
        if isinstance(response, Exception):
            logger.error(
                "derived data not updated for %d games by %r (%s); the next statistics job will",
                len(game_ids), receiver, response,
            )
    game_ids.clear()


def _validate(rt: fourcolor.RecordText, bad: _BadLine | None) -> RecordResult | _Valid:
    """The engine's verdict on one record: its refusal, or the record ready to be stored."""
    if bad is not None:
        return _refusal(rt.index, rt.line, bad.error, bad.text)
    unencodable = _unencodable(rt.text, rt.line)
    if unencodable is not None:
        return _refusal(rt.index, rt.line, unencodable,
                        line_of(rt.text, rt.line, unencodable.line).encode(
                            "utf-8", "replace").decode("utf-8"))
    check = fourcolor.check_record(rt.text, rt.line, oversize=rt.oversize)
    error = check.error if check.error is not None else storage_limits(check)
    if error is not None:
        seats = check.record.seats if check.record is not None else ()
        return _refusal(rt.index, rt.line, error, line_of(rt.text, rt.line, error.line), seats)
    return _Valid.of(check, rt.text, rt.index, rt.line)


# ----------------------------------------------------------------------------- revalidation


def game_differences(game: Game, check: fourcolor.Check) -> list[str]:
    """How the stored game differs from what the engine now says about its original text:
    empty when nothing changed. Compares the verdict, every derived column, the match, and
    every seat row (player identity and every per-seat fact)."""
    if check.error is not None:
        return [f"now refused: {check.error}"]
    limit = storage_limits(check)
    if limit is not None:
        return [f"now refused: {limit}"]
    diffs: list[str] = []
    fields = derive_game_fields(check)
    for name in COMPARED_GAME_FIELDS:
        stored, derived = getattr(game, name), fields[name]
        if stored != derived:
            diffs.append(f"{name}: stored {_short(stored)}, engine gives {_short(derived)}")
    assert check.record is not None
    tag = check.record.tag("Match")
    stored_key = game.match.key if game.match is not None else None
    if stored_key != (match_key(tag) if tag is not None else None):
        stored_tag = game.match.tag if game.match is not None else None
        diffs.append(f"match: stored {_short(stored_tag)}, tag says {_short(tag)}")
    seats = {seat.seat: seat for seat in game.seats.all()}
    rows = derive_seat_fields(check)
    if sorted(seats) != [row["seat"] for row in rows]:
        diffs.append(f"seats: stored {sorted(seats)}, engine gives {[r['seat'] for r in rows]}")
    for row in rows:
        seat = seats.get(row["seat"])
        if seat is None:
            continue
        if seat.player.name_key != player_key(row["name"]):
            diffs.append(f"seat {row['seat']} player: stored {_short(seat.player.name)}, "
                         f"record says {_short(row['name'])}")
        for name, derived in row.items():
            stored = getattr(seat, name)
            if stored != derived:
                diffs.append(f"seat {row['seat']} {name}: stored {_short(stored)}, "
                             f"engine gives {_short(derived)}")
    return diffs


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class RevalidateReport:
    checked: int = 0
    unchanged: int = 0
    changed: int = 0  # still valid, derived data differs
    refused: int = 0  # the engine now refuses the original text
    updated: int = 0  # changed games rewritten (with update=True)
    details: list[tuple[int, str]] = field(default_factory=list)  # first games: (id, reason)
    details_omitted: int = 0
    max_details: int = 100
    stale_analyses: int = 0  # analyses made by another engine version (all of the archive's)

    def note(self, game_id: int, reason: str) -> None:
        if len(self.details) < self.max_details:
            self.details.append((game_id, reason))
        else:
            self.details_omitted += 1


def revalidate_games(
    games: QuerySet[Game],
    *,
    update: bool = False,
    chunk_size: int = 500,
    max_details: int = 100,
    on_game: Callable[[Game, list[str]], None] | None = None,
) -> RevalidateReport:
    """Re-run the engine over each game's original text; mark games whose verdict or derived
    data changed (stale, with the reason), clear the mark of those that agree again and record
    the engine version that checked them. With `update`, games still valid get their derived
    data rewritten instead of being marked."""
    report = RevalidateReport(max_details=max_details)
    report.stale_analyses = mark_stale_analyses()
    seats = Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
    agreed: list[int] = []
    queryset = games.select_related("match").prefetch_related(seats).order_by("pk")
    for game in queryset.iterator(chunk_size=chunk_size):
        report.checked += 1
        check = fourcolor.check_record(game.original_text)
        diffs = game_differences(game, check)
        if on_game is not None:
            on_game(game, diffs)
        if not diffs:
            report.unchanged += 1
            agreed.append(game.pk)
            if len(agreed) >= chunk_size:
                _mark_agreed(agreed)
        elif not check.ok or storage_limits(check) is not None:
            report.refused += 1
            _mark_stale(game, diffs, report)
        elif update:
            reason = _rewrite(game, check)
            if reason is None:
                report.updated += 1
                report.note(game.pk, "updated: " + "; ".join(diffs))
            else:
                report.changed += 1
                _mark_stale(game, diffs + [reason], report)
        else:
            report.changed += 1
            _mark_stale(game, diffs, report)
    _mark_agreed(agreed)
    return report


def _mark_agreed(ids: list[int]) -> None:
    if ids:
        Game.objects.filter(pk__in=ids).update(
            stale=False, stale_reason="", engine_version=fourcolor.__version__,
            validated_at=timezone.now(),
        )
        ids.clear()


def _mark_stale(game: Game, diffs: list[str], report: RevalidateReport) -> None:
    reason = f"engine {fourcolor.__version__}: " + "; ".join(diffs)
    # The engine version is left as it was: `revalidate --stale` looks at the game again.
    Game.objects.filter(pk=game.pk).update(stale=True, stale_reason=reason[:4000])
    report.note(game.pk, reason)


def _rewrite(game: Game, check: fourcolor.Check) -> str | None:
    """Replace a game's derived data and seats with the engine's current ones; None when done,
    else why not (its new canonical content is already stored as another game)."""
    fields = derive_game_fields(check)
    seat_rows = derive_seat_fields(check)
    assert check.record is not None
    tag = check.record.tag("Match")
    ids = _Ids()
    try:
        with transaction.atomic():
            match_id = _match_id(tag, ids, {}) if tag is not None else None
            Game.objects.filter(pk=game.pk).update(
                **fields, match_id=match_id, stale=False, stale_reason="",
                validated_at=timezone.now(),
            )
            players = _player_ids((row["name"] for row in seat_rows), ids, {})
            # In place (rows that other tables may point at keep their ids).
            seats = [row["seat"] for row in seat_rows]
            GameSeat.objects.filter(game_id=game.pk).exclude(seat__in=seats).delete()
            for row in seat_rows:
                values = {k: v for k, v in row.items() if k != "seat"}
                values["player_id"] = players[player_key(row["name"])]
                GameSeat.objects.update_or_create(
                    game_id=game.pk, seat=row["seat"], defaults=values
                )
    except IntegrityError:
        other = (
            Game.objects.filter(content_hash=fields["content_hash"]).exclude(pk=game.pk)
            .values_list("pk", flat=True).first()
        )
        if other is None:
            raise
        return f"not updated: its canonical content is now that of game {other}"
    _send_on_commit(game_rewritten, game.pk)
    return None


# ----------------------------------------------------------------------------- queries


def filter_games(
    games: QuerySet[Game] | None = None,
    *,
    player: str | None = None,
    ruleset: str | None = None,
    players: int | None = None,
    outcome: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    match: str | None = None,
) -> QuerySet[Game]:
    """The archive's filters, shared by export, web and API. `player` is a name (matched by
    identity key), `match` a Match tag value; `since`/`until` bound the played date,
    inclusive."""
    qs = Game.objects.all() if games is None else games
    if player:
        # Exists, not a join: a player seated twice in one game must not list it twice.
        seated = GameSeat.objects.filter(game=OuterRef("pk"), player__name_key=player_key(player))
        qs = qs.filter(Exists(seated))
    if ruleset:
        qs = qs.filter(ruleset=ruleset)
    if players:
        qs = qs.filter(players=players)
    if outcome:
        qs = qs.filter(outcome=outcome)
    if since:
        qs = qs.filter(date__gte=since)
    if until:
        qs = qs.filter(date__lte=until)
    if match:
        qs = qs.filter(match__key=match_key(match))
    return qs


def game_export(game: Game) -> dict[str, Any]:
    """One game as the JSON/NDJSON exports and the API show it."""
    try:
        record: dict[str, Any] | None = fourcolor.record_to_json(
            fourcolor.parse_record(game.canonical_text)
        )
    except FcnError:
        record = None  # a canonical text the current engine cannot read: see `revalidate`
    return {
        "id": game.pk,
        "tags": game.tags,
        "ruleset": game.ruleset,
        "players": game.players,
        "date": game.date.isoformat() if game.date else None,
        "result": game.summary(),
        "event_count": game.event_count,
        "content_hash": game.content_hash,
        "engine_version": game.engine_version,
        "uploaded_at": game.uploaded_at.isoformat(),
        "original": game.original_text,
        "json": record,
    }


# ----------------------------------------------------------------------------- matches


@dataclass
class MatchRound:
    """One round of a match with its payments and the running credits after it."""

    game: Game
    number: int  # 1-based position in the match's order
    deltas: dict[str, int]  # player name -> this round's settlement
    credits: dict[str, int]  # player name -> total so far (every player seen so far)


def match_games(match: Match) -> QuerySet[Game]:
    """A match's rounds in play order: Round tag, then date, then upload order."""
    return match.games.order_by(
        F("round_number").asc(nulls_last=True), F("date").asc(nulls_last=True), "pk"
    )


def match_credits(match: Match) -> list[MatchRound]:
    """The rounds of a match with the running credit of each player after each round."""
    seats = Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))
    credits: dict[str, int] = {}
    rounds = []
    for number, game in enumerate(match_games(match).prefetch_related(seats), start=1):
        deltas: dict[str, int] = {}
        for seat in game.seats.all():
            name = seat.player.name
            deltas[name] = deltas.get(name, 0) + seat.delta
            credits[name] = credits.get(name, 0) + seat.delta
        rounds.append(MatchRound(game, number, deltas, dict(credits)))
    return rounds
