"""Property-based tests of the REST API against a live server: schemathesis reads the OpenAPI
schema the project generates and sends every operation generated requests, checking that no
answer is a server error or breaks the schema (status, content type, headers, body).

    .venv/bin/python scripts/schemathesis_run.py [--examples 20] [--max-time 300] [--games 40]
        [--seed 1] [--database-url URL] [-- SCHEMATHESIS OPTIONS]

gunicorn as in production (config/gunicorn.conf.py: its request limits, and its own refusals,
a request line over 8190 bytes or headers too large, in the API's JSON error body, are part of
what is checked) over a new database (a temporary SQLite file unless --database-url names a
new, empty one) with a few demo games and an API token for a throw-away user. Every operation
runs with `--checks all`; scripts/schemathesis.toml states the exemptions and why (an illegal
draft event is 400 by design, ...). Options after `--` go to schemathesis (e.g.
`--include-path /api/v1/uploads/` to run one operation while working on it; the token
operations' own run is then left out). Exit status 1 on a failure or a server traceback.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.served import (  # noqa: E402
    PYTHON, free_port, gunicorn, lifted_limits, manage, stop)

# The token endpoints' POST and DELETE give a new key to, or revoke, the very token a run
# authenticates with (a revoked id is a guess away): they run last, on a token of their own
# (their answers are checked the same; nothing runs after them that the token would need).
LAST_OPERATIONS = ("auth_token_create", "auth_token_destroy", "auth_tokens_destroy")


def schemathesis(port: int, args: argparse.Namespace, token: str, max_time: int,
                 *options: str) -> int:
    # The response-time check that --checks all adds (10 s a request unless told) waits as
    # long as the request timeout: on a shared machine a neighbour's load, not the API,
    # decided it (a 404 took 15 s), and speed is measured by bench/. A request that hangs
    # still fails. One worker: with two, hypothesis' lambda-source cache (which calls
    # ast.parse) races between the worker threads on Python 3.11 and aborts an operation with
    # "AST constructor recursion depth mismatch", an error of the test tool, not of the API.
    command = [str(Path(PYTHON).with_name("schemathesis")), "--config-file",
               str(ROOT / "scripts" / "schemathesis.toml"), "run",
               f"http://127.0.0.1:{port}/api/v1/schema/?format=json", "--checks", "all",
               "--max-examples", str(args.examples), "--seed", str(args.seed), "--workers", "1",
               "--request-timeout", "30", "--generation-database", "none",
               "--max-response-time", "30", "--header", f"Authorization: Token {token}",
               *(["--max-time", str(max_time)] if max_time else []), *options]
    return subprocess.run(command, cwd=ROOT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=20, help="examples per operation")
    # A time budget is shared out between schemathesis' phases (the coverage phase's 3,000-odd
    # boundary cases get a third) and fuzzing and stateful repeat until it is spent: what a run
    # sends depends on the machine's speed and load. Without one (0) each phase runs once,
    # bounded by the examples, and what a run sends no longer depends on the machine (a little
    # on what varies in the answers, which schemathesis learns from: times, keys, the port).
    parser.add_argument("--max-time", type=int, default=300,
                        help="seconds (a fifth more for the token operations); 0: each phase once")
    parser.add_argument("--games", type=int, default=40, help="demo games seeded")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="", help="a new, empty database")
    parser.add_argument("options", nargs="*", help="passed on to schemathesis (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fourcolor-schemathesis-") as work:
        url = args.database_url or f"sqlite:///{work}/schemathesis.sqlite3"
        # Its own database, which also holds its cache (counters, kept answers) and its job
        # queue: a Redis in the caller's environment would share them with whatever else uses
        # it. DEBUG on: no collectstatic (only the API is tested; a server error is a 500
        # either way). Rate limits out of the way (thousands of requests from one address);
        # analyses the run requests are queued jobs, cheap ones, that no worker runs.
        env = {key: value for key, value in os.environ.items()
               if key not in ("REDIS_URL", "CELERY_BROKER_URL")}
        env.update(DATABASE_URL=url, DEBUG="true", LOG_LEVEL="ERROR", JOB_WORKERS="0",
                   API_THROTTLE_DRAFTS="1000000/hour", ANALYSIS_REQUESTS_PER_HOUR="1000000",
                   ANALYSIS_SAMPLES="2", ANALYSIS_MAX_SAMPLES="4", **lifted_limits())
        print(f"schemathesis: database {url}, {args.games} demo games", flush=True)
        manage(env, "migrate", "--noinput", "-v", "0")
        # A new database each run: a used one keeps what the last run left (its user's 50
        # tokens, which refuse this run's token, sign-in lockouts, drafts).
        used = manage(env, "shell", "-v", "0", "-c", "from django.contrib.auth import "
                      "get_user_model; print(get_user_model().objects.exists())")
        if used.split()[-1] != "False":
            raise SystemExit("schemathesis: the database already has users: give a new one")
        manage(env, "seed_demo", "--games", str(args.games), "--seed", str(args.seed), "--force")
        token = manage(env, "issue_token", "schemathesis", "--create-user").split()[-1]
        port = free_port(range(8300, 8400))
        log = Path(work) / "server.log"
        server = gunicorn(env, port, 2, log)
        try:
            skip = [f"--exclude-operation-id={op}" for op in LAST_OPERATIONS]
            status = schemathesis(port, args, token, args.max_time, *skip, *args.options)
            if not args.options:
                last = manage(env, "issue_token", "schemathesis-tokens", "--create-user")
                only = [f"--include-operation-id={op}" for op in LAST_OPERATIONS]
                status |= schemathesis(port, args, last.split()[-1], args.max_time // 5, *only)
        finally:
            stop(server)
        # The server's own output: Django logs errors with their tracebacks.
        if "Traceback" in log.read_text():
            print(f"schemathesis: the server logged errors:\n{log.read_text()}", file=sys.stderr)
            status = 1
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
