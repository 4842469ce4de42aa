"""Gunicorn settings for production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

Defaults for every host; gunicorn's own command-line options (or GUNICORN_CMD_ARGS, e.g.
`--bind unix:/run/fourcolor.sock --workers 4`) override any of them. The Django settings
(DATABASE_URL, SECRET_KEY, ...) come from the environment, as usual.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path

# The file is run by path: make the project and its Django settings importable.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402

from config import gunicorn_errors  # noqa: E402

# --- Sockets and processes --------------------------------------------------------------------

# Loopback: the proxy in front connects here (`--bind 0.0.0.0:8000`, `--bind unix:/run/x.sock`).
bind = ["127.0.0.1:8000"]
# Gunicorn's sync workers: each holds one request; the views are CPU- and database-bound.
workers = 2 * multiprocessing.cpu_count() + 1
# A request still running after this many seconds has its worker killed and restarted: large
# uploads go to background jobs, so the web needs no more than this.
timeout = 60
graceful_timeout = 30
keepalive = 5
# Restart each worker after about this many requests (0: never), with jitter so that they do
# not all restart at once: bounds the growth of any slow leak.
max_requests = 2000
max_requests_jitter = 200

# --- Behind a proxy ---------------------------------------------------------------------------

# Addresses whose X-Forwarded-* headers are believed (`--forwarded-allow-ips`, "*" for any):
# the TLS-terminating proxy in front. Django reads X-Forwarded-Proto only with
# BEHIND_HTTPS_PROXY.
forwarded_allow_ips = "127.0.0.1,::1"

# --- Request limits (gunicorn answers 400/414/431 before Django sees the request) ----------

# Request line (method, path and query string) in bytes: long enough for a filtered archive
# address, short enough to refuse abuse. It must stay above QUERY_STRING_MAX_BYTES (4096):
# an address with a query string merely too long is then refused by the application, with a
# 414 that says by how much (JSON under /api/). What gunicorn refuses itself (a longer line,
# headers too large, a malformed request) is answered with the API's JSON error body too
# (config/gunicorn_errors.py), never gunicorn's HTML page.
limit_request_line = 8190
gunicorn_errors.install()

# --- Logging ----------------------------------------------------------------------------------

# The application logs every request (config.middleware.RequestLogMiddleware, with its id and
# duration), so gunicorn's access log is off unless asked for (`--access-logfile -`).
accesslog = None
# Remote address, request line, status, size, duration in microseconds, request id, agent.
access_log_format = (
    '%(h)s "%(r)s" %(s)s %(B)s %(D)sus id=%({x-request-id}o)s "%(a)s"'
)
loglevel = settings.LOG_LEVEL.lower()
# Gunicorn's own lines (worker boots, timeouts) in the application's format (LOG_FORMAT).
logconfig_dict = settings.LOGGING

# --- Background job workers -------------------------------------------------------------------

# Without a Celery broker (the default), the master also runs JOB_WORKERS database job workers
# (`manage.py run_jobs`, jobs/supervisor.py): started once the server is ready, started again
# if one dies, stopped with the master. Long work (large uploads, statistics) runs there, never
# in a web worker's request. With CELERY_BROKER_URL set, Celery's workers do it instead.
_job_workers = 0 if settings.CELERY_BROKER_URL else settings.JOB_WORKERS
_pool = None


def when_ready(server: object) -> None:
    global _pool
    from jobs.supervisor import WorkerPool

    _pool = WorkerPool(_job_workers)
    _pool.start()


def on_exit(server: object) -> None:
    if _pool is not None:
        _pool.stop(timeout=graceful_timeout)
