"""Structured logs: with LOG_FORMAT=json every line is one JSON object, and every request
produces one line with its method, path, status, duration and request id."""

from __future__ import annotations

import io
import json
import logging
import logging.config
from collections.abc import Iterator

import pytest
from django.test import Client

from config.logging import logging_config
from tests.config.production import run

# A request through the whole stack (settings' LOGGING included) in a fresh interpreter.
_SERVE = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)  # /healthz also reads the jobs' tables
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
import logging
client = Client()
client.get("/healthz", headers={"x-request-id": "probe-1"})
client.get("/no/such/page/%3Cscript%3E%0Aforged")
logging.getLogger("somewhere").warning("plain message with ünicode")
"""


def _lines(stderr: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stderr.splitlines() if line.strip()]


def test_it_writes_one_json_object_per_line_for_each_request() -> None:
    result = run(["-c", _SERVE], DJANGO_SETTINGS_MODULE="config.settings",
                 DATABASE_URL="sqlite://:memory:", LOG_FORMAT="json")

    assert result.returncode == 0, result.stderr
    lines = _lines(result.stderr)  # every line parses, or this fails
    requests = [line for line in lines if line["logger"] == "fourcolor.request"]
    assert [(r["method"], r["path"], r["status"]) for r in requests] == [
        ("GET", "/healthz", 200),
        ("GET", "/no/such/page/<script>\nforged", 404),
    ]
    first = requests[0]
    assert first["level"] == "INFO"
    assert first["request_id"] == "probe-1"
    assert isinstance(first["duration_ms"], float)
    assert str(first["time"]).endswith("+00:00")
    assert first["message"].startswith("GET '/healthz' 200 ")  # type: ignore[union-attr]
    # Django's own warning about the 404 carries the same request's id.
    (not_found,) = [line for line in lines if line["logger"] == "django.request"]
    assert not_found["request_id"] == requests[1]["request_id"]
    assert len(str(requests[1]["request_id"])) == 32  # a fresh uuid4 hex
    (other,) = [line for line in lines if line["logger"] == "somewhere"]
    assert other["message"] == "plain message with ünicode"
    assert other["request_id"] is None


def test_it_writes_plain_lines_when_asked() -> None:
    result = run(["-c", _SERVE], DJANGO_SETTINGS_MODULE="config.settings",
                 DATABASE_URL="sqlite://:memory:", LOG_FORMAT="plain")

    assert result.returncode == 0, result.stderr
    assert "INFO fourcolor.request: GET '/healthz' 200 " in result.stderr
    # The decoded newline in the path stays inside its line.
    assert "INFO fourcolor.request: GET '/no/such/page/<script>\\nforged' 404 " in result.stderr


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The json configuration applied to this process, its output in a buffer."""
    stream = io.StringIO()
    saved = logging.root.handlers[:], logging.root.level
    logging.config.dictConfig(logging_config("INFO", "json"))
    handler = logging.root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)
    yield stream
    logging.root.handlers[:], level = saved
    logging.root.setLevel(level)


@pytest.mark.django_db
def test_it_returns_the_request_id_it_logged(client: Client, json_log: io.StringIO) -> None:
    response = client.get("/healthz", headers={"x-request-id": "bad id\nwith newline"})

    (line,) = [json.loads(x) for x in json_log.getvalue().splitlines()
               if json.loads(x)["logger"] == "fourcolor.request"]
    assert response["X-Request-ID"] == line["request_id"]
    assert line["request_id"] != "bad id\nwith newline"  # replaced, not trusted


def test_it_keeps_an_exception_on_its_one_line(json_log: io.StringIO) -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("somewhere").exception("failed")

    (line,) = json_log.getvalue().splitlines()
    record = json.loads(line)
    assert record["message"] == "failed"
    assert "ValueError: boom" in record["exc_info"]


def test_it_refuses_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="'xml' is not one of plain, json"):
        logging_config("INFO", "xml")
