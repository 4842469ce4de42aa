"""The job page in Chromium: static/js/job.js follows a running job through the API and, once
it is done, the page shows every record's verdict."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from jobs import tasks
from jobs.lease import claim, runner_token
from jobs.models import Job
from jobs.queue import create_import_job
from jobs.runs import execute
from tests.jobs.conftest import make_upload
from tests.web.browser.conftest import sign_in

pytestmark = pytest.mark.browser



def run(job_id: int) -> None:
    """Run a job to its end as a worker would, taking it again after a try the database
    stopped: on SQLite the live server's reads of the job (the page polls it) can hold the
    table locked a moment."""
    held = None
    for _ in range(5):
        token = runner_token()
        claimed = claim(job_id, token, held)
        assert claimed is not None
        if execute(claimed, token) is None:
            return
        held = token
    raise AssertionError(f"job {job_id}: stopped by the database five times")

def test_it_follows_a_job_until_it_is_done(page: Any, account: Any) -> None:
    upload = make_upload(12)
    job = create_import_job(upload.data, account, "club.fcn")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, total=14,
                                         heartbeat_at=timezone.now(), runner="elsewhere")
    sign_in(page, "uploader", f"/jobs/{job.pk}/")
    assert page.locator("#job").get_attribute("data-status") == "running"

    Job.objects.filter(pk=job.pk).update(resume_at=7, stored=7)
    expect(page.locator("[data-field=handled]")).to_have_text("7")
    assert page.locator("#job-progress").get_attribute("value") == "50"
    assert page.locator("[data-count=stored]").text_content() == "7"

    Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED, heartbeat_at=None, runner="",
                                         resume_at=0, stored=0)
    tasks.run_job.apply(args=[job.pk])
    page.wait_for_selector("ol.results-list li.result")  # the page reloaded, done

    results = page.locator("ol.results-list li.result")
    assert [results.nth(i).get_attribute("data-status") for i in range(results.count())] == (
        upload.statuses)
    assert page.locator("#job").get_attribute("data-status") == "done"


def test_it_shows_the_translated_status_label_as_the_job_moves_on(
    make_page: Any, account: Any
) -> None:
    page = make_page(locale="vi-VN")
    job = create_import_job(make_upload(12).data, account, "club.fcn")
    sign_in(page, "uploader", f"/jobs/{job.pk}/")
    status = page.locator("[data-field=status]")
    assert status.text_content() == "đang chờ"  # drawn by the server: queued

    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, total=14, resume_at=7,
                                         heartbeat_at=timezone.now(), runner="elsewhere")
    expect(page.locator("[data-field=handled]")).to_have_text("7")  # the script updated it

    expect(status).to_have_text("đang chạy")  # the label, not the code `running`
    assert page.locator("#job").get_attribute("data-status") == "running"
    assert "status--running" in (status.get_attribute("class") or "")


def test_it_follows_a_batch_of_analyses_game_by_game(page: Any, account: Any,
                                                     settings: Any) -> None:
    from jobs.analysis import Parameters
    from jobs.batches import submit_batch
    from tests.api.conftest import round_text, store

    settings.ANALYSIS_SAMPLES = 4
    games = store([round_text(70 + n, "classic", 2, ("An", "Bình")) for n in range(3)])
    batch = submit_batch(account, Parameters.of(), games=games)

    run(batch.pk)  # its analyses queued
    sign_in(page, "uploader", f"/jobs/{batch.pk}/")
    assert page.locator("#job").get_attribute("data-status") == "running"
    assert page.locator("[data-field=total]").text_content() == "3"

    first, *rest = batch.children.order_by("pk").values_list("pk", flat=True)
    run(first)
    expect(page.locator("[data-field=handled]")).to_have_text("1")  # the script followed it
    assert page.locator("[data-count=analysed]").text_content() == "1"
    assert page.locator("#job-progress").get_attribute("value") == "33"

    for child in rest:
        run(child)
    page.wait_for_selector("#job[data-finished]")  # the page reloaded, done
    assert page.locator("[data-count=analysed]").text_content() == "3"
    assert page.locator("#job").get_attribute("data-status") == "done"


def test_a_matchs_rounds_are_asked_for_from_its_page_and_followed(
    page: Any, account: Any, seeded: Any, settings: Any
) -> None:

    settings.ANALYSIS_SAMPLES = 4
    match = seeded.match

    sign_in(page, "uploader", f"/matches/{match.pk}/")
    button = page.locator("#analysis form button")
    expect(button).to_have_text("Analyse 3 rounds")
    with page.expect_navigation():
        button.click()
    batch = Job.objects.get(kind=Job.Kind.ANALYSES)
    assert page.url.endswith(f"/jobs/{batch.pk}/")
    assert "The analyses of 3 rounds are queued" in page.locator(".messages").inner_text()

    run(batch.pk)
    for child in batch.children.order_by("pk").values_list("pk", flat=True):
        run(child)
    page.wait_for_selector("#job[data-finished]")
    assert page.locator("[data-count=analysed]").text_content() == "3"
    badge = page.locator("[data-field=status]").evaluate(
        "(el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]")
    assert badge == ["rgb(255, 255, 255)", "rgb(27, 110, 42)"]  # white on the "done" green

    with page.expect_navigation():
        page.get_by_role("link", name="The match’s rounds").click()
    expect(page.locator("#analysis [data-field=analysed]")).to_have_text(
        "3 of 3 rounds analysed.")
    assert page.locator("#analysis table tbody tr").count() == 4
    assert page.locator("#analysis form").count() == 0
