"""Gunicorn's own error answers in the API's JSON error body.

Gunicorn refuses some requests before any application code sees them: a request line over
`limit_request_line` (414), too many or too large headers (431), a malformed request line,
method or header (400), and the like. Its answer is a small HTML page; a client of /api/v1/
then meets the one answer that is not the documented `{"error": {"status", "code",
"message"}}`. The request's path is not known then (the line was not read whole), so every
such answer is the JSON body: these requests come from broken or hostile clients, never from a
link on the site (an address merely too long gets the application's own 414 first:
config/gunicorn.conf.py, `limit_request_line`).

`install()` replaces `gunicorn.util.write_error`, the one function every worker class calls to
send these answers (gunicorn.workers.base.Worker.handle_error); config/gunicorn.conf.py calls
it in the master, before the workers are forked.
"""

from __future__ import annotations

import json
import socket

from gunicorn import util

from common.errors import error_body

# The API's error codes (api/exceptions.py) for the statuses gunicorn answers itself.
CODES = {
    400: "bad_request",
    403: "permission_denied",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}


def json_error(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer: status line, headers and the JSON error body."""
    text = f"{reason}: {message}" if message else reason
    body = json.dumps(error_body(status, CODES.get(status, "bad_request"), text)).encode(
        "ascii")  # json.dumps escapes anything else, so the body is ASCII
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's signature, answering with json_error."""
    util.write_nonblock(sock, json_error(status_int, reason, mesg))


def install() -> None:
    util.write_error = write_json_error
