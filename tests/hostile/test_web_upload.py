"""(c) The upload form, as a signed-in user sends each hostile input as a file (and, when it
is text, pasted): a 303 to the upload's result page that lists every record's verdict (once
the worker ran a large upload's job), or the form again with a 400 and what was wrong. Never
a 500, never markup from the input let through, and the database holds exactly the stored
records."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from records.models import Game
from tests.web.dom import Node, parse
from tests.web.upload_result import result_page

from .checks import (
    Verdict,
    assert_database_holds,
    assert_inert,
    assert_no_traceback,
    assert_verdicts,
    deadline,
)
from .corpus import CASES, Case, params

pytestmark = pytest.mark.django_db

# Django refuses a form body over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB by default) as a 400.
PASTE_LIMIT = 2_621_440


def send_file(client: Client, data: bytes) -> Any:
    upload = SimpleUploadedFile("hostile.fcn", data, "application/octet-stream")
    return client.post(reverse("upload"), {"file": upload})




def dd(row: Node, name: str) -> int | None:
    found = row.find_all("dd", **{"data-field": name})
    return int(found[0].words()) if found else None


def page_verdicts(doc: Node) -> list[Verdict]:
    out = []
    for row in doc.find_all("li", "result"):
        status = row.attrs["data-status"]
        if status != "refused":
            out.append(Verdict(status))
            continue
        # The engine's category code; the page shows it in words (records.refusal_text).
        category = row.find("dd", **{"data-field": "category"}).attrs["data-category"]
        message = row.find("p", **{"data-field": "message"}).words()
        out.append(Verdict(status, dd(row, "line"), dd(row, "col"), dd(row, "ply"), category,
                           message))
    return out


def counts(doc: Node) -> tuple[int, int, int]:
    def count(name: str) -> int:
        return int(doc.find("strong", **{"data-count": name}).words())

    return count("stored"), count("duplicate"), count("refused")


def assert_form_refused(response: Any, *words: str) -> None:
    assert response.status_code == 400
    text = " ".join(parse(response.content).text().split())
    for word in words:
        assert word in text, text[:2000]
    assert not Game.objects.exists()


def assert_listed(case: Case, response: Any) -> None:
    """The result page (a 200 whatever the verdicts, even when every record was refused)."""
    assert response.status_code == 200
    assert response.request["REQUEST_METHOD"] == "GET"  # reached by the POST's redirect
    doc = parse(response.content)
    assert counts(doc) == (case.stored, case.duplicates, case.refused)
    assert_verdicts(case, page_verdicts(doc))
    if not case.records:
        assert "No record was found" in doc.words()


@pytest.mark.parametrize("case", params())
def test_it_answers_every_file_with_the_verdicts_or_a_clear_refusal(
    signed_in: Client, case: Case
) -> None:
    data = case.data()
    with deadline(case.seconds):
        response = result_page(signed_in, send_file(signed_in, data))
    assert_no_traceback(response.content)
    assert_inert(response.content)
    if case.over_upload_limit:
        assert_form_refused(response, f"The file is {len(data)} bytes", "at most")
        return
    if not data:
        assert_form_refused(response, "The submitted file is empty.")
        return
    assert_listed(case, response)
    assert_database_holds(case, data)


@pytest.mark.parametrize("case", params(c for c in CASES if c.text_in_json))
def test_it_answers_every_pasted_text_with_the_verdicts_or_a_clear_refusal(
    signed_in: Client, case: Case
) -> None:
    text = case.data().decode("utf-8")
    with deadline(case.seconds):
        response = result_page(signed_in, signed_in.post(reverse("upload"), {"text": text}))
    assert_no_traceback(response.content)
    assert_inert(response.content)
    if len(text.encode()) > PASTE_LIMIT:
        # Django stops reading the form; templates/400.html says to send a file instead.
        assert_form_refused(response, "send it as a file instead")
        return
    if not text.strip():
        assert_form_refused(response, "Paste at least one record")
        return
    assert_listed(case, response)
    assert_database_holds(case, case.data())


def test_it_escapes_the_markup_of_names_and_comments_on_every_page_of_the_stored_game(
    signed_in: Client,
) -> None:
    case = next(c for c in CASES if c.name == "html_script_names_and_comments")
    send_file(signed_in, case.data())
    game = Game.objects.get()
    for url in (reverse("game", args=[game.pk]), reverse("archive"), reverse("players")):
        response = signed_in.get(url)
        assert response.status_code == 200, url
        assert_inert(response.content)
        assert b"&lt;script&gt;alert" in response.content, url
