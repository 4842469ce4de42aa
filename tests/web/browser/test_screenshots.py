"""Screenshots of the main pages at desktop and phone widths, saved under var/screenshots/
(build artifacts, not committed), and a check that no page scrolls sideways on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.browser.conftest import DESKTOP, PHONE, sign_in
from tests.web.browser.test_upload_page import upload_three
from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
# The elements sticking out on the right, named for the failure message.
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .slice(0, 5)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_it_saves_screenshots_of_the_main_pages(
    make_page: Any, seeded: Archive, account: Any, screenshots: Path, tmp_path: Path,
    size: str, viewport: dict[str, int],
) -> None:
    page = make_page(viewport)
    player = seeded.player("Ann")
    shots = {
        "archive": "/",
        "replay-midgame": f"/games/{seeded.long.pk}/?ply=60",
        "replay-end": f"/games/{seeded.four.pk}/?ply={seeded.four.event_count}",
        "player": f"/players/{player.pk}/",
        "leaderboard": "/leaderboard/?min_rounds=1&metric=win_rate",
    }
    for name, url in shots.items():
        page.goto(url)
        assert page.evaluate(SIDEWAYS) <= 0, (
            f"{name} scrolls sideways at {size} width: {page.evaluate(WIDE)}"
        )
        path = screenshots / f"{name}-{size}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
    sign_in(page, "uploader", "/upload/")
    upload_three(page, tmp_path)
    assert page.evaluate(SIDEWAYS) <= 0, f"upload result scrolls sideways at {size} width"
    path = screenshots / f"upload-result-{size}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
