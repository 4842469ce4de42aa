"""axe-core (tests/data/axe, the rules engine browsers' accessibility tools use) over the main
pages, on a laptop and on a phone: no serious or critical violation; none at all on the archive,
player, match, check, sign-in, replay with analysis, editor and upload result pages (the
account page's in test_account_tokens.py).

The script is run in the page through the browser's debugging protocol, so the site's Content
Security Policy stays as it is (it would refuse an injected script element)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "data" / "axe" / "axe.min.js"
SERIOUS = {"serious", "critical"}
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  }));
}"""


def pages(archive: Archive) -> list[str]:
    assert archive.match is not None
    return [
        reverse("archive"),
        reverse("archive") + "?player=n&min_points=x",
        reverse("game", args=[archive.four.pk]) + "?ply=20",
        reverse("game", args=[archive.long.pk]) + "?ply=133&seat=2",
        reverse("players"),
        reverse("player", args=[archive.player("陳大文").pk]),
        reverse("leaderboard") + "?min_rounds=1&metric=win_rate",
        reverse("matches"),
        reverse("match", args=[archive.match.pk]),
        reverse("login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
        reverse("check"),
    ]


def scan(page: Any) -> list[dict[str, Any]]:
    """The violations of any impact axe finds on the page as it is now."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


def violations(page: Any, path: str) -> list[dict[str, Any]]:
    page.goto(path)
    return [v for v in scan(page) if v["impact"] in SERIOUS]


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                         ids=["laptop", "phone"])
def test_the_main_pages_have_no_serious_violation(
    make_page: Any, seeded: Archive, size: dict[str, int]
) -> None:
    page = make_page(viewport=size)
    report = {path: violations(page, path) for path in pages(seeded)}
    assert {path: found for path, found in report.items() if found} == {}


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                         ids=["laptop", "phone"])
def test_the_archive_player_match_check_and_sign_in_pages_have_no_violation_at_all(
    make_page: Any, seeded: Archive, size: dict[str, int]
) -> None:
    """Of any impact, not only serious."""
    assert seeded.match is not None
    page = make_page(viewport=size)
    report = {}
    for path in (reverse("archive"), reverse("player", args=[seeded.player("陳大文").pk]),
                 reverse("match", args=[seeded.match.pk]), reverse("check"), reverse("login")):
        page.goto(path)
        report[path] = scan(page)
    assert {path: found for path, found in report.items() if found} == {}


def test_the_upload_page_has_no_serious_violation(
    make_page: Any, seeded: Archive, live_server: Any
) -> None:
    User.objects.create_user("axe", password="axe-pass-12345")
    page = make_page()
    page.goto(reverse("login"))
    page.fill("#id_login", "axe")
    page.fill("#id_password", "axe-pass-12345")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_load_state()
    assert violations(page, reverse("upload")) == []


def test_it_reports_a_serious_violation_when_there_is_one(make_page: Any, live_server: Any) -> None:
    """The harness itself: a page with an unlabelled image and an unnamed button fails."""
    page = make_page()
    page.goto(reverse("login"))
    page.evaluate("""() => {
      const main = document.querySelector("main");
      main.insertAdjacentHTML("beforeend", '<img src="/static/img/favicon.svg"><button></button>');
    }""")
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = {v["id"] for v in page.evaluate(RUN) if v["impact"] in SERIOUS}
    assert {"image-alt", "button-name"} <= found


@pytest.mark.usefixtures("few_analysis_samples")
def test_the_replay_with_analysis_the_editor_and_an_upload_result_have_no_violation_at_all(
    make_page: Any, seeded: Archive, account: Any, tmp_path: Path
) -> None:
    """Of any impact, not only serious: the pages of the analysis, the record editor and the
    upload's result (signed in)."""
    from tests.web.browser.conftest import sign_in
    from tests.web.browser.test_record_page import CLASSIC, _draft, corpus_record
    from tests.web.browser.test_upload_page import upload_three
    from tests.web.test_replay_analysis import hand_made

    known = hand_made(seeded.four)
    draft = _draft(account, corpus_record(CLASSIC[1]), 3)
    page = make_page()
    sign_in(page, "uploader", "/upload/")
    upload_three(page, tmp_path)
    result = page.url.removeprefix(page.url.split("/upload/")[0])
    report = {}
    for path in (f"/games/{seeded.four.pk}/?ply={known['p1']}", f"/record/{draft.pk}/",
                 result):
        page.goto(path)
        report[path] = scan(page)
    assert {path: found for path, found in report.items() if found} == {}
