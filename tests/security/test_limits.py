"""Every limit on input, hit through the web and through the API: each refusal is a 4xx whose
body says what the limit is, never a 500 and never a hang. (Records per upload: the records
before the limit keep their verdicts, so the answer is that of a partial refusal, 207 from the
API and 200 on the web, with the refusal among the verdicts.)

One table; each row names the limit, sends one request just over it, and says which status and
which words the answer must carry. The limits come from settings (made small here, so that the
requests stay small) or from the engine (fourcolor.notation.MAX_*).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.utils import override_settings
from rest_framework.test import APIClient

from fourcolor.notation import MAX_COMMENT_CHARS, MAX_EVENTS, MAX_LINE_CHARS, MAX_RECORD_CHARS
from tests.notation.fcn import fcn
from tests.records.conftest import fcn_file, good_texts
from tests.web.conftest import SHARED, Archive
from tests.web.upload_result import result_page

pytestmark = pytest.mark.usefixtures(SHARED)

Send = Callable[[Any], Any]


def _events(n: int) -> str:
    """A record with n events: the opening discard, then one card drawn and discarded."""
    cycle = ["2d rC", "2x rC", "1d rC", "1x rC"]
    return fcn("\n".join(["1x yE"] + [cycle[k % 4] for k in range(n - 1)]))


# Over the engine's limits, each by a little.
TOO_MANY_EVENTS = _events(MAX_EVENTS + 1)
TOO_LONG_LINE = fcn("1x yE" + " " * MAX_LINE_CHARS)
TOO_LONG_COMMENT = fcn("1x yE {" + "c" * (MAX_COMMENT_CHARS + 1) + "}")
TOO_LONG_RECORD = fcn("1x yE\n" + ("{" + "x" * 1000 + "}\n") * (MAX_RECORD_CHARS // 1000))
# Large uploads become background jobs (jobs/); these rows are about the answer to the request.
NO_JOBS = {"BACKGROUND_IMPORT_MIN_BYTES": 10**9}
# Five valid records (not in the `archive` fixture) against a limit of three per upload.
FIVE_RECORDS = fcn_file(good_texts(5, start=4200))
THREE_RECORDS = {"UPLOAD_MAX_RECORDS": 3, **NO_JOBS}
TOO_MANY_RECORDS = "too many records in one upload: at most 3 (split the file)"


@dataclass(frozen=True)
class Case:
    name: str
    send: Send
    status: int
    says: str
    settings: dict[str, Any] = field(default_factory=dict)
    api: bool = False


def web_upload_text(text: str) -> Send:
    # The answer the uploader sees: the result page the POST redirects to, or a refused form.
    return lambda client: result_page(client, client.post("/upload/", {"text": text}))


def web_upload_file(text: str) -> Send:
    return lambda client: result_page(client, client.post(
        "/upload/", {"file": SimpleUploadedFile("games.fcn", text.encode(), "text/plain")}
    ))


def api_upload(text: str) -> Send:
    return lambda client: client.post("/api/v1/uploads/", text.encode(),
                                      content_type="text/x-fcn")


def api_upload_form(text: str) -> Send:
    return lambda client: client.post("/api/v1/uploads/", {"text": text}, format="multipart")


def get(path: str) -> Send:
    return lambda client: client.get(path)


LONG_QUERY = "player=" + "a" * 5000
MANY_FIELDS = "&".join(["a"] * 1001)  # 2001 bytes: under the length limit

CASES = [
    # Request and upload size.
    Case("web: file over UPLOAD_MAX_BYTES", web_upload_file(_events(3)), 400,
         "the upload page takes at most 100 bytes", {"UPLOAD_MAX_BYTES": 100}),
    Case("web: pasted text over DATA_UPLOAD_MAX_MEMORY_SIZE", web_upload_text(_events(400)),
         400, "send it as a file instead", {"DATA_UPLOAD_MAX_MEMORY_SIZE": 2048}),
    Case("api: body over API_UPLOAD_MAX_BYTES", api_upload(_events(3)), 413,
         "the limit is 100", {"API_UPLOAD_MAX_BYTES": 100}, api=True),
    Case("api: form field over DATA_UPLOAD_MAX_MEMORY_SIZE", api_upload_form(_events(400)), 413,
         "too large", {"DATA_UPLOAD_MAX_MEMORY_SIZE": 2048}, api=True),
    # Records per upload: three stored, the fourth refused for the rest.
    Case("web: records per upload (text)", web_upload_text(FIVE_RECORDS), 200,
         TOO_MANY_RECORDS, THREE_RECORDS),
    Case("web: records per upload (file)", web_upload_file(FIVE_RECORDS), 200,
         TOO_MANY_RECORDS, THREE_RECORDS),
    Case("api: records per upload", api_upload(FIVE_RECORDS), 201, TOO_MANY_RECORDS,
         THREE_RECORDS, api=True),
    Case("api: records per upload (form)", api_upload_form(FIVE_RECORDS), 201,
         TOO_MANY_RECORDS, THREE_RECORDS, api=True),
    # The engine's limits on one record (the pages call events moves, the API the engine's word).
    Case("web: events per record", web_upload_text(TOO_MANY_EVENTS), 200,
         f"more than {MAX_EVENTS} moves", NO_JOBS),
    Case("api: events per record", api_upload(TOO_MANY_EVENTS), 201,
         f"more than {MAX_EVENTS} events", NO_JOBS, api=True),
    Case("web: line length", web_upload_text(TOO_LONG_LINE), 200, f"{MAX_LINE_CHARS}"),
    Case("api: line length", api_upload(TOO_LONG_LINE), 201, f"{MAX_LINE_CHARS}", api=True),
    Case("web: comment length", web_upload_text(TOO_LONG_COMMENT), 200,
         f"{MAX_COMMENT_CHARS}"),
    Case("api: comment length", api_upload(TOO_LONG_COMMENT), 201, f"{MAX_COMMENT_CHARS}",
         api=True),
    Case("web: record length", web_upload_file(TOO_LONG_RECORD), 200, f"{MAX_RECORD_CHARS}",
         NO_JOBS),
    Case("api: record length", api_upload(TOO_LONG_RECORD), 201, f"{MAX_RECORD_CHARS}",
         NO_JOBS, api=True),
    # Lists and exports.
    Case("api: page size", get("/api/v1/games/?page_size=201"), 400,
         "A whole number from 1 to 200", api=True),
    Case("api: export max over API_EXPORT_MAX_GAMES", get("/api/v1/games/export/?max=3"), 400,
         "At most 2 games per export request", {"API_EXPORT_MAX_GAMES": 2}, api=True),
    Case("api: export selecting over API_EXPORT_MAX_GAMES", get("/api/v1/games/export/"), 400,
         "The filters select more than 2 games", {"API_EXPORT_MAX_GAMES": 2}, api=True),
    # Addresses.
    Case("web: query string length", get(f"/?{LONG_QUERY}"), 414,
         "The query string has 5007 bytes; at most 4096 are accepted."),
    Case("api: query string length", get(f"/api/v1/games/?{LONG_QUERY}"), 414,
         "The query string has 5007 bytes; at most 4096 are accepted.", api=True),
    Case("web: number of query parameters", get(f"/?{MANY_FIELDS}"), 400,
         "could not read this request"),
    Case("api: number of query parameters", get(f"/api/v1/games/?{MANY_FIELDS}"), 400,
         "number of GET/POST parameters exceeded", api=True),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_refuses_input_over_each_limit_with_a_clear_4xx(
    case: Case, archive: Archive, user: User
) -> None:
    client: Any = APIClient() if case.api else Client()
    client.force_login(user)
    with override_settings(**case.settings):
        response = case.send(client)

    assert response.status_code == case.status, response.content[:2000]
    if case.api:
        assert response["Content-Type"].startswith("application/json")
        body = response.json()
        text = str(body)
        if case.status >= 400:
            assert body["error"]["status"] == case.status
        elif "import_report" in body:  # an upload's job: the limit's refusal is a verdict
            results = body["import_report"]["results"]
            refusals = [r["error"] for r in results if r["status"] == "refused"]
            assert [e["category"] for e in refusals] == ["limit"], body
    else:
        text = response.content.decode()
    assert case.says in text, text[:3000]
