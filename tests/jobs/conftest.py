"""Fixtures for the background-job tests: users, a file of records (valid ones, a repeat and
an illegal one) and a low threshold so that a few kilobytes already make a background job."""

from __future__ import annotations

import os
import re
import zlib
from dataclasses import dataclass
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

# The same users and token clients as the API tests.
from tests.api.conftest import client_for, other_user, staff, user  # noqa: F401
from tests.records.conftest import bad_record, fcn_file, good_texts
from tests.worker import run_worker  # noqa: F401

# Redis databases for the Celery brokers of the tests that start real workers. Not 0 and 1
# (a developer's own), 6 (the cache tests) or 13 to 15 (the fault scripts CI runs beside the
# tests, and the broker the Celery fault tests point at): a broker database is flushed.
BROKER_DATABASES = (2, 3, 4, 5, 7, 8, 9, 10, 11, 12)


@pytest.fixture
def redis_broker() -> Iterator[str]:
    """The URL of a flushed Redis database that no other test process uses while this test
    runs: each xdist worker runs one test at a time and has its own database, and suites of
    other test databases (engineers' side by side) start elsewhere in the list."""
    suite = re.sub(r"_gw\d+$", "", str(settings.DATABASES["default"]["NAME"]))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    number = BROKER_DATABASES[(zlib.crc32(suite.encode()) + worker) % len(BROKER_DATABASES)]
    url = f"redis://127.0.0.1:6379/{number}"
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        client.flushdb()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis server for the broker at {url}: {exc}")
    yield url
    client.flushdb()


# Below any test file's size: every upload in these tests is a background job unless a test
# raises it again.
THRESHOLD = 2000


@dataclass(frozen=True)
class Upload:
    """A file of records and what importing it must give."""

    text: str
    valid: list[str]  # the distinct valid records, in file order
    stored: int
    duplicates: int
    refused: int
    statuses: list[str]  # each record's verdict, in file order

    @property
    def data(self) -> bytes:
        return self.text.encode("utf-8")


def make_upload(count: int, start: int = 300) -> Upload:
    """`count` valid records, then a repeat of the first and an illegal one."""
    valid = good_texts(count, start=start)
    texts = [*valid, valid[0], bad_record(1).text]
    statuses = ["stored"] * count + ["duplicate", "refused"]
    return Upload(fcn_file(texts), valid, count, 1, 1, statuses)


@pytest.fixture
def upload() -> Upload:
    return make_upload(12)


@pytest.fixture(autouse=True)
def _low_threshold(settings: Any) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = THRESHOLD
    cache.clear()  # throttle counters


def failing_at(real: Callable[..., Any], call: int, error: Exception, *,
               returned: bool = False) -> Callable[..., Any]:
    """`real`, except that its `call`-th call meets `error`: raised, or with `returned` given
    back as `storing.store_retrying` gives back the error its retries could not get past."""
    calls = {"n": 0}

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            if returned:
                return error
            raise error
        return real(*args, **kwargs)

    return wrapped
