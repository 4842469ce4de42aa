"""Storing valid records: a batch per short transaction, duplicates told by the content hash's
unique index, a lost connection retried (see records.services.importing for the policy)."""

from __future__ import annotations

import datetime
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    transaction,
)
from django.dispatch import Signal
from django.utils import timezone

import fourcolor

from records.models import Game, GameSeat, Match, Player, match_key, player_key
from records.search import NameWord, index_new_names
from records.services.derivation import derive_game_fields, derive_seat_fields
from records.services.report import RecordStatus
from records.signals import game_stored

logger = logging.getLogger(__name__)

_CACHE_LIMIT = 10_000

Uploader = Any  # a user instance, AnonymousUser or None


# After a lost connection the batch is retried on a new one after each of these pauses
# (seconds, ~7.5 s in all: a database restart fits in it); then the import stops.
DB_RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
_DB_DOWN = (OperationalError, InterfaceError)


class KnownIds:
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
class ValidRecord:
    """A record the engine accepted, with everything derived from it, waiting to be stored."""

    index: int
    line: int
    text: str
    fields: dict[str, Any]
    seats: list[dict[str, Any]]
    match_tag: str | None

    @classmethod
    def of(cls, check: fourcolor.Check, text: str, index: int = 0, line: int = 1) -> ValidRecord:
        assert check.record is not None
        return cls(index, line, text, derive_game_fields(check), derive_seat_fields(check),
                   check.record.tag("Match"))

    @property
    def content_hash(self) -> str:
        return str(self.fields["content_hash"])


def match_ids(tags: Iterable[str], ids: KnownIds, new: dict[str, int]) -> dict[str, int]:
    """Match id per key, creating the missing matches."""
    return _get_or_create(Match, {match_key(tag): tag for tag in tags}, ids.matches, new,
                          lambda key, tag: Match(key=key, tag=tag), NameWord.Kind.MATCH)


def player_ids(names: Iterable[str], ids: KnownIds, new: dict[str, int]) -> dict[str, int]:
    """Player id per name key, creating players on first sight (named as first seen)."""
    wanted: dict[str, str] = {}
    for name in names:
        wanted.setdefault(player_key(name), name)
    return _get_or_create(
        Player, wanted, ids.players, new, lambda key, name: Player(name_key=key, name=name),
        NameWord.Kind.PLAYER,
    )


def _get_or_create(
    model: Any,
    wanted: dict[str, str],
    known: dict[str, int],
    new: dict[str, int],
    make: Callable[[str, str], Any],
    kind: str,
) -> dict[str, int]:
    """Ids of `model` rows by unique key (`key` for matches, `name_key` for players): known
    ones from the cache, then one SELECT, then one INSERT of the missing ones that skips
    keys a concurrent import inserted meanwhile (ON CONFLICT DO NOTHING / INSERT OR IGNORE;
    it waits for that import's transaction), then one SELECT of the inserted ones, whose
    names go into the search index (`records.search`)."""
    column = "key" if model is Match else "name_key"
    found = {key: known[key] for key in wanted if key in known}
    # Sorted: concurrent imports take the unique-index locks in one order (no deadlock).
    missing = sorted(key for key in wanted if key not in found)
    inserted: list[str] = []
    for attempt in (1, 2):
        if not missing:
            break
        rows = model.objects.only("pk", column).in_bulk(missing, field_name=column)
        for key, row in rows.items():
            found[key] = new[key] = row.pk
        missing = [key for key in missing if key not in found]
        if missing and attempt == 1:
            model.objects.bulk_create(
                [make(key, wanted[key]) for key in missing], ignore_conflicts=True
            )
            inserted = missing
    # (A concurrent import may have inserted some of them: their words are indexed once.)
    index_new_names(kind, {found[key]: wanted[key] for key in inserted if key in found})
    if missing:  # inserted, yet not found: only a concurrent delete does that
        raise IntegrityError(f"{model.__name__} rows vanished while being created: {missing[:3]}")
    return found


def send_on_commit(signal: Signal, game_id: int, **extra: Any) -> None:
    """Tell receivers about a game once it is committed (at once outside a transaction)."""
    if signal.has_listeners(Game):
        transaction.on_commit(lambda: signal.send(sender=Game, game_id=game_id, **extra))


Outcomes = dict[int, tuple[RecordStatus, int]]  # record index -> (STORED | DUPLICATE, game)


def _insert(
    valid: list[ValidRecord], user: Any, ids: KnownIds, stamp: datetime.datetime, retry: bool,
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
    first: dict[str, ValidRecord] = {}
    for v in valid:
        h = v.content_hash
        if h in stored and h not in first:
            pk, at, by = stored[h]
            first[h] = v
            if retry and at == stamp and by == user_id:
                outcomes[v.index] = (RecordStatus.STORED, pk)
                mine.append(pk)
            else:
                outcomes[v.index] = (RecordStatus.DUPLICATE, pk)
        elif h not in first:
            first[h] = v
    fresh = [v for v in valid if v.content_hash not in stored and first[v.content_hash] is v]
    if fresh:
        tags = {v.match_tag for v in fresh if v.match_tag is not None}
        # Lock order across concurrent imports: matches, games, players (keys sorted).
        matches = match_ids(tags, ids, new_matches) if tags else {}
        games = Game.objects.copy_rows(game_rows(fresh, matches, user_id, stamp))
        players = player_ids(
            (row["name"] for v in fresh for row in v.seats), ids, new_players
        )
        GameSeat.objects.copy_rows(seat_rows(fresh, games, players))
        for v, game_id in zip(fresh, games, strict=True):
            outcomes[v.index] = (RecordStatus.STORED, game_id)
            mine.append(game_id)
    for v in valid:
        if v.index not in outcomes:  # a repeat of an earlier record of the batch
            outcomes[v.index] = (RecordStatus.DUPLICATE, outcomes[first[v.content_hash].index][1])
    return outcomes, mine


def game_rows(
    fresh: list[ValidRecord], matches: dict[str, int], user_id: Any, stamp: datetime.datetime
) -> list[dict[str, Any]]:
    """The `Game` rows of `fresh`."""
    rows = []
    for v in fresh:
        row = dict(v.fields)
        row["match_id"] = matches[match_key(v.match_tag)] if v.match_tag is not None else None
        row["original_text"] = v.text
        row["uploaded_by_id"] = user_id
        row["uploaded_at"] = row["validated_at"] = row["updated_at"] = stamp
        rows.append(row)
    return rows


def seat_rows(
    fresh: list[ValidRecord], game_ids: list[int], players: dict[str, int]
) -> list[dict[str, Any]]:
    """The `GameSeat` rows of `fresh`, whose games got `game_ids` (each seat with its game's
    date: `GameSeat.date`)."""
    return [
        {**seat, "game_id": game_id, "player_id": players[player_key(seat["name"])],
         "date": v.fields["date"]}
        for v, game_id in zip(fresh, game_ids, strict=True)
        for seat in v.seats
    ]


def _stored_hashes(hashes: set[str]) -> dict[str, tuple[int, datetime.datetime, int | None]]:
    """The stored games among these content hashes: hash -> (id, uploaded_at, uploader id)."""
    games = Game.objects.only("pk", "content_hash", "uploaded_at", "uploaded_by_id").in_bulk(
        sorted(hashes), field_name="content_hash")
    return {h: (game.pk, game.uploaded_at, game.uploaded_by_id) for h, game in games.items()}


def _store_records(
    valid: list[ValidRecord], user: Any, ids: KnownIds, stamp: datetime.datetime,
    retry: bool = False, before_commit: Callable[[Outcomes], None] | None = None,
) -> Outcomes:
    """Store records in one transaction: all of them or none. `before_commit(outcomes)` runs
    inside it, so that what it writes (a job's progress) commits with the games or not at all."""
    new_players: dict[str, int] = {}
    new_matches: dict[str, int] = {}
    with transaction.atomic():
        outcomes, mine = _insert(valid, user, ids, stamp, retry, new_players, new_matches)
        for game_id in mine:
            send_on_commit(game_stored, game_id)
        if before_commit is not None:
            before_commit(outcomes)
    ids.remember(new_players, new_matches)
    return outcomes


def _store_batch(
    valid: list[ValidRecord], user: Any, ids: KnownIds, stamp: datetime.datetime,
    retry: bool = False, before_commit: Callable[[Outcomes], None] | None = None,
) -> Outcomes:
    """Store a batch in one transaction; when a unique index refuses it (a concurrent upload
    stored one of its records, or deleted a cached player), store it record by record."""
    if len(valid) > 1:
        try:
            return _store_records(valid, user, ids, stamp, retry, before_commit)
        except IntegrityError:
            ids.clear()  # a cached id may point at a row deleted meanwhile: look again
    outcomes: Outcomes = {}
    decided: dict[str, int] = {}  # content hash -> game, for repeats inside the batch
    for v in valid:
        if v.content_hash in decided:
            outcomes[v.index] = (RecordStatus.DUPLICATE, decided[v.content_hash])
            continue
        outcomes.update(_store_one(v, user, ids, stamp, retry))
        decided[v.content_hash] = outcomes[v.index][1]
    return outcomes


def _store_one(
    v: ValidRecord, user: Any, ids: KnownIds, stamp: datetime.datetime, retry: bool = False
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
                return {v.index: (RecordStatus.DUPLICATE, existing)}
            if attempt == 2:
                raise
            ids.clear()
    raise AssertionError("unreachable")


def store_retrying(
    valid: list[ValidRecord], user: Any, ids: KnownIds,
    before_commit: Callable[[Outcomes], None] | None = None,
) -> Outcomes | DatabaseError:
    """`_store_batch`, retried on a new connection after each of DB_RETRY_DELAYS when the
    connection is lost; the last error when it stays lost. Every attempt stamps the games with
    the same upload time, which is how a retry recognises games its lost commit stored."""
    stamp = _new_stamp()
    delays = iter(DB_RETRY_DELAYS)
    retry = False
    while True:
        try:
            return _store_batch(valid, user, ids, stamp, retry, before_commit)
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
