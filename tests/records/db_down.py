"""A database that goes down in the middle of an import, for the tests of every door (service,
API, web): the first batches are stored, then every attempt to store one fails as a lost
connection does, and the import's retries (not slept) give up."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError

from records.services import importing, storing


def database_down_after(monkeypatch: pytest.MonkeyPatch, batches: int, size: int = 2) -> None:
    """Batches of `size` valid records; the database is lost for good after `batches` of them
    were stored (the connection itself keeps working: only storing fails)."""
    monkeypatch.setattr(importing, "BATCH_RECORDS", size)
    monkeypatch.setattr(importing, "BATCH_SECONDS", 3600.0)
    monkeypatch.setattr(storing, "DB_RETRY_DELAYS", (0.5,))
    monkeypatch.setattr(storing.time, "sleep", lambda seconds: None)
    insert = storing._insert
    calls = {"n": 0}

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > batches:
            raise OperationalError("server closed the connection unexpectedly")
        return insert(*args, **kwargs)

    monkeypatch.setattr(storing, "_insert", failing)
