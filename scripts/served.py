"""The scripts' one set-up: the production environment on loopback (DEBUG off, plain HTTP),
manage.py, PostgreSQL databases (on a server, or a throwaway instance of its own), an API token,
and the processes the scripts start and stop (gunicorn, a Celery worker, the job worker)."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SECRET_KEY = secrets.token_urlsafe(40)
# The scripts' own DATA_DIR: the tests CI runs beside them read var/static, and collectstatic
# deletes each hashed file before it writes it again.
DATA_DIR = ROOT / "var" / "served"


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
        "DATA_DIR": str(DATA_DIR),
        **extra,
    }


def verdict(checks: list[tuple[str, bool]]) -> int:
    """Each check printed ok or FAIL; the exit status: 1 when one failed."""
    for name, ok in checks:
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    return 0 if all(ok for _, ok in checks) else 1


def lifted_limits(rate: str = "1000000000/hour") -> dict[str, str]:
    """The API's rate limits out of the way, for a load that is meant to be served."""
    return {f"API_THROTTLE_{kind}": rate for kind in ("ANON", "USER", "UPLOAD", "EXPORT")}


def run_manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)


def manage(env: dict[str, str], *args: str) -> str:
    """manage.py's output; SystemExit with its error output when it fails."""
    done = run_manage(env, *args)
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def create_database(database_url: str, *, drop: bool = True, template: str = "template0"
                    ) -> None:
    """The URL's database created on its server when missing (dropped first with `drop`), as
    a copy of `template`: another database of the server, migrated once and copied in a
    fraction of a second where migrating anew takes half a minute on a busy machine."""
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if drop:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f"CREATE DATABASE \"{name}\" ENCODING 'UTF8' TEMPLATE \"{template}\"")


def rows(database_url: str, sql: str, params: Any = None, *, timeout: int = 10
         ) -> list[tuple[Any, ...]]:
    """The rows a query gives, on a connection of its own."""
    import psycopg

    with psycopg.connect(database_url, connect_timeout=timeout) as conn:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]


def uncounted(database_url: str) -> int:
    """Stored games the statistics do not count yet."""
    return int(rows(database_url, "SELECT count(*) FROM records_game g WHERE NOT EXISTS "
                    "(SELECT 1 FROM ratings_countedgame c WHERE c.game_id = g.id)")[0][0])


def drop_database(database_url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def database(env: dict[str, str], *, drop: bool) -> None:
    """The environment's database created (`create_database`) and migrated, and the static
    files collected as for any production start with DEBUG off, unless they were collected
    after the last change to static/ and the last install (it takes 20 s of CPU); one script
    at a time collects them (CI runs two lanes of scripts side by side)."""
    create_database(env["DATABASE_URL"], drop=drop)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    static = Path(env.get("DATA_DIR", DATA_DIR)) / "static"
    static.mkdir(parents=True, exist_ok=True)
    sources = [Path(PYTHON).parent.parent / ".installed", *(ROOT / "static").rglob("*")]
    with (static.parent / "collectstatic.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        manifest = static / "staticfiles.json"
        if not manifest.is_file() or manifest.stat().st_mtime < max(
                path.stat().st_mtime for path in sources if path.exists()):
            manage(env, "collectstatic", "--noinput", "--verbosity", "0")


def make_token(env: dict[str, str], username: str) -> str:
    code = (
        "from django.contrib.auth.models import User\n"
        "from records.tokens import create_token\n"
        f"user, _ = User.objects.get_or_create(username={username!r})\n"
        "print(create_token(user, \"served\")[1])\n"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def records_file(count: int, run: str) -> tuple[str, list[str]]:
    """`count` distinct valid records (engine-generated rounds, each its own deal, from seeds
    no other run uses, under numbered Event tags), then a repeat of the first and one with an
    unknown ruleset: the file's text and the valid records."""
    import fourcolor
    from fourcolor.generate import generate_record

    shapes = [(r, p) for r in ("classic", "bga") for p in (2, 3, 4)]
    first = zlib.crc32(run.encode()) * 100_000
    valid = [
        fourcolor.write_fcn(generate_record(*shapes[i % 6], first + i,
                                            tags={"Event": f"{run} #{i}"}))
        for i in range(count)
    ]
    bad = valid[0].replace('[Event "', '[Event "refused ', 1).replace(
        '[Ruleset "', '[Ruleset "no-such-', 1)
    return "\n".join([*valid, valid[0], bad]), valid


def fresh_log(name: str) -> Path:
    """var/`name`, emptied: what one run's process wrote, kept after the run."""
    log = ROOT / "var" / name
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    return log


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A process in a session of its own (stopped, or killed, with its children: a worker's
    pool, beat), its output in `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen[Any], sig: int = signal.SIGTERM) -> None:
    """`sig` to the process's session (SIGKILL: as a crash would), then SIGKILL past a minute."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def celery(env: dict[str, str], log: Path, *, concurrency: int = 1, beat: bool = True,
           queue: str | None = None, name: str | None = None) -> subprocess.Popen[bytes]:
    """A Celery worker (with beat, its schedule beside `log`; or on `queue` only)."""
    command = [PYTHON, "-m", "celery", "-A", "config", "worker", "-l", "info",
               "--concurrency", str(concurrency), "--without-gossip", "--without-mingle",
               "--without-heartbeat"]
    if beat:
        command += ["-B", "-s", str(log.with_name(log.stem + "-beat-schedule"))]
    if queue is not None:
        command += ["-Q", queue]
    if name is not None:
        command += ["-n", f"{name}@%h"]
    return start(command, env, log)


def run_jobs(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """The database job worker, polling every 0.2 s."""
    return start([PYTHON, "manage.py", "run_jobs", "--poll", "0.2"], env, log)


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


def request(url: str, *, data: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 30) -> tuple[int, Any, bytes]:
    """An HTTP answer (a POST when there is `data`): status, headers, body; status 0 when none
    came (a connection reset, a timeout)."""
    req = urllib.request.Request(url, data=data, headers=headers or {},
                                 method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
    except OSError:
        return 0, {}, b""


def free_port(ports: range) -> int:
    for port in ports:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise SystemExit(f"no free port in {ports.start}-{ports.stop - 1}")


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise SystemExit(f"no {name} under /usr/lib/postgresql/*/bin")
    return found[-1]


def _as_postgres(*args: str, check: bool = True) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", *args], check=check,
                   capture_output=True, text=True)


class Instance:
    """A throwaway PostgreSQL cluster in `base` with one database, `name` (needs root, the
    server binaries and the `postgres` OS user); the shared server is never touched."""

    def __init__(self, base: Path, port: int, name: str) -> None:
        self.base, self.port, self.name = base, port, name
        self.data = base / "data"
        self.log = base / "server.log"

    def init(self) -> None:
        """initdb, start, and the database created."""
        import pwd

        entry = pwd.getpwnam("postgres")
        os.chown(self.base, entry.pw_uid, entry.pw_gid)
        _as_postgres(_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                     "-E", "UTF8", "--no-sync")
        self.start()
        create_database(self.url, drop=False)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=on"
        _as_postgres(_pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o",
                     options, "-w", "start")

    def stop(self) -> None:
        _as_postgres(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop",
                     check=False)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.name}"

    def query(self, sql: str) -> Any:
        """One value, or None when the server does not answer."""
        import psycopg

        try:
            found = rows(self.url, sql, timeout=2)
        except psycopg.OperationalError:
            return None
        return found[0][0] if found else None


@contextlib.contextmanager
def throwaway_instance(port: int, name: str) -> Iterator[Instance]:
    """An `Instance` in a temporary directory, initialised and started; stopped and removed
    at the end whatever happens."""
    if os.geteuid() != 0:
        raise SystemExit("run as root (the instance runs as the postgres user via runuser)")
    base = Path(tempfile.mkdtemp(prefix="fourcolor-pg-"))
    db = Instance(base, port, name)
    try:
        print(f"throwaway PostgreSQL in {base}, 127.0.0.1:{port}", flush=True)
        db.init()
        yield db
    finally:
        db.stop()
        shutil.rmtree(base, ignore_errors=True)
