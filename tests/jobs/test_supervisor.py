"""The job workers gunicorn's master keeps (jobs/supervisor.py): started, started again when
one dies, stopped with the master."""

from __future__ import annotations

import os
import signal
import sys
import time

from jobs.supervisor import WorkerPool

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def _wait(condition: object, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_it_starts_another_worker_when_one_dies_and_stops_them_all() -> None:
    pool = WorkerPool(2, command=SLEEPER)
    pool.start()
    try:
        first = pool.pids()
        assert len(first) == 2

        os.kill(first[0], signal.SIGKILL)
        _wait(lambda: len(pool.pids()) == 2 and first[0] not in pool.pids())

        assert first[1] in pool.pids()  # the other one was left alone
    finally:
        pool.stop(timeout=5)
    assert pool.pids() == []


def test_it_starts_nothing_when_there_is_nothing_to_start() -> None:
    pool = WorkerPool(0, command=SLEEPER)
    pool.start()
    assert pool.pids() == []
    pool.stop()
