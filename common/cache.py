"""The site's cache backends: Django's, with one-statement writes on the database, and the
rate limits' request counters (`count_hits`, for common.rates).

**The database** (CACHES without REDIS_URL). Django's DatabaseCache writes an entry in five
round trips: it counts the whole table (to cull it past MAX_ENTRIES), then selects the key and
updates or inserts it. Here `set` is one `INSERT ... ON CONFLICT DO UPDATE` on PostgreSQL and
`set_many` one statement on PostgreSQL and SQLite; the table is counted (and culled as Django
does) once every CULL_CHECK_EVERY sets of a process, so it may hold up to that many entries per
process above MAX_ENTRIES for a while. `add`, `touch` and other databases are Django's. Gain on
a game's first API reads (a ply, then the detail: its 100-odd ply states in one `set_many`):
33 ms of CPU against 173 ms, 0.30 s against 6.6 s median wall time on a loaded machine (2,000
games on PostgreSQL; `bench/speed_layers.py db_cache`, docs/performance.md "Speed layers").

**Request counters**: one counter per client and rate window, counted up by one atomic
operation per request: on the database one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`
for every window of a request (PostgreSQL, and SQLite from 3.35), on Redis one Lua script. A
window opens with its counter's first request and ends a window's length later, when the count
starts again. On the database the row holds the count as plain digits, not a pickle (only
`count_hits` and `uncount_hits` read it). Without RETURNING (SQLite before 3.35), and in the
tests' per-process cache, a lock of this process counts.
"""

from __future__ import annotations

import base64
import math
import pickle
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from datetime import datetime, timezone
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

CULL_CHECK_EVERY = 100
# Entries a `set_many` statement writes at most (3 parameters each, far below PostgreSQL's
# 65,535 and SQLite's 32,766).
SET_MANY_ROWS = 1000


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets_since_count = 0

    def _base_set(self, mode: str, key: str, value: Any,
                  timeout: float | None = DEFAULT_TIMEOUT) -> bool:  # type: ignore[assignment]
        db, connection = self._connection()
        if mode != "set" or connection.vendor != "postgresql":
            return bool(super()._base_set(mode, key, value, timeout))
        try:
            with self._writing(db) as cursor:
                self._upsert(cursor, connection, [key], [value], timeout)
        except DatabaseError:
            # As Django's: a cache write that fails is not the request's failure.
            return False
        return True

    def set_many(self, data: dict[str, Any], timeout: float | None = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[str]:  # type: ignore[assignment]
        """Every entry in one statement (a few for thousands) on PostgreSQL and SQLite, where
        Django's writes them one by one (five round trips each): a game's ply states are a
        set_many of some 130 entries (records.replay_cache.cached_pieces)."""
        db, connection = self._connection()
        if not data or connection.vendor not in ("postgresql", "sqlite"):
            return list(super().set_many(data, timeout, version))
        keys = [self.make_and_validate_key(key, version=version) for key in data]
        values = list(data.values())
        try:
            with self._writing(db, len(keys)) as cursor:
                for start in range(0, len(keys), SET_MANY_ROWS):
                    self._upsert(cursor, connection, keys[start:start + SET_MANY_ROWS],
                                 values[start:start + SET_MANY_ROWS], timeout)
        except DatabaseError:
            return list(data)  # Django's answer: the keys that were not written
        return []

    def _upsert(self, cursor: Any, connection: Any, keys: Sequence[str], values: Sequence[Any],
                timeout: float | None) -> None:
        """Write `keys` = `values` in one `INSERT ... ON CONFLICT DO UPDATE`, as Django's
        `set` writes an entry (a pickle in base64, expiry to the second)."""
        timeout = self.get_backend_timeout(timeout)
        moment = self._moment(connection, None if timeout is None else int(timeout))
        rows: list[Any] = []
        for key, value in zip(keys, values, strict=True):
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol))
            rows += [key, encoded.decode("latin1"), moment]
        table, key, value, expires = self._names(connection)
        cursor.execute(
            f"INSERT INTO {table} ({key}, {value}, {expires}) VALUES "
            + ", ".join(["(%s, %s, %s)"] * len(keys))
            + f" ON CONFLICT ({key}) DO UPDATE SET "
            f"{value} = EXCLUDED.{value}, {expires} = EXCLUDED.{expires}",
            rows,
        )

    @contextmanager
    def _writing(self, db: str, writes: int = 1) -> Iterator[Any]:
        """A cursor for one write of the table, culled first once every CULL_CHECK_EVERY
        writes. Inside a transaction, a savepoint: a failed write must not break the caller's.
        In autocommit (a read's request), none: the statement is its own transaction."""
        connection = connections[db]
        guard = transaction.atomic(using=db) if connection.in_atomic_block else nullcontext()
        with guard, connection.cursor() as cursor:
            self._sets_since_count += writes
            if self._sets_since_count >= CULL_CHECK_EVERY:
                self._sets_since_count = 0
                table = connection.ops.quote_name(self._table)
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                count = cursor.fetchone()[0]
                if count > self._max_entries:
                    self._cull(db, cursor, tz_now().replace(microsecond=0), count)
            yield cursor

    def count_hits(self, windows: Sequence[tuple[str, int]],
                   now: float, cost: int = 1) -> list[tuple[int, float]]:
        """Count one request (`cost` hits: a request for several analyses) in each of `windows`
        ((counter name, window in seconds)), atomically, in one statement: every worker and
        machine sharing the cache counts together. Returns each counter's count with this
        request and the seconds left in its window. A counter's window opens with its first
        request; once it has ended the next request opens a new one at its cost."""
        db, connection = self._connection()
        if not connection.features.can_return_columns_from_insert:
            return count_locally(self, windows, now, cost)
        table, key, value, expires = self._names(connection)
        keys = {self.make_and_validate_key(name): name for name, _ in windows}
        rows: list[Any] = []
        for made, (_, window) in zip(keys, windows, strict=True):
            rows += [made, str(cost), self._moment(connection, now + window)]
        # A window that has ended starts again at one, ending a window's length from now (the
        # new row's `expires`); else one more, in the same window. Both SET expressions read
        # the row as it was.
        ended = f"{table}.{expires} <= %s"
        with self._writing(db) as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({key}, {value}, {expires}) VALUES "
                + ", ".join(["(%s, %s, %s)"] * len(windows))
                + f" ON CONFLICT ({key}) DO UPDATE SET "
                f"{value} = CASE WHEN {ended} THEN EXCLUDED.{value} "
                f"ELSE CAST(CAST({table}.{value} AS INTEGER) + {int(cost)} AS TEXT) END, "
                f"{expires} = CASE WHEN {ended} THEN EXCLUDED.{expires} "
                f"ELSE {table}.{expires} END "
                f"RETURNING {key}, {value}, {expires}",
                rows + [self._moment(connection, now)] * 2,
            )
            counted = {keys[row[0]]: (int(row[1]), _seconds(row[2]) - now)
                       for row in cursor.fetchall()}
        return [counted[name] for name, _ in windows]

    def uncount_hits(self, names: Sequence[str], now: float, cost: int = 1) -> None:
        """Take back the request `count_hits` counted in these counters (a request that was
        refused: it spends none of the client's allowance), in the windows still open."""
        db, connection = self._connection()
        if not connection.features.can_return_columns_from_insert:
            uncount_locally(self, names, now, cost)
            return
        table, key, value, expires = self._names(connection)
        with self._writing(db) as cursor:
            cursor.execute(
                f"UPDATE {table} SET {value} = "
                f"CAST(CAST({value} AS INTEGER) - {int(cost)} AS TEXT) "
                f"WHERE {key} IN ({', '.join(['%s'] * len(names))}) AND {expires} > %s",
                [self.make_and_validate_key(name) for name in names]
                + [self._moment(connection, now)],
            )

    def _connection(self) -> tuple[str, Any]:
        db = router.db_for_write(self.cache_model_class)
        return db, connections[db]

    def _names(self, connection: Any) -> tuple[str, str, str, str]:
        """The table's name and its three columns', quoted."""
        quote = connection.ops.quote_name
        return quote(self._table), quote("cache_key"), quote("value"), quote("expires")

    @staticmethod
    def _moment(connection: Any, seconds: float | None) -> Any:
        """`seconds` since the epoch as the table's `expires` holds it (None: never). A
        counter's to the microsecond (Django's whole seconds would make a window up to a
        second longer than its rate); an entry's whole seconds, as Django writes them."""
        moment = (datetime.max.replace(microsecond=0) if seconds is None else
                  datetime.fromtimestamp(seconds, tz=timezone.utc if settings.USE_TZ else None))
        return connection.ops.adapt_datetimefield_value(moment)


def _seconds(expires: Any) -> float:
    """An `expires` read back (a datetime from PostgreSQL, its text from SQLite) in seconds
    since the epoch."""
    if isinstance(expires, str):
        expires = datetime.fromisoformat(expires)
    if expires.tzinfo is None and settings.USE_TZ:
        expires = expires.replace(tzinfo=timezone.utc)
    return float(expires.timestamp())


class RedisCache(DjangoRedisCache):
    @cached_property
    def _scripts(self) -> tuple[Any, Any]:
        """The counting and uncounting scripts (registered once, loaded by their first call)."""
        client = self._cache.get_client(write=True)
        return client.register_script(_COUNT_SCRIPT), client.register_script(_UNCOUNT_SCRIPT)

    def count_hits(self, windows: Sequence[tuple[str, int]],
                   now: float, cost: int = 1) -> list[tuple[int, float]]:
        """One script: as DatabaseCache.count_hits. Redis's clock times the windows (`now` is
        the caller's, for the other stores)."""
        keys = [self.make_and_validate_key(name) for name, _ in windows]
        answer = self._scripts[0](keys, [int(cost), *(window * 1000 for _, window in windows)],
                                  self._cache.get_client(write=True))
        return [(int(answer[i]), int(answer[i + 1]) / 1000) for i in range(0, len(answer), 2)]

    def uncount_hits(self, names: Sequence[str], now: float, cost: int = 1) -> None:
        """As DatabaseCache.uncount_hits."""
        self._scripts[1]([self.make_and_validate_key(name) for name in names], [int(cost)],
                         self._cache.get_client(write=True))


# KEYS: the counters; ARGV: the cost, then each counter's window in ms. A counter without an
# expiry is new (INCRBY made it) or was left so by an uncount racing its expiry: its window
# starts now.
_COUNT_SCRIPT = """
local answer = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCRBY', key, ARGV[1])
  local left = redis.call('PTTL', key)
  if left < 0 then
    left = tonumber(ARGV[i + 1])
    redis.call('PEXPIRE', key, left)
  end
  answer[2 * i - 1] = count
  answer[2 * i] = left
end
return answer
"""
# Only counters still in their window: an ended one is gone, and DECR would make it again.
_UNCOUNT_SCRIPT = """
for _, key in ipairs(KEYS) do
  if redis.call('PTTL', key) > 0 then redis.call('DECRBY', key, ARGV[1]) end
end
return 0
"""


# Counting without the database's RETURNING (and in the tests' per-process cache): a lock of this
# process.
_counting = threading.Lock()


def count_locally(cache: Any, windows: Sequence[tuple[str, int]],
                  now: float, cost: int = 1) -> list[tuple[int, float]]:
    answer = []
    with _counting:
        for name, window in windows:
            count, ends = cache.get(name) or (0, now)
            if ends <= now:
                count, ends = 0, now + window
            cache.set(name, (count + cost, ends), max(math.ceil(ends - now), 1))
            answer.append((count + cost, ends - now))
    return answer


def uncount_locally(cache: Any, names: Sequence[str], now: float, cost: int = 1) -> None:
    with _counting:
        for name in names:
            held = cache.get(name)
            if held is not None and held[1] > now:
                cache.set(name, (held[0] - cost, held[1]), max(math.ceil(held[1] - now), 1))
