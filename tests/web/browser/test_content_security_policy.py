"""The Content-Security-Policy in Chromium: the site's pages, the API documentation and the
admin load with no violation, and the replay's script still works under the policy.

Each page is watched twice: the console (where Chromium reports a refused script or style) and
the `securitypolicyviolation` event, recorded by a script the browser itself injects.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

_WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def _watched(page: Any) -> list[str]:
    console: list[str] = []
    page.add_init_script(_WATCH)
    page.on("console", lambda msg: console.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    return console


def _violations(page: Any, console: list[str]) -> list[str]:
    return [*console, *page.evaluate("window.__violations")]


@contextmanager
def _bare_page(browser: Any, live_server: Any) -> Iterator[tuple[Any, list[str], list[str]]]:
    """A page outside the `page` fixture (which fails a test on any console error, where a
    third-party page logs its own), watched for violations: (page, page errors, console)."""
    context = browser.new_context(base_url=live_server.url)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page, errors, _watched(page)
    finally:
        context.close()


def test_it_loads_the_sites_pages_without_a_violation(page: Any, seeded: Archive) -> None:
    console = _watched(page)
    paths = [
        "/", "/players/", "/matches/", "/upload/", "/accounts/login/",
        f"/players/{seeded.player('Ann').pk}/", f"/matches/{seeded.match.pk}/",  # type: ignore[union-attr]
    ]
    for path in paths:
        response = page.goto(path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert _violations(page, console) == [], path
    # Scripted behaviour under the policy: head.js marked the page, site.js submits the
    # language picker on change.
    assert page.evaluate("document.documentElement.classList.contains('js')")
    with page.expect_navigation():
        page.select_option("#language-select", "vi")
    assert page.evaluate("document.documentElement.lang") == "vi"
    assert _violations(page, console) == []


def test_it_replays_a_game_under_the_policy(page: Any, seeded: Archive) -> None:
    console = _watched(page)
    url = f"/games/{seeded.long.pk}/"
    page.goto(url)
    page.wait_for_selector("#replay[data-script=ready]", state="attached")  # the script ran
    for _ in range(3):
        page.keyboard.press("ArrowRight")

    # The page's own address (page.url may lag behind the script's history.replaceState).
    assert page.evaluate("() => location.href").endswith(f"{url}?ply=3")
    assert page.locator(".move-list a[aria-current='step']").get_attribute("data-ply") == "3"
    assert _violations(page, console) == []


def test_it_shows_swagger_ui_under_the_policy(page: Any, seeded: Archive) -> None:
    console = _watched(page)
    page.goto("/api/v1/docs/")
    # Drawn by the scripts, from the schema they fetched.
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    assert page.get_by_text("/api/v1/games/", exact=True).first.is_visible()
    assert _violations(page, console) == []


# A bare page: it records every request the page makes.


def test_it_shows_redoc_under_the_policy(browser: Any, live_server: Any, seeded: Archive) -> None:
    with _bare_page(browser, live_server) as (page, errors, console):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        response = page.goto("/api/v1/redoc/")
        assert response is not None and "cdn.redoc.ly" not in response.headers[
            "content-security-policy"]
        page.wait_for_selector(".menu-content", timeout=30_000)
        page.get_by_text("/api/v1/games/", exact=False).first.wait_for(state="attached")
        # Its search runs in a worker made from a blob: URL, which the policy allows.
        page.fill("input[placeholder='Search...']", "games")
        page.wait_for_selector("[data-role='search:results'] li, .search-results li",
                               timeout=30_000, state="attached")
        violations = _violations(page, console)
        logo = page.locator("img[alt='redocly logo']").count()

    assert errors == []
    assert violations == []
    # Nothing external: every request stays on the site (the blob: of its search worker aside).
    assert [u for u in requested if not u.startswith((live_server.url, "blob:", "data:"))] == []
    assert logo == 0


def test_it_lets_staff_use_the_admin_under_the_policy(
    browser: Any, live_server: Any, seeded: Archive
) -> None:
    User.objects.create_superuser("admin", password="a-long-test-password-1")
    # A bare page: the `page` fixture counts every console error, and the admin's own scripts
    # and pages are Django's, not ours.
    with _bare_page(browser, live_server) as (page, errors, console):
        page.goto("/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", "a-long-test-password-1")
        with page.expect_navigation():
            page.click("input[type=submit]")
        page.goto("/admin/records/game/")
        assert page.locator("#result_list").is_visible()
        page.goto(f"/admin/records/game/{seeded.four.pk}/change/")
        assert page.locator("#game_form").count() == 1
        violations = _violations(page, console)

    assert errors == [] and violations == []


def test_it_lays_out_the_browsable_api_under_its_policy(
    page: Any, seeded: Archive, screenshots: Any
) -> None:
    console = _watched(page)
    for path in ("/api/v1/", "/api/v1/games/", f"/api/v1/games/{seeded.four.pk}/"):
        response = page.goto(path)
        assert response.status == 200, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert _violations(page, console) == [], path
    # DRF's style attributes took effect: the Filters button floats right of the others.
    page.goto("/api/v1/games/")
    filters = page.locator("button[data-target='#filtersModal']")
    assert filters.evaluate("node => getComputedStyle(node).cssFloat") == "right"
    page.screenshot(path=str(screenshots / "api-browsable-games.png"))
    assert _violations(page, console) == []
    # The site's own pages keep the strict policy: no allowance for style attributes.
    response = page.goto("/")
    assert "style-src-attr" not in response.headers["content-security-policy"]
