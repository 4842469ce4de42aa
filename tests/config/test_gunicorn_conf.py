"""config/gunicorn.conf.py: its defaults, the logging from the environment, and a real gunicorn
started with it (its bind and workers from GUNICORN_CMD_ARGS) answering on loopback with JSON
log lines."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.config.production import BASE_DIR, OURS, production, run

CONF = BASE_DIR / "config" / "gunicorn.conf.py"
GUNICORN = Path(sys.executable).with_name("gunicorn")
_REPORT = f"""
import json, runpy
conf = runpy.run_path({str(CONF)!r})
print(json.dumps({{key: conf[key] for key in (
    "bind", "workers", "timeout", "max_requests", "max_requests_jitter", "forwarded_allow_ips",
    "limit_request_line", "accesslog", "loglevel")}}))
print(conf["logconfig_dict"]["handlers"]["console"]["formatter"])
"""


def _conf(**environ: str) -> tuple[dict[str, object], str]:
    result = run(["-c", _REPORT], **environ)
    assert result.returncode == 0, result.stderr
    values, formatter = result.stdout.splitlines()
    return json.loads(values), formatter


def test_it_has_production_defaults() -> None:
    values, formatter = _conf(**production())

    assert values == {
        "bind": ["127.0.0.1:8000"],
        "workers": 2 * multiprocessing.cpu_count() + 1,
        "timeout": 60,
        "max_requests": 2000,
        "max_requests_jitter": 200,
        "forwarded_allow_ips": "127.0.0.1,::1",
        "limit_request_line": 8190,
        "accesslog": None,
        "loglevel": "info",
    }
    assert formatter == "json"


def test_it_reads_the_logging_from_the_environment() -> None:
    values, formatter = _conf(LOG_LEVEL="WARNING", LOG_FORMAT="plain")

    assert values["loglevel"] == "warning"
    assert formatter == "plain"


def test_it_refuses_a_job_worker_count_it_cannot_read() -> None:
    result = run(["-c", _REPORT], JOB_WORKERS="many")

    assert result.returncode != 0
    assert "JOB_WORKERS='many' is not an integer" in result.stderr


def _free_port() -> int:
    # A port the system just gave out: a fixed range may be taken by another test run's server.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, dict(response.headers), response.read()


@pytest.mark.slow
def test_it_serves_the_site_with_gunicorn(tmp_path: Path) -> None:
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in OURS}
    env.update(production(
        HTTPS="false", ALLOWED_HOSTS="127.0.0.1", DATABASE_URL=f"sqlite:///{tmp_path / 'db'}",
        GUNICORN_CMD_ARGS=f"--bind 127.0.0.1:{port} --workers 1",
    ))
    # /healthz also reads the jobs' tables.
    migrated = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                              cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300)
    assert migrated.returncode == 0, migrated.stderr
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(GUNICORN), "-c", str(CONF), "config.wsgi"], cwd=BASE_DIR, env=env,
            stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, headers, body = _get(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        while "job worker started" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    assert status == 200, body
    assert json.loads(body)["status"] == "ok"
    assert "Content-Security-Policy" in headers
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    loggers = {line["logger"] for line in lines}
    assert {"gunicorn.error", "fourcolor.request", "fourcolor.jobs"} <= loggers, lines
    # The job worker (no broker) ran beside the web workers and stopped with the master.
    messages = [line["message"] for line in lines if line["logger"] == "fourcolor.jobs"]
    assert any(m.startswith("job worker started") for m in messages), messages
    assert any(m.startswith("job worker stopped") for m in messages), messages
    # (A probe that timed out on a busy machine may have been served and logged too.)
    (served,) = [line for line in lines if line["logger"] == "fourcolor.request"
                 and line["request_id"] == headers["X-Request-ID"]]
    assert (served["path"], served["status"]) == ("/healthz", 200)
