"""Job worker processes started and stopped with the web server (no Django imported here).

gunicorn's master calls `WorkerPool.start` once it is ready and `WorkerPool.stop` on exit
(config/gunicorn.conf.py): the pool runs `manage.py run_jobs` JOB_WORKERS times, starts again
any that dies (with a growing pause if it keeps dying at once), and each worker also exits by
itself when the master is gone (`--parent-pid`), even after a kill -9 of the master. So the
default set-up needs no second command, and a job outlives the request that queued it.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
logger = logging.getLogger("fourcolor.jobs")

# Restart pauses for a worker that exits unexpectedly: doubled while it keeps dying within
# STABLE_SECONDS of its start, back to the first once it ran that long.
FIRST_PAUSE = 1.0
MAX_PAUSE = 30.0
STABLE_SECONDS = 60.0


def worker_command(*arguments: str) -> list[str]:
    """`run_jobs` through `python -m django`, which an installed wheel has too (it ships no
    manage.py), under the server's own settings module."""
    settings = os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings")
    return [sys.executable, "-m", "django", "run_jobs", "--settings", settings, *arguments]


class WorkerPool:
    def __init__(self, size: int, *, command: list[str] | None = None) -> None:
        self.size = size
        self.command = command or worker_command("--parent-pid", str(os.getpid()))
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * size
        self._started = [0.0] * size
        self._pause = [FIRST_PAUSE] * size
        self._due = [0.0] * size
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.size <= 0:
            return
        for slot in range(self.size):
            self._spawn(slot)
        self._thread = threading.Thread(target=self._watch, name="job-workers", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM every worker (each finishes its batch at hand), SIGKILL after `timeout`."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        alive = [p for p in self.processes if p is not None and p.poll() is None]
        for process in alive:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in alive:
            try:
                process.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def pids(self) -> list[int]:
        return [p.pid for p in self.processes if p is not None and p.poll() is None]

    def _spawn(self, slot: int) -> None:
        self.processes[slot] = subprocess.Popen(self.command, cwd=ROOT)
        self._started[slot] = time.monotonic()
        logger.info("job worker %d started (pid %d)", slot + 1, self.processes[slot].pid)

    def _watch(self) -> None:
        while not self._stopping.wait(0.5):
            for slot, process in enumerate(self.processes):
                if process is None or process.poll() is None:
                    continue
                now = time.monotonic()
                if not self._due[slot]:
                    ran = now - self._started[slot]
                    self._pause[slot] = (FIRST_PAUSE if ran >= STABLE_SECONDS
                                         else min(self._pause[slot] * 2, MAX_PAUSE))
                    self._due[slot] = now + self._pause[slot]
                    logger.warning("job worker %d (pid %d) exited with %s; starting another "
                                   "in %.0f s", slot + 1, process.pid, process.returncode,
                                   self._pause[slot])
                elif now >= self._due[slot]:
                    self._due[slot] = 0.0
                    self._spawn(slot)
