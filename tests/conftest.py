"""Shared fixtures for the whole suite.

The database is the one DATABASE_URL names (SQLite under var/ when unset); pytest-django runs
the tests against a `test_` copy it creates and drops, so one suite covers SQLite and PostgreSQL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import settings

# No time limit per example: a property test checks what the code does, never how fast (speed
# lives in bench/). Hypothesis' 200 ms default failed a test whose first example built the
# engine's tables on a loaded machine.
settings.register_profile("fourcolor", deadline=None)
settings.load_profile("fourcolor")

# The analysis fixtures (held_jobs, few_analysis_samples) serve the analysis, web and browser
# tests alike.
pytest_plugins = ["tests.analysis.fixtures"]

# pytest-django's fixtures that open the test database; a test using any of them (directly or
# through another fixture), or marked django_db, is a database test.
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences",
                               "django_db_serialized_rollback", "live_server"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the database tests `database`, so that a second run on another database can select
    only them (`-m database`): the others give the same result whatever DATABASE_URL says,
    since pytest-django refuses them any database access."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)


def pytest_report_header(config: pytest.Config) -> str:
    """Say which database this run covers, so that CI logs show both runs apart."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    vendor = database["ENGINE"].rsplit(".", 1)[-1]
    if vendor == "sqlite3":
        return f"database: sqlite3, in memory (configured file: {database['NAME']})"
    host = database.get("HOST") or "local socket"
    return f"database: {vendor}, a test_ copy of {database['NAME']} on {host}"


# The cache as the site is configured (without REDIS_URL: the database table that migration
# api/0001 creates), for the tests about it (tests/api/test_rate_limits.py).
SHARED_CACHES: dict[str, object] = {}


@pytest.fixture(autouse=True)
def _process_local_cache(settings: Any) -> None:
    """A per-process cache for every test but those that ask for the site's own.

    The site counts API rate limits in the database so that every worker shares them; under
    test that would add the counter's queries to every query count, and make fixtures that
    clear the counters need the database. Only the store changes: the counting is the same.
    """
    if not SHARED_CACHES:
        SHARED_CACHES.update(settings.CACHES)  # type: ignore[attr-defined]
    settings.CACHES = {  # type: ignore[attr-defined]
        "default": {"BACKEND": "tests.local_cache.CountingLocMemCache"}}
    # Rate-limit counters (common.rates) never carry over: users' ids repeat between tests.
    clear_test_cache()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """PBKDF2's deliberate slowness costs most of a second per account a test makes
    (scripts/security_probe.py signs in against the real hasher)."""
    settings.PASSWORD_HASHERS = [  # type: ignore[attr-defined]
        "django.contrib.auth.hashers.MD5PasswordHasher"]


# The Redis the cache tests count in. Its database is shared with every other test run on the
# machine (other checkouts, CI beside them): each process keeps its keys under a prefix of its
# own and deletes only those, never the whole database (Django's RedisCache.clear flushes it).
REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/6")
REDIS_TEST_PREFIX = f"fourcolor-test-{uuid.uuid4().hex}"


def redis_test_cache() -> dict[str, Any]:
    """A cache setting on the test Redis, under this process's prefix."""
    return {"BACKEND": "common.cache.RedisCache", "LOCATION": REDIS_TEST_URL,
            "KEY_PREFIX": REDIS_TEST_PREFIX}


def clear_test_cache() -> None:
    """Empty the default cache: on the test Redis, this process's keys only."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    if isinstance(caches["default"], RedisCache):
        clear_redis_test_keys()
    else:
        caches["default"].clear()


def clear_redis_test_keys() -> None:
    """Delete this process's keys on the test Redis, and nobody else's."""
    import redis

    client = redis.Redis.from_url(REDIS_TEST_URL)
    keys = list(client.scan_iter(match=f"{REDIS_TEST_PREFIX}:*", count=1000))
    if keys:
        client.delete(*keys)


Rows = TypeVar("Rows")


def rows_for_the_module(django_db_blocker: Any, build: Callable[[], Rows]) -> Iterator[Rows]:
    """For a module-scoped fixture: what `build` stores, in a transaction around the module's
    tests (each test runs in a savepoint of it, so what a test writes is rolled back before the
    next) and rolled back after the last. Only for modules without transactional tests."""
    from django.db import transaction

    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
        try:
            rows = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield rows
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
