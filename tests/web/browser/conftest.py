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


# What changes a page, its context or its clock beyond the documents it shows (handlers, routes,
# scripts run on every document, emulation, a fake clock): a test that calls any of these leaves
# its page unfit for the next test, which gets a page of its own.
CHANGES = {
    "page": ("on", "once", "route", "route_from_har", "route_web_socket", "add_init_script",
             "expose_function", "expose_binding", "set_extra_http_headers", "emulate_media",
             "add_locator_handler"),
    "context": ("on", "once", "route", "route_from_har", "route_web_socket", "add_init_script",
                "expose_function", "expose_binding", "set_extra_http_headers", "set_offline",
                "grant_permissions", "set_geolocation", "new_cdp_session"),
    "clock": ("install", "fast_forward", "pause_at", "resume", "run_for", "set_fixed_time",
              "set_system_time"),
}


class SharedPage:
    """One page per locale that the browser tests take turns with: a page in a new context
    starts a renderer process, which costs about 0.2 s of Chromium's CPU per test; a page
    that has already shown this site loads the next one for a quarter of that."""

    def __init__(self, browser: Any, locale: str, base_url: str) -> None:
        self.locale = locale
        self.context = browser.new_context(locale=locale, base_url=base_url)
        self.page = self.context.new_page()
        self.changed = False
        for name, target in (("page", self.page), ("context", self.context),
                             ("clock", self.page.clock)):
            for method in CHANGES[name]:
                setattr(target, method, self._noting(getattr(target, method)))

    def _noting(self, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.changed = True
            return method(*args, **kwargs)
        return call

    def clean(self, origin: str) -> bool:
        """Forget what the test's pages stored and stop their scripts; False if the page is
        not fit for the next test. The page itself leaves for an empty document (asked by the
        page, not the browser, which would start another renderer for it)."""
        from playwright.sync_api import Error

        if self.changed:
            return False
        try:
            self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }"
                               if self.page.url.startswith(origin) else "() => {}")
            self.context.clear_cookies()
            if self.page.url != "about:blank":
                with self.page.expect_navigation():
                    self.page.evaluate("() => location.replace('about:blank')")
        except Error:  # a test that failed midway: a dialog open, the page closed
            return False
        return True



@pytest.fixture(scope="session")
def shared_pages(browser: Any) -> Iterator[dict[str, SharedPage]]:
    pages: dict[str, SharedPage] = {}
    yield pages
    for shared in pages.values():
        shared.context.close()


@pytest.fixture
def make_page(browser: Any, live_server: Any, shared_pages: dict[str, SharedPage]) -> Iterator[Any]:
    contexts: list[Any] = []
    taken: list[SharedPage] = []
    errors = PageErrors()

    def record_error(exc: Any) -> None:
        errors.append(f"script error: {exc}")

    def record_console(msg: Any) -> None:
        if msg.type == "error":
            errors.append(f"console: {msg.text}")

    def make(viewport: dict[str, int] = DESKTOP, locale: str = "en-GB") -> Any:
        shared = shared_pages.get(locale)
        if shared is None:
            shared = shared_pages[locale] = SharedPage(browser, locale, live_server.url)
        if shared in taken:  # a second page in the same test: a context of its own
            context = browser.new_context(viewport=viewport, locale=locale,
                                          base_url=live_server.url)
            contexts.append(context)
            page = context.new_page()
        else:
            taken.append(shared)
            page = shared.page
            page.set_viewport_size(viewport)
        page.set_default_timeout(10_000)
        type(page).on(page, "pageerror", record_error)
        type(page).on(page, "console", record_console)
        return page

    # A test whose page provokes a refusal on purpose (Chromium logs every 4xx answer to a
    # script's request) names the console line it expects: make_page.allow("400 (Bad Request)").
    allowed: list[str] = []
    make.allow = allowed.append  # type: ignore[attr-defined]
    yield make
    for context in contexts:
        context.close()
    for shared in taken:
        shared.page.remove_listener("pageerror", record_error)
        shared.page.remove_listener("console", record_console)
        if not shared.clean(live_server.url):
            shared.context.close()
            del shared_pages[shared.locale]
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
