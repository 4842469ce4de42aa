"""Probe: password guessing and rate limits against the production set-up, as an attacker would.

    .venv/bin/python scripts/security_probe.py [--port 8203] [--workers 4]
        [--database-url postgres://postgres@127.0.0.1:5432/fourcolor_probe]
        [--guesses 60] [--requests 100]

gunicorn with DEBUG off and no Redis, run with NUM_PROXIES=0 and 1 (behind a proxy that
appends to X-Forwarded-For), each on a fresh copy of the database (migrated once): 60 wrong
passwords then the right one at each sign-in door, 100 anonymous exports, 100 uploads with a
token (docs/reliability.md). Prints one line per probe; exit status 1 when a limit did not hold.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.served import (  # noqa: E402
    create_database, database, drop_database, fresh_log, gunicorn, make_token, manage,
    production_env, stop, verdict)

PASSWORD = "probe-correct-horse-battery-9"


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  _NoRedirect())

    def send(self, path: str, data: Any = None, headers: dict[str, str] | None = None,
             form: bool = False) -> tuple[int, dict[str, str], bytes]:
        body = None
        headers = dict(headers or {})
        if data is not None:
            if form:
                body = urllib.parse.urlencode(data).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            elif isinstance(data, bytes):
                body = data
            else:
                body = json.dumps(data).encode()
                headers.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.base + path, data=body, headers=headers,
                                         method="POST" if body is not None else "GET")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def csrf(self, path: str) -> str:
        status, _, page = self.send(path)
        match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if match is None:
            raise SystemExit(f"no CSRF field on {path} ({status})")
        return match.group(1).decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def first(statuses: list[int], status: int) -> int | None:
    return next((i + 1 for i, s in enumerate(statuses) if s == status), None)


def guess(base: str, door: str, username: str, xff: str | None, wrong: int
          ) -> tuple[list[int], int, str | None]:
    """`wrong` wrong passwords then the right one: every status, the last one's, its
    Retry-After."""
    statuses: list[int] = []
    headers: dict[str, str] = {}
    sent = {"X-Forwarded-For": xff} if xff else {}
    for attempt in range(wrong + 1):
        password = PASSWORD if attempt == wrong else f"guess-{attempt}"
        client = Client(base)
        if door == "api":
            status, headers, _ = client.send("/api/v1/auth/token/",
                                             {"username": username, "password": password},
                                             headers=sent)
        else:
            path = "/accounts/login/" if door == "site" else "/admin/login/"
            token = client.csrf(path)
            status, headers, _ = client.send(
                path, {"username": username, "password": password,
                       "csrfmiddlewaretoken": token}, form=True,
                headers={"Referer": base + path} | sent)
        statuses.append(status)
    return statuses, statuses[-1], headers.get("Retry-After")


def probe(url: str, token: str, args: argparse.Namespace, proxies: int
          ) -> list[tuple[str, bool]]:
    # No job worker: nothing probed here queues a job.
    environ = production_env(url, NUM_PROXIES=str(proxies), JOB_WORKERS="0")
    port, workers, wrong = args.port, args.workers, args.guesses
    server = gunicorn(environ, port, workers, fresh_log(f"security_probe_{proxies}.log"))
    base = f"http://127.0.0.1:{port}"
    checks: list[tuple[str, bool]] = []
    try:
        print(f"NUM_PROXIES={proxies}, {workers} gunicorn workers, no Redis:")
        # The three doors in turn. Without a proxy every request comes from loopback, so the
        # first door's guesses lock the address for the next two at once; behind the proxy
        # each door's guesser has its own address.
        for n, door in enumerate(("site", "admin", "api")):
            xff = f"198.51.100.{n + 1}" if proxies else None
            statuses, last, retry = guess(base, door, door, xff, wrong)
            locked_at = first(statuses, 429)
            print(f"  guessing at {door:5}: first 429 at attempt {locked_at}; the right password "
                  f"after {wrong} wrong: {last} (Retry-After {retry}); statuses "
                  f"{sorted(set(statuses[:wrong]))}")
            # The 5th failure is itself answered "locked" (SIGN_IN_FAILURE_LIMIT=5).
            expected = 5 if proxies or door == "site" else 1
            checks.append((f"{door}: locked at the 5th failure (of this account or address)",
                           locked_at == expected))
            checks.append((f"{door}: the right password refused while locked", last == 429))
        other_status = guess_from_once(base, "spare", proxies, "198.51.100.3")
        print(f"  another account's right password from the guessing address: {other_status}")
        checks.append(("the address is locked for every account", other_status == 429))
        if proxies:
            fresh = guess_from_once(base, "spare2", proxies, "198.51.100.77")
            print(f"  another account from another address: {fresh}")
            checks.append(("others are not concerned", fresh == 302))
        # The guesses above counted against the anonymous rate of their address too: start
        # the rate-limit probes from empty counters.
        manage(environ, "shell", "-c", "from django.core.cache import cache; cache.clear()")

        statuses, retry = exports(base, forged=True, last_hop="203.0.113.5", proxies=proxies,
                                  count=args.requests)
        at = first(statuses, 429)
        print(f"  {args.requests} anonymous exports with made-up X-Forwarded-For: first 429 "
              f"at request {at}, {statuses.count(429)} refused; Retry-After {retry}")
        checks.append(("exports limited at the burst rate (10/minute)", at == 11))
        checks.append(("a burst waits under a minute", retry is not None and int(retry) <= 60))
        if proxies:
            other, _ = exports(base, forged=False, last_hop="203.0.113.6", proxies=proxies,
                               count=3)
            print(f"  another client behind the proxy: {other}")
            checks.append(("another client behind the proxy is not limited",
                           other == [200, 200, 200]))
        manage(environ, "shell", "-c", "from django.core.cache import cache; cache.clear()")
        ups = uploads(base, token, args.requests)
        at = first(ups, 429)
        print(f"  {args.requests} uploads with one token: first 429 at upload {at}")
        checks.append(("uploads limited at the burst rate (20/minute)", at == 21))
    finally:
        stop(server)
    return checks


def guess_from_once(base: str, username: str, proxies: int, address: str) -> int:
    client = Client(base)
    headers = {"X-Forwarded-For": address} if proxies else {}
    status, _, _ = client.send("/api/v1/auth/token/", {"username": username,
                                                      "password": PASSWORD}, headers=headers)
    return 302 if status == 201 else status


def exports(base: str, *, forged: bool, last_hop: str, proxies: int, count: int
            ) -> tuple[list[int], str | None]:
    statuses: list[int] = []
    retry = None
    for n in range(count):
        header = f"10.{n}.{n}.{n}, {last_hop}" if forged else last_hop
        status, headers, _ = Client(base).send("/api/v1/games/export/?max=1",
                                               headers={"X-Forwarded-For": header})
        statuses.append(status)
        if status == 429 and retry is None:
            retry = headers.get("Retry-After")
    return statuses, retry


def uploads(base: str, token: str, count: int) -> list[int]:
    return [Client(base).send("/api/v1/uploads/", b"[no record]\n",
                              headers={"Authorization": f"Token {token}",
                                       "Content-Type": "text/x-fcn"})[0]
            for _ in range(count)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8203)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/fourcolor_probe")
    parser.add_argument("--guesses", type=int, default=60,
                        help="wrong passwords at each door (past the limit of 5)")
    parser.add_argument("--requests", type=int, default=100,
                        help="exports and uploads sent (past their limits of 10 and 20)")
    args = parser.parse_args()
    if args.guesses < 5 or args.requests < 21:
        parser.error("--guesses 5 or more and --requests 21 or more: past the limits")
    # The database migrated and its users made once; each probe runs on a copy of it.
    template = args.database_url
    environ = production_env(template)
    database(environ, drop=True)
    manage(environ, "shell", "-c", (
        "from django.contrib.auth.models import User; "
        f"[User.objects.create_user(n, password='{PASSWORD}', is_staff=True, is_superuser=True)"
        " for n in ('site', 'admin', 'api', 'spare', 'spare2', 'spare3')]"))
    token = make_token(environ, "uploader")
    checks = []
    for proxies in (0, 1):
        url = f"{template}_{proxies}"
        create_database(url, template=urllib.parse.urlsplit(template).path.lstrip("/"))
        try:
            checks += [(f"NUM_PROXIES={proxies}: {name}", ok) for name, ok in
                       probe(url, token, args, proxies)]
        finally:
            drop_database(url)
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
