"""POST /api/v1/uploads/: one or many records as a body, a file or a field; the answer is
always the upload's job (201 when it finished in the request, with every record's verdict in
`import_report`; 202 while a worker runs it; docs/api.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

import fourcolor

from jobs.models import Job
from records.refusal_text import refusal_text
from records.models import Game

from .conftest import illegal_text, round_text

URL = "/api/v1/uploads/"


def fcn_file(texts: list[str]) -> str:
    return "\n".join(texts)


def first_lines(texts: list[str]) -> list[int]:
    """The file line where each record of fcn_file(texts) starts."""
    lines, at = [], 1
    for text in texts:
        lines.append(at)
        at += text.count("\n") + 1
    return lines


@pytest.fixture
def uploader(client_for: Any, user: Any) -> APIClient:
    client: APIClient = client_for(user)
    return client


def post_text(client: APIClient, text: str | bytes, content_type: str = "text/x-fcn") -> Any:
    return client.post(URL, data=text, content_type=content_type)


def report(response: Any) -> dict[str, Any]:
    """The verdicts of an upload finished in the request: its job's report."""
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["status"], body["finished"]) == ("done", True)
    assert response["Location"] == body["url"]
    result: dict[str, Any] = body["import_report"]
    return result


# --- how the records arrive ----------------------------------------------------------------

BODIES = {
    "text/x-fcn body": lambda c, t: post_text(c, t),
    "text/plain body": lambda c, t: post_text(c, t, "text/plain; charset=utf-8"),
    "octet-stream body": lambda c, t: post_text(c, t.encode(), "application/octet-stream"),
    "multipart file": lambda c, t: c.post(
        URL, {"file": SimpleUploadedFile("games.fcn", t.encode(), "text/x-fcn")},
        format="multipart",
    ),
    "form field": lambda c, t: c.post(URL, {"text": t}, format="multipart"),
    "json": lambda c, t: c.post(URL, {"text": t}, format="json"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("how", list(BODIES))
def test_it_stores_every_record_however_it_is_sent(
    uploader: APIClient, user: Any, how: str
) -> None:
    texts = [round_text(seed, "classic", 3) for seed in (1, 2)]

    response = BODIES[how](uploader, fcn_file(texts))

    body = report(response)
    assert (body["created"], body["duplicates"], body["refused"], body["total"]) == (2, 0, 0, 2)
    assert [r["status"] for r in body["results"]] == ["created", "created"]
    assert [r["line"] for r in body["results"]] == first_lines(texts)
    for result, text in zip(body["results"], texts, strict=True):
        game = Game.objects.get(pk=result["id"])
        assert result["url"] == f"http://testserver/api/v1/games/{game.pk}/"
        assert game.canonical_text == fourcolor.write_fcn(fourcolor.parse_record(text))
        assert game.uploaded_by == user
        assert result["error"] is None


@pytest.mark.django_db
def test_it_answers_with_the_job_resource(uploader: APIClient, user: Any) -> None:
    response = post_text(uploader, round_text(5, "bga", 4))

    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert response.status_code == 201
    assert response["Location"] == f"http://testserver/api/v1/jobs/{job.pk}/"
    body = response.json()
    assert (body["id"], body["kind"], body["created_by"]) == (job.pk, "import", user.username)
    assert (body["stored"], body["seen"], body["total"], body["percent"]) == (1, 1, 1, 100)
    # The same resource as the job endpoint shows.
    assert uploader.get(response["Location"]).json() == body


@pytest.mark.django_db
def test_it_keeps_the_original_text_verbatim(uploader: APIClient) -> None:
    # CRLF line ends and turn numbers: not the canonical layout.
    canonical = round_text(6, "classic", 2)
    text = canonical.replace("\n1x ", "\n1. 1x ", 1).replace("\n", "\r\n")
    assert fourcolor.check_record(text).ok and text != canonical

    response = post_text(uploader, text)

    game = Game.objects.get(pk=report(response)["results"][0]["id"])
    assert game.original_text == text
    assert game.canonical_text == canonical


# --- verdicts and status codes ---------------------------------------------------------------


@pytest.mark.django_db
def test_it_reports_a_mixed_file_record_by_record(uploader: APIClient) -> None:
    stored = round_text(7, "classic", 4)
    post_text(uploader, stored)
    existing = Game.objects.get().pk
    texts = [round_text(8, "classic", 4), stored, illegal_text(1)]
    bad_line = first_lines(texts)[2]
    expected = fourcolor.check_record(texts[2], bad_line).error
    assert expected is not None

    response = post_text(uploader, fcn_file(texts))

    body = report(response)
    assert (body["created"], body["duplicates"], body["refused"]) == (1, 1, 1)
    created, duplicate, refused = body["results"]
    assert created["status"] == "created" and Game.objects.filter(pk=created["id"]).exists()
    assert duplicate == {"index": 1, "line": first_lines(texts)[1], "status": "duplicate",
                         "id": existing, "url": f"http://testserver/api/v1/games/{existing}/",
                         "error": None, "differences": []}
    assert refused["status"] == "refused" and refused["id"] is None and refused["url"] is None
    error = refused["error"]
    assert (error["line"], error["col"], error["ply"], error["category"]) == (
        expected.line, expected.col, expected.ply, expected.category
    )
    assert (error["code"], error["params"]) == (expected.code, expected.params)
    seats = fourcolor.parse_record(texts[2]).seats
    assert error["message"] == refusal_text(expected.as_dict(), seats)
    assert error["text"] == fcn_file(texts).split("\n")[expected.line - 1]
    assert error["error"] == str(expected)


@pytest.mark.django_db
def test_it_reports_a_file_sent_again_as_duplicates(uploader: APIClient) -> None:
    text = round_text(9, "bga", 3)
    assert post_text(uploader, text).status_code == 201

    response = post_text(uploader, text)

    body = report(response)
    assert body["duplicates"] == 1 and body["created"] == 0
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_it_reports_every_refusal_when_every_record_is_refused(uploader: APIClient) -> None:
    response = post_text(uploader, fcn_file([illegal_text(1), "[Ruleset \"classic\"]\n"]))

    body = report(response)
    assert body["refused"] == body["total"] == 2
    assert all(r["status"] == "refused" and r["error"]["message"] for r in body["results"])
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_it_answers_400_when_nothing_is_sent(uploader: APIClient) -> None:
    response = post_text(uploader, "")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert not Job.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["   \n\n\n", "\ufeff\ufeff", "\u3000\r\n"])
def test_it_answers_text_without_a_record_with_an_upload_of_none(
    uploader: APIClient, text: str
) -> None:
    """Any non-empty text is an upload (the schema says so: minLength 1): one that holds no
    record is a job with nothing in it, as on the web ("No record was found")."""
    body = report(post_text(uploader, text))

    assert (body["total"], body["created"], body["refused"], body["results"]) == (0, 0, 0, [])
    assert Job.objects.get().seen == 0 and not Game.objects.exists()


@pytest.mark.django_db
def test_it_refuses_invalid_utf8_with_its_position(uploader: APIClient) -> None:
    good = round_text(10, "classic", 3).encode()
    bad = good.replace(b'[Seat1 "East"]', b'[Seat1 "Ea\xffst"]')
    assert bad != good

    response = post_text(uploader, bad, "application/octet-stream")

    error = report(response)["results"][0]["error"]
    assert error["category"] == "encoding"
    assert error["line"] == good.split(b"\n").index(b'[Seat1 "East"]') + 1
    assert error["col"] == len('[Seat1 "Ea') + 1


# --- who may upload, and what is refused before any record is read -------------------------


@pytest.mark.django_db
def test_it_needs_a_signed_in_user(api: APIClient) -> None:
    response = post_text(api, round_text(1, "classic", 3))

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "not_authenticated"
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_wrong_token(api: APIClient) -> None:
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = post_text(api, round_text(1, "classic", 3))

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


@pytest.mark.django_db
def test_it_accepts_a_session_with_its_csrf_token(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    text = round_text(2, "bga", 2)

    refused = post_text(client, text)
    # What the web's pages give the browser: a CSRF cookie, echoed in the X-CSRFToken header.
    secret = "Fourcolor" * 3 + "Cards"  # 32 letters, the form of a CSRF secret
    client.cookies["csrftoken"] = secret
    accepted = client.post(URL, data=text, content_type="text/x-fcn", HTTP_X_CSRFTOKEN=secret)

    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]["message"]
    assert accepted.status_code == 201, accepted.content


@pytest.mark.django_db
def test_it_refuses_a_body_over_the_limit_before_reading_it(
    uploader: APIClient, settings: Any
) -> None:
    settings.API_UPLOAD_MAX_BYTES = 1000
    text = fcn_file([round_text(seed, "classic", 4) for seed in (1, 2)])
    assert len(text.encode()) > 1000

    response = post_text(uploader, text)

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_it_refuses_an_unsupported_content_type(uploader: APIClient) -> None:
    response = uploader.post(URL, data=b"<xml/>", content_type="application/xml")

    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "fmt", "field"),
    [
        ({}, "json", "text"),
        ({"text": 12}, "json", "text"),
        ({"other": "x"}, "multipart", "other"),
        ({"text": "1x rK", "other": "x"}, "multipart", "other"),
        ({"text": "1x rK", "other": "x"}, "json", "other"),
    ],
)
def test_it_refuses_a_body_without_records(
    uploader: APIClient, data: dict[str, Any], fmt: str, field: str
) -> None:
    response = uploader.post(URL, data, format=fmt)

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_it_takes_one_file_per_upload(uploader: APIClient) -> None:
    files = [SimpleUploadedFile(f"{n}.fcn", round_text(n, "classic", 3).encode()) for n in (1, 2)]

    response = uploader.post(URL, {"file": files}, format="multipart")

    assert response.status_code == 400
    assert "file" in response.json()["error"]["fields"]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_it_refuses_malformed_json(uploader: APIClient) -> None:
    response = uploader.post(URL, data=b'{"text": ', content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


@pytest.mark.django_db
def test_it_does_not_answer_reads(uploader: APIClient) -> None:
    assert uploader.get(URL).status_code == 405
