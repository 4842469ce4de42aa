"""The site's caches: Django's, each with one cost of its own removed.

**Redis** (CACHES with REDIS_URL): Django's client makes a new `redis.Redis` object for every
cache operation, and redis-py 5+'s constructor builds its table of some two hundred response
callbacks each time: about half a millisecond of CPU per get or set, three or more per API
request (its rate-limit counter, the kept answer). `RedisCache` keeps one client per
connection pool (one per server); the pools are Django's, and redis-py's clients are
thread-safe and re-create their connections after a fork, as the pools do.

**The database** (CACHES without REDIS_URL), with a `set` of one statement on PostgreSQL.

Django's DatabaseCache writes an entry in five round trips to the database: it counts the whole
table (to cull it when over MAX_ENTRIES), then, in a transaction, selects the key and updates
or inserts it. Every API request writes its client's rate-limit counter (api.throttling), so
that was five of the round trips of a request that otherwise makes two or three. Here, on
PostgreSQL, `set` is one `INSERT ... ON CONFLICT DO UPDATE` (atomic by itself, as the
transaction made Django's), and the table is counted (and culled as Django does) once every
CULL_CHECK_EVERY sets of a process rather than at every one: it may hold up to that many
entries per process above MAX_ENTRIES for a while. `add` and `touch`, and other databases,
are Django's.
"""

from __future__ import annotations

import base64
import pickle
from contextlib import nullcontext
from datetime import datetime, timezone
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

CULL_CHECK_EVERY = 100


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets_since_count = 0

    def _base_set(self, mode: str, key: str, value: Any,
                  timeout: float | None = DEFAULT_TIMEOUT) -> bool:  # type: ignore[assignment]
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if mode != "set" or connection.vendor != "postgresql":
            return bool(super()._base_set(mode, key, value, timeout))
        timeout = self.get_backend_timeout(timeout)
        if timeout is None:
            expires = datetime.max
        else:
            expires = datetime.fromtimestamp(timeout, tz=timezone.utc if settings.USE_TZ else None)
        expires = expires.replace(microsecond=0)
        quote = connection.ops.quote_name
        table = quote(self._table)
        encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        # Inside a transaction, a savepoint: a failed write must not break the caller's. In
        # autocommit (a read's request), none: the statement is its own transaction.
        guard = transaction.atomic(using=db) if connection.in_atomic_block else nullcontext()
        try:
            with guard, connection.cursor() as cursor:
                self._sets_since_count += 1
                if self._sets_since_count >= CULL_CHECK_EVERY:
                    self._sets_since_count = 0
                    cursor.execute(f"SELECT COUNT(*) FROM {table}")
                    count = cursor.fetchone()[0]
                    if count > self._max_entries:
                        self._cull(db, cursor, tz_now().replace(microsecond=0), count)
                cursor.execute(
                    f"INSERT INTO {table} ({quote('cache_key')}, {quote('value')}, "
                    f"{quote('expires')}) VALUES (%s, %s, %s) "
                    f"ON CONFLICT ({quote('cache_key')}) DO UPDATE SET "
                    f"{quote('value')} = EXCLUDED.{quote('value')}, "
                    f"{quote('expires')} = EXCLUDED.{quote('expires')}",
                    [key, encoded, connection.ops.adapt_datetimefield_value(expires)],
                )
        except DatabaseError:
            # As Django's: a cache write that fails is not the request's failure.
            return False
        return True


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client, handing out one `redis.Redis` per pool instead of one per call."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
