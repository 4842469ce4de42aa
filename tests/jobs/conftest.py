"""Fixtures for the background-job tests: users, a file of records (valid ones, a repeat and
an illegal one) and a low threshold so that a few kilobytes already make a background job."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

# The same users and token clients as the API tests.
from tests.api.conftest import client_for, other_user, staff, user  # noqa: F401
from tests.records.conftest import bad_record, fcn_file, good_texts
from tests.worker import run_worker  # noqa: F401

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
