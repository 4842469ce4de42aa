"""Running the job queue inside a test: what `manage.py run_jobs` does with the jobs queued
now (the default set-up's worker), in the test's own process and database."""

from __future__ import annotations

from typing import Any


def run_worker() -> int:
    """Run every runnable job (and queue statistics once if games are due); how many ran."""
    from jobs.worker import Worker

    return Worker(stats_check=3600).drain()


def database_url(db: dict[str, Any]) -> str:
    """The URL of the database Django is using (the test database's name included), for the
    workers a test starts as other processes."""
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{db.get('HOST') or ''}:{db.get('PORT') or 5432}/{db['NAME']}"
