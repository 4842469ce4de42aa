"""Shared fixtures for the whole suite.

The database is the one DATABASE_URL names (SQLite under var/ when unset); pytest-django runs
the tests against a `test_` copy it creates and drops, so one suite covers SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest


def pytest_report_header(config: pytest.Config) -> str:
    """Say which database this run covers, so that CI logs show both runs apart."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    vendor = database["ENGINE"].rsplit(".", 1)[-1]
    if vendor == "sqlite3":
        return f"database: sqlite3, in memory (configured file: {database['NAME']})"
    host = database.get("HOST") or "local socket"
    return f"database: {vendor}, a test_ copy of {database['NAME']} on {host}"
