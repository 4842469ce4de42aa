"""`manage.py run_jobs`: the background worker of the default set-up (no Celery broker).

Runs queued jobs (large uploads, revalidations, statistics) one at a time until stopped
(SIGTERM or Ctrl-C: the job at hand is finished first... or, if killed, taken over by the next
worker). The web server starts it by itself (config/gunicorn.conf.py, `make run`); run it by
hand, under systemd or on other machines for more workers. With CELERY_BROKER_URL set, Celery
runs the jobs and this command refuses to start.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from jobs.publish import uses_celery
from jobs.worker import Worker

# Logged, not printed: under gunicorn the worker's lines join the server's (JSON) log.
logger = logging.getLogger("fourcolor.jobs")


class Command(BaseCommand):
    help = "Run background jobs from the database (the worker of the set-up without a broker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--poll", type=float, default=None,
                            help="seconds between looks at the queue when idle (default 1)")
        parser.add_argument("--until-empty", action="store_true",
                            help="run the jobs that are runnable now, then exit")
        parser.add_argument("--parent-pid", type=int, default=None,
                            help="exit when this process (the web server) is gone")

    def handle(self, *args: Any, **options: Any) -> None:
        if uses_celery():
            raise CommandError("CELERY_BROKER_URL is set: Celery's workers run the jobs "
                               "(celery -A config worker -B).")
        worker = Worker(poll=options["poll"], parent_pid=options["parent_pid"])
        if options["until_empty"]:
            ran = worker.drain()
            self.stdout.write(f"{ran} jobs run")
            return
        signal.signal(signal.SIGTERM, worker.stop)
        signal.signal(signal.SIGINT, worker.stop)
        logger.info("job worker started (pid %d; no broker: jobs come from the database)",
                    os.getpid())
        worker.run_forever()
        logger.info("job worker stopped (pid %d)", os.getpid())
