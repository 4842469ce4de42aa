"""The API's refusals carry the engine's `code` and `params` (stable, for programs) and say the
`message` in the request's language (Accept-Language), naming the players, like the web."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from jobs.models import Job
from records.services import ImportReport, import_records
from tests.web.test_refusals import CASES

INVALID = Path(__file__).resolve().parents[1] / "data" / "corpus" / "invalid"
URL = "/api/v1/uploads/"


@pytest.fixture
def uploader(client_for: Any, user: Any) -> APIClient:
    client: APIClient = client_for(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "code", "said"), CASES, ids=[c[1] for c in CASES])
@pytest.mark.parametrize("language", ["en", "vi", "zh-hant"])
def test_an_upload_refusal_has_its_code_and_says_it_in_the_requests_language(
    uploader: APIClient, name: str, code: str, said: dict[str, str], language: str
) -> None:
    response = uploader.post(URL, data=(INVALID / name).read_bytes(), content_type="text/x-fcn",
                             HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 201, response.content
    error = response.json()["import_report"]["results"][0]["error"]
    assert error["code"] == code
    assert error["message"] == said[language]
    assert isinstance(error["params"], dict) and error["params"]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "message"), [
    ("en", "Noor may not make a field with another player’s draw"),
    ("vi", "Noor không được hạ một bộ xe pháo mã bằng bài người khác bốc"),
])
def test_a_stored_report_is_said_in_the_readers_language_later(
    uploader: APIClient, user: Any, language: str, message: str
) -> None:
    """The job keeps the code and parameters, not a language: each reader gets their own."""
    report = import_records((INVALID / "0002.fcn").read_bytes(), user)
    job = Job.objects.create(kind="import", created_by=user, status="done",
                             report=report.as_dict())
    response = uploader.get(f"/api/v1/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200, response.content
    error = response.json()["import_report"]["results"][0]["error"]
    assert (error["code"], error["message"]) == ("claim.no_right", message)
    assert error["params"] == {"seat": 4, "meld": "field", "where": "draw"}


@pytest.mark.django_db
def test_a_report_stored_before_codes_reads_in_english(uploader: APIClient, user: Any) -> None:
    report = import_records((INVALID / "0002.fcn").read_bytes(), user).as_dict()
    for key in ("results", "problems"):
        for result in report[key]:
            result["error"].pop("code")
            result["error"].pop("params")
    assert ImportReport.from_dict(report).results[0].error is not None
    job = Job.objects.create(kind="import", created_by=user, status="done", report=report)
    response = uploader.get(f"/api/v1/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="vi")

    assert response.status_code == 200, response.content
    error = response.json()["import_report"]["results"][0]["error"]
    assert error["message"] == "seat 4 may not make a field with another seat’s draw"
    assert (error["code"], error["params"]) == ("stored", {})
