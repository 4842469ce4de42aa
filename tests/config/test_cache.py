"""common.cache.DatabaseCache: Django's database cache whose `set` is one statement on
PostgreSQL, culled every CULL_CHECK_EVERY writes. The same behaviour on SQLite (Django's). The
request counters of the rate limits (count_hits) on the database and on Redis."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from common import cache as database_cache
from tests.conftest import (REDIS_TEST_URL, SHARED_CACHES, clear_redis_test_keys,
                            redis_test_cache)

# One test process at a time on the Redis test database (`make test` runs several).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("redis")]


@pytest.fixture
def site_cache(settings: Any) -> Any:
    settings.CACHES = {"default": {**SHARED_CACHES["default"],  # type: ignore[dict-item]
                                   "OPTIONS": {"MAX_ENTRIES": 5, "CULL_FREQUENCY": 2}}}
    store = caches["default"]
    store.clear()
    return store


def test_it_is_the_site_s_cache_without_redis() -> None:
    assert SHARED_CACHES["default"]["BACKEND"] == "common.cache.DatabaseCache"  # type: ignore[index]


def test_it_writes_reads_overwrites_and_expires(site_cache: Any) -> None:
    site_cache.set("a", {"n": 1}, 60)
    site_cache.set("a", {"n": 2}, 60)
    site_cache.set("gone", 1, -1)

    assert site_cache.get("a") == {"n": 2}
    assert site_cache.get("gone") is None
    assert site_cache.add("a", 3) is False and site_cache.get("a") == {"n": 2}
    assert site_cache.get_many(["a", "missing"]) == {"a": {"n": 2}}


def test_it_writes_an_entry_in_one_statement_on_postgresql(site_cache: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement write is PostgreSQL's (ON CONFLICT); SQLite is Django's")
    site_cache.set("warm", 0)
    site_cache._sets_since_count = 0
    with CaptureQueriesContext(connection) as queries:
        site_cache.set("counter", [1.0, 2.0], 60)
    writes = [q["sql"] for q in queries.captured_queries if "fourcolor_cache" in q["sql"]]

    assert len(writes) == 1 and "ON CONFLICT" in writes[0]
    assert site_cache.get("counter") == [1.0, 2.0]


def test_it_culls_past_max_entries_once_every_so_many_writes(
    site_cache: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database_cache, "CULL_CHECK_EVERY", 4)

    for n in range(12):
        site_cache.set(f"k{n}", n, 60)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM fourcolor_cache")
        rows = cursor.fetchone()[0]

    # MAX_ENTRIES is 5: without culling all 12 would stay (SQLite: Django culls at each write).
    assert rows < 12


@pytest.fixture
def redis_cache() -> Any:
    import redis

    try:
        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"no Redis at {REDIS_TEST_URL}")
    settings = redis_test_cache()
    store = database_cache.RedisCache(settings["LOCATION"], settings)
    clear_redis_test_keys()  # not store.clear(): that flushes every run's keys
    yield store
    clear_redis_test_keys()


def test_its_redis_cache_keeps_and_reads_entries(redis_cache: Any) -> None:
    redis_cache.set("a", {"n": 1}, 60)
    redis_cache.set("b", [1.5], 60)

    assert redis_cache.get("a") == {"n": 1} and redis_cache.get_many(["a", "b"]) == {
        "a": {"n": 1}, "b": [1.5]}
    redis_cache.delete("a")
    assert redis_cache.get("a") is None


# --- Request counters (the caches' count_hits, for common.rates) ---------------------------


def test_it_counts_hits_in_windows_that_open_with_the_first(site_cache: Any) -> None:
    windows = [("a:60", 60), ("a:3600", 3600)]

    first = site_cache.count_hits(windows, 1_000.0)
    second = site_cache.count_hits(windows, 1_010.0)
    site_cache.uncount_hits(["a:60", "a:3600"], 1_010.0)
    third = site_cache.count_hits(windows, 1_020.0)
    next_minute = site_cache.count_hits(windows, 1_060.0)

    assert first == [(1, 60.0), (1, 3600.0)]
    assert second == [(2, 50.0), (2, 3590.0)]
    assert third == [(2, 40.0), (2, 3580.0)]  # the second was taken back
    assert next_minute == [(1, 60.0), (3, 3540.0)]


def test_taking_back_a_hit_leaves_an_ended_window_ended(site_cache: Any) -> None:
    site_cache.count_hits([("b:60", 60)], 1_000.0)
    site_cache.uncount_hits(["b:60"], 1_061.0)

    assert site_cache.count_hits([("b:60", 60)], 1_062.0) == [(1, 60.0)]


def test_it_counts_every_window_of_a_request_in_one_statement(site_cache: Any) -> None:
    site_cache._sets_since_count = 0
    with CaptureQueriesContext(connection) as queries:
        site_cache.count_hits([("c:60", 60), ("c:3600", 3600)], 1_000.0)
    # (The savepoint around it is the test's transaction's: a request's runs in autocommit.)
    counting = [q["sql"] for q in queries.captured_queries if "fourcolor_cache" in q["sql"]]

    assert len(counting) == 1


@pytest.mark.django_db(transaction=True)
def test_workers_counting_at_once_lose_no_hit(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's test database is one connection's, in memory")
    settings.CACHES = SHARED_CACHES
    store = caches["default"]
    store.clear()

    def worker() -> None:
        try:
            for _ in range(25):
                store.count_hits([("d:60", 60)], 1e9)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert store.count_hits([("d:60", 60)], 1e9)[0][0] == 201
    store.clear()


def test_its_redis_counters_count_at_once_and_expire(redis_cache: Any) -> None:
    def worker() -> None:
        for _ in range(25):
            redis_cache.count_hits([("e:60", 60), ("e:3600", 3600)], 0.0)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (minute, minute_left), (hour, hour_left) = redis_cache.count_hits(
        [("e:60", 60), ("e:3600", 3600)], 0.0)
    redis_cache.uncount_hits(["e:60"], 0.0)

    assert (minute, hour) == (201, 201) and 59 < minute_left <= 60 and 3599 < hour_left <= 3600
    assert redis_cache.get("e:60") == 200
    client = redis_cache._cache.get_client(write=True)
    assert 0 < client.ttl(redis_cache.make_key("e:3600")) <= 3600


def test_it_writes_many_entries_in_one_statement(
    site_cache: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    site_cache.set("old", "was", 60)
    entries = {f"m{n}": {"n": n} for n in range(4)} | {"old": "now"}
    site_cache._sets_since_count = 0
    with CaptureQueriesContext(connection) as queries:
        failed = site_cache.set_many(entries, 60)
    writes = [q["sql"] for q in queries.captured_queries if "fourcolor_cache" in q["sql"]]
    monkeypatch.setattr(database_cache, "SET_MANY_ROWS", 2)  # thousands: a statement a batch
    site_cache.set_many({f"b{n}": n for n in range(5)}, 60)

    assert failed == [] and len(writes) == 1
    assert site_cache.get_many(list(entries)) == entries
    assert site_cache.get_many([f"b{n}" for n in range(5)]) == {f"b{n}": n for n in range(5)}
