"""Errors outside the views, as a real gunicorn (started with config/gunicorn.conf.py) answers
them: every answer under /api/ is the API's JSON error body, whether the application refuses
the request (a query string over QUERY_STRING_MAX_BYTES: 414; a Host the site does not serve:
400) or gunicorn itself does, before any path is read (a request line over 8190 bytes: 414;
headers too large: 431; a malformed request line: 400)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.gunicorn_errors import json_error
from tests.config.production import BASE_DIR, OURS, production, run

CONF = BASE_DIR / "config" / "gunicorn.conf.py"
GUNICORN = Path(sys.executable).with_name("gunicorn")
HOST = "cards.example"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _send(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `raw` as it is (no client library would send these) and read the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(raw)
        answer = http.client.HTTPResponse(conn)  # reads a chunked body as well
        answer.begin()
        body = answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body


def _get(port: int, target: str, host: str = HOST, extra: str = "") -> tuple[int, dict[str, str],
                                                                             bytes]:
    return _send(port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n"
                       "\r\n".encode("latin-1"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    tmp = tmp_path_factory.mktemp("gunicorn")
    environ = production(DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}", HTTPS="false",
                         ALLOWED_HOSTS=HOST)
    migrated = run(["manage.py", "migrate", "--noinput", "-v", "0"], **environ)
    assert migrated.returncode == 0, migrated.stderr
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in OURS}
    env.update(environ, GUNICORN_CMD_ARGS=f"--bind 127.0.0.1:{port} --workers 1",
               JOB_WORKERS="0")
    log = tmp / "gunicorn.log"
    with log.open("w") as out:
        process = subprocess.Popen([str(GUNICORN), "-c", str(CONF), "config.wsgi"],
                                   cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def _error(answer: tuple[int, dict[str, str], bytes], status: int) -> dict[str, object]:
    got, headers, body = answer
    assert got == status, body[:500]
    assert headers["content-type"].startswith("application/json"), (headers, body[:500])
    error: dict[str, object] = json.loads(body)["error"]
    assert error["status"] == status and error["code"] and error["message"]
    assert b"<html" not in body.lower()
    return error


@pytest.mark.slow
def test_it_answers_every_error_under_the_api_with_the_json_body(server: int) -> None:
    # Refused by the application: a query string over QUERY_STRING_MAX_BYTES (4096).
    app = _error(_get(server, "/api/v1/games/?player=" + "a" * 5000), 414)
    assert (app["code"], app["message"]) == (
        "uri_too_long", "The query string has 5007 bytes; at most 4096 are accepted.")
    # A Host the site does not serve (Django's DisallowedHost).
    assert _error(_get(server, "/api/v1/games/", host="evil.example"), 400)["code"] == (
        "bad_request")
    # Refused by gunicorn itself, before the path is read.
    line = _error(_get(server, "/api/v1/games/?player=" + "a" * 9000), 414)
    assert line["code"] == "uri_too_long" and "Request Line is too large" in str(
        line["message"])
    big_header = f"X-Big: {'b' * 9000}\r\n"
    assert _error(_get(server, "/api/v1/games/", extra=big_header), 431)["code"] == (
        "headers_too_large")
    bad = _error(_send(server, b"GET /api/v1/games/ HTTP/1.1 extra\r\nHost: x\r\n\r\n"), 400)
    assert bad["code"] == "bad_request"


@pytest.mark.slow
def test_it_still_answers_the_site_in_html_and_plain_text(server: int) -> None:
    status, headers, body = _get(server, "/?player=" + "a" * 5000)
    assert status == 414 and headers["content-type"].startswith("text/plain")
    assert b"The query string has 5007 bytes" in body
    status, headers, _ = _get(server, "/healthz")
    assert status == 200 and headers["content-type"].startswith("application/json")


def test_it_writes_a_whole_http_answer_with_the_json_body() -> None:
    raw = json_error(414, "URI Too Long", "Request Line is too large (9000 > 8190) \u00e9<")
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 414 URI Too Long\r\n")
    assert b"Content-Type: application/json\r\n" in head
    assert f"Content-Length: {len(body)}".encode() in head
    assert json.loads(body) == {"error": {
        "status": 414, "code": "uri_too_long",
        "message": "URI Too Long: Request Line is too large (9000 > 8190) \u00e9<"}}
