"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Never `playwright install`: the browser is Debian's Chromium headless shell,
/usr/bin/chromium-headless-shell (`make test` and `.ci/run` install it), or Debian's full
/usr/bin/chromium where only it is. Without either these tests are skipped with that reason;
with one they must pass.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.web.conftest import Archive, build_archive

# Playwright's sync API runs an event loop in this thread; the test code between its calls
# (fixtures reading the database) is plain synchronous code, which Django would otherwise
# refuse as "async unsafe".
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The headless shell is the build Playwright itself runs headless (a test's browser context
# costs about 1.5 s less CPU); Debian's full chromium drives the same tests where only it is.
CHROMIUM = next((path for path in map(Path, ("/usr/bin/chromium-headless-shell",
                                             "/usr/bin/chromium")) if path.exists()),
                Path("/usr/bin/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's Chromium headless shell "
                    "(apt-get install chromium-headless-shell) to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


class PageErrors(list[str]):
    """Uncaught script errors and failed requests seen by a page; a test fails on any."""


@pytest.fixture
def make_page(browser: Any, live_server: Any) -> Iterator[Any]:
    contexts: list[Any] = []
    errors = PageErrors()

    def make(viewport: dict[str, int] = DESKTOP, locale: str = "en-GB") -> Any:
        context = browser.new_context(viewport=viewport, locale=locale,
                                      base_url=live_server.url)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(f"script error: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}")
                if msg.type == "error" else None)
        return page

    # A test whose page provokes a refusal on purpose (Chromium logs every 4xx answer to a
    # script's request) names the console line it expects: make_page.allow("400 (Bad Request)").
    allowed: list[str] = []
    make.allow = allowed.append  # type: ignore[attr-defined]
    yield make
    for context in contexts:
        context.close()
    unexpected = [error for error in errors if not any(text in error for text in allowed)]
    assert not unexpected, unexpected


@pytest.fixture
def page(make_page: Any) -> Any:
    return make_page()


@pytest.fixture
def seeded(transactional_db: None) -> Archive:
    return build_archive()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


PASSWORD = "a-long-test-password-1"


@pytest.fixture
def account(transactional_db: None) -> Any:
    from django.contrib.auth.models import User

    return User.objects.create_user("uploader", password=PASSWORD)


def sign_in(page: Any, username: str, then: str) -> None:
    """Sign in through the login form, as a person would."""
    page.goto(f"/accounts/login/?next={then}")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
