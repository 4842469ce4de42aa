"""Uploading a file in Chromium: one good, one duplicate and one illegal record, and the
result page that lists the three, at an address of its own that a reload shows again without
sending the file again (no console error either: a wholly refused upload is no 400 answer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jobs.models import Job
from records.models import Game
from tests.web.browser.conftest import sign_in
from tests.web.conftest import FOUR, Archive, four_text, illegal_text, record_text

pytestmark = pytest.mark.browser


def upload_three(page: Any, tmp_path: Path) -> tuple[int, str]:
    """Upload good + duplicate + illegal; the line of the illegal record's fault and the line."""
    good = record_text("classic", 4, 9, FOUR)
    bad, bad_offset, bad_line = illegal_text()
    content = "\n".join([good, four_text(), bad])
    path = tmp_path / "club night.fcn"
    path.write_text(content, encoding="utf-8")
    page.goto("/upload/")
    page.set_input_files("#id_file", str(path))
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    first_line = (good + "\n" + four_text() + "\n").count("\n") + 1
    return first_line + bad_offset - 1, bad_line


def test_it_uploads_a_file_and_lists_each_records_verdict(
    page: Any, seeded: Archive, account: Any, tmp_path: Path
) -> None:
    sign_in(page, "uploader", "/upload/")
    assert page.url.endswith("/upload/")
    line, text = upload_three(page, tmp_path)
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert page.url.endswith(f"/upload/{job.pk}/")  # the result's own address
    results = page.locator("li.result")
    assert results.count() == 3
    assert [results.nth(i).get_attribute("data-status") for i in range(3)] == [
        "stored", "duplicate", "refused"]
    new = Game.objects.exclude(pk__in=[g.pk for g in seeded.all_games()]).get()
    assert results.nth(0).locator("a").get_attribute("href") == f"/games/{new.pk}/"
    assert results.nth(1).locator("a").get_attribute("href") == f"/games/{seeded.four.pk}/"
    refused = results.nth(2)
    field = lambda name: refused.locator(f'[data-field="{name}"]').text_content().strip()  # noqa: E731
    assert (field("line"), field("col"), field("ply"), field("category")) == (
        str(line), "1", "1", "card not in hand")
    assert refused.locator('[data-field="category"]').get_attribute("data-category") == (
        "not-in-hand")
    assert field("message").startswith("Ann does not hold ")  # the player, not "seat 1"
    assert refused.locator("pre code").text_content().endswith(text)
    assert refused.locator("pre mark").text_content() == text[0]
    # The stored game opens from its link.
    results.nth(0).locator("a").click()
    assert page.url.endswith(f"/games/{new.pk}/")
    assert page.locator("h1").text_content().strip().startswith(f"Game #{new.pk}")


def test_it_sends_a_visitor_to_sign_in_before_uploading(page: Any, seeded: Archive) -> None:
    page.goto("/upload/")
    assert "/accounts/login/?next=/upload/" in page.url
    assert page.locator("main h1").text_content() == "Sign in"


@pytest.mark.parametrize("refused_only", [False, True], ids=["partly-refused", "wholly-refused"])
def test_it_shows_the_same_result_on_a_reload_without_sending_the_file_again(
    page: Any, seeded: Archive, account: Any, tmp_path: Path, refused_only: bool
) -> None:
    sign_in(page, "uploader", "/upload/")
    bad = illegal_text()[0]
    path = tmp_path / "night.fcn"
    path.write_text(bad if refused_only else record_text("classic", 4, 10, FOUR) + "\n" + bad,
                    encoding="utf-8")
    page.goto("/upload/")
    page.set_input_files("#id_file", str(path))
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert page.url.endswith(f"/upload/{job.pk}/")
    expected = ["refused"] if refused_only else ["stored", "refused"]
    statuses = lambda: [row.get_attribute("data-status")  # noqa: E731
                        for row in page.locator("li.result").all()]
    assert statuses() == expected
    games = Game.objects.count()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url}"))

    response = page.reload()

    assert response.status == 200 and page.url.endswith(f"/upload/{job.pk}/")
    assert statuses() == expected
    assert [r for r in sent if not r.startswith("GET ")] == []  # nothing POSTed again
    assert Job.objects.filter(kind=Job.Kind.IMPORT).count() == 1
    assert Game.objects.count() == games
    # The page fixture fails the test on any console error (a 400 document logged one).
