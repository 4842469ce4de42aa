"""Following a web upload to its result page: the upload form's POST answers 303 to
/upload/<job>/ (whatever the verdicts), and that page lists them once the job is over."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from jobs.models import Job
from tests.worker import run_worker

RESULT_PATH = re.compile(r"/upload/(\d+)/")


def result_page(client: Client, response: Any, *, finish: bool = True,
                headers: dict[str, str] | None = None) -> Any:
    """The result page the POST's `response` sends the uploader to (asserting the 303), read
    once the upload's job is over: a job left for the worker is run first unless `finish` is
    false. A POST answered otherwise (a form refused before any upload: 400) is returned as is,
    so callers assert on what the uploader sees either way."""
    if response.status_code != 303:
        return response
    match = RESULT_PATH.fullmatch(response["Location"])
    assert match, response["Location"]
    job = Job.objects.get(pk=int(match.group(1)))
    if finish and not job.finished:
        run_worker()
    page = client.get(response["Location"], headers=headers)
    assert page.status_code == 200, page.status_code
    return page


def upload_and_follow(client: Client, data: dict[str, Any],
                      headers: dict[str, str] | None = None) -> Any:
    """POST `data` to the upload form and read the result page it is sent to (both requests
    with `headers`, e.g. the browser's language)."""
    response = client.post("/upload/", data, headers=headers)
    assert response.status_code == 303, response.status_code
    return result_page(client, response, headers=headers)
