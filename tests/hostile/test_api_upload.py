"""(d) POST /api/v1/uploads/ with a token, each hostile input sent as a raw body, a multipart
file and (when it is text) a JSON string: the upload's job, 201 when it finished in the
request, 202 when the worker runs it (413 over the size limit, 400 when there is no record),
whose report lists every verdict. Never a 500, every refusal with its line, column, ply and
category, and the database holds exactly the stored records."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from records.models import Game
from tests.worker import run_worker

from .checks import Verdict, assert_database_holds, assert_no_traceback, assert_verdicts, deadline
from .corpus import CASES, Case

pytestmark = pytest.mark.django_db

URL = "/api/v1/uploads/"
API_STATUS = {"created": "stored", "duplicate": "duplicate", "refused": "refused"}

Sender = Callable[[APIClient, bytes], Any]


def raw_body(client: APIClient, data: bytes) -> Any:
    return client.post(URL, data=data, content_type="text/x-fcn")


def multipart_file(client: APIClient, data: bytes) -> Any:
    upload = SimpleUploadedFile("hostile.fcn", data, "application/octet-stream")
    return client.post(URL, {"file": upload}, format="multipart")


def json_text(client: APIClient, data: bytes) -> Any:
    body = json.dumps({"text": data.decode("utf-8")})
    return client.post(URL, data=body, content_type="application/json")


SENDERS: dict[str, Sender] = {"raw": raw_body, "multipart": multipart_file, "json": json_text}


def params() -> list[Any]:
    return [
        pytest.param(case, how, id=f"{case.name}-{how}",
                     marks=[pytest.mark.slow] if case.generator else [])
        for case in CASES
        for how in SENDERS
        if how != "json" or case.text_in_json
    ]


def report_of(client: APIClient, response: Any, case: Case) -> tuple[int, dict[str, Any]]:
    """The status and the body with the verdicts: an error's body, or the upload's job report
    (once the worker ran it, for a large upload: 202)."""
    body = response.json()
    if response.status_code not in (201, 202):
        return response.status_code, body
    if response.status_code == 202:
        run_worker()
        job = client.get(response["Location"])
        assert job.status_code == 200
        body = job.json()
    assert response["Location"] == body["url"]
    assert body["status"] == "done", body
    assert (body["stored"], body["duplicates"], body["refused"]) == (
        case.stored, case.duplicates, case.refused)
    report: dict[str, Any] = body["import_report"]
    return response.status_code, report


def verdicts(body: dict[str, Any]) -> list[Verdict]:
    out = []
    for result in body["results"]:
        error = result["error"] or {}
        out.append(Verdict(API_STATUS[result["status"]], error.get("line"), error.get("col"),
                           error.get("ply"), error.get("category"), error.get("message") or ""))
    return out


@pytest.mark.parametrize(("case", "how"), params())
def test_it_answers_every_input_with_its_status_and_verdicts(
    token_client: APIClient, case: Case, how: str
) -> None:
    data = case.data()
    with deadline(case.seconds):
        response = SENDERS[how](token_client, data)
        assert_no_traceback(response.content)
        assert response.status_code < 500
        # The input's markup may be quoted in a refusal: inert as JSON that is never sniffed.
        assert response["Content-Type"].startswith("application/json")
        assert response["X-Content-Type-Options"] == "nosniff"
        status, body = report_of(token_client, response, case)
    if case.over_upload_limit:
        assert status == 413
        assert "limit" in body["error"]["message"]
        assert not Game.objects.exists()
        return
    if not case.records:
        assert not Game.objects.exists()
        if not data and how != "multipart":
            # Nothing sent: a 400 that says which field is missing.
            assert status == 400, body
            assert body["error"]["message"]
            return
        # Any text (or a file, even an empty one) is an upload, and one without a record is an
        # upload of none: a finished job whose report counts 0 (docs/api.md, "Uploads").
        assert status == 201, body
        assert (body["total"], body["created"], body["duplicates"], body["refused"]) == (
            0, 0, 0, 0)
        return
    assert status in (201, 202), body
    assert (body["created"], body["duplicates"], body["refused"]) == (
        case.stored, case.duplicates, case.refused)
    # Past the first results the API lists only problems: each result carries its index.
    assert len(body["results"]) == len(case.records) - body["results_omitted"]
    assert_verdicts(case, verdicts(body), [result["index"] for result in body["results"]])
    assert_database_holds(case, data)


def test_it_refuses_an_upload_without_a_token() -> None:
    case = next(c for c in CASES if c.name == "html_script_names_and_comments")
    response = raw_body(APIClient(), case.data())
    assert response.status_code == 401
    assert not Game.objects.exists()
