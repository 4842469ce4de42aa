"""The production set-up on loopback, for the load and upload scripts: the environment
(DEBUG off, plain HTTP), manage.py, a PostgreSQL database, an API token, gunicorn with
config/gunicorn.conf.py started and stopped."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SECRET_KEY = secrets.token_urlsafe(40)


def production_env(database_url: str, **extra: str) -> dict[str, str]:
    """DEBUG off, plain HTTP on loopback (no redirect, no Secure-only cookies), quiet logs."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS": "false",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([PYTHON, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def database(env: dict[str, str], *, drop: bool) -> None:
    """The environment's database created when missing (dropped first with `drop`), migrated,
    and the static files collected, as for any production start with DEBUG off."""
    import psycopg

    parts = urllib.parse.urlsplit(env["DATABASE_URL"])
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if drop:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f"CREATE DATABASE \"{name}\" ENCODING 'UTF8' TEMPLATE template0")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")


def make_token(env: dict[str, str], username: str) -> str:
    code = (
        "from django.contrib.auth.models import User\n"
        "from records.tokens import create_token\n"
        f"user, _ = User.objects.get_or_create(username={username!r})\n"
        "print(create_token(user, \"served\")[1])\n"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A process in a session of its own (stopped with its children), its output in `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def celery(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A Celery worker with beat, concurrency 1 (stop it with `stop`)."""
    return start([PYTHON, "-m", "celery", "-A", "config", "worker", "-B", "-s",
                  str(log.with_name("beat-schedule")), "-l", "info", "--concurrency", "1",
                  "--without-gossip", "--without-mingle", "--without-heartbeat"], env, log)


def gunicorn(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    """gunicorn on 127.0.0.1:`port`, once `/healthz` answers (at most 60 s). The port must be
    free: a server already there would answer for this one."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(f"port {port} is in use: choose another with --port")
    server = start([str(Path(PYTHON).with_name("gunicorn")), "-c",
                    str(ROOT / "config" / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}",
                    "--workers", str(workers), "config.wsgi"], env, log)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
            return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                stop(server)
                raise SystemExit(f"gunicorn did not answer /healthz: see {log}") from None
            time.sleep(0.3)
