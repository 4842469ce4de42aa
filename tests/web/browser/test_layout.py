"""The replay's layout: a 4-seat round in one laptop screen with the move
list beside it; on a phone the controls and the moves within reach; names broken only between
words; wide tables that show they scroll."""

from __future__ import annotations

from typing import Any

import pytest

import fourcolor
from fourcolor.generate import generate_record
from records.models import Game
from records.services import import_records
from tests.web.conftest import Archive

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
LONG_NAMES = ("Αικατερίνη Παπαδοπούλου", "Opponent Featherstonehaugh-Wright",
              "Nguyễn Thị Thanh Bình", "Bartholomew Konstantinopoulos")

RECTS = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height};
})"""


def open_at(page: Any, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("#replay[data-script=ready]", state="attached")


def test_it_fits_a_four_seat_round_in_one_laptop_screen(make_page: Any, seeded: Archive) -> None:
    page = make_page(viewport=LAPTOP)
    open_at(page, f"/games/{seeded.four.pk}/?ply=30")
    seats = page.evaluate(RECTS, "li.seat")
    assert len(seats) == 4
    assert max(s["bottom"] for s in seats) <= LAPTOP["height"], seats
    board = page.evaluate(RECTS, ".board")[0]
    (moves,) = page.evaluate(RECTS, ".move-list")
    assert moves["left"] >= board["right"]  # beside the table, not below it
    rows = page.evaluate(RECTS, ".move-list li")
    shown = [r for r in rows if r["top"] >= moves["top"] and r["bottom"] <= min(
        moves["bottom"], LAPTOP["height"])]
    assert len(shown) >= 12, len(shown)
    current = page.evaluate(RECTS, '.move-list a[aria-current="step"]')[0]
    assert moves["top"] <= current["top"] and current["bottom"] <= LAPTOP["height"]


def test_it_keeps_the_controls_and_the_moves_in_reach_on_a_phone(
    make_page: Any, seeded: Archive
) -> None:
    page = make_page(viewport=PHONE)
    open_at(page, f"/games/{seeded.long.pk}/?ply=60")
    page.mouse.wheel(0, 5000)
    page.wait_for_timeout(200)
    (controls,) = page.evaluate(RECTS, ".controls")
    assert controls["top"] <= 1 and controls["bottom"] < PHONE["height"] / 3  # sticky, small
    page.click("#tab-moves")
    (moves,) = page.evaluate(RECTS, ".move-list")
    assert moves["top"] < PHONE["height"] and moves["height"] > 200
    current = page.evaluate(RECTS, '.move-list a[aria-current="step"]')[0]
    assert 0 <= current["top"] and current["bottom"] <= PHONE["height"]
    assert page.evaluate("() => document.documentElement.scrollHeight") < 2000
    assert page.locator(".board").is_hidden()
    page.keyboard.press("ArrowRight")  # the tab has the focus: stepping keys still work
    page.click("#tab-table")
    assert page.locator(".board").is_visible() and page.locator(".moves").is_hidden()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_it_breaks_names_only_between_words(
    make_page: Any, transactional_db: None, size: dict[str, int]
) -> None:
    text = fourcolor.write_fcn(generate_record("classic", 4, 7, names=LONG_NAMES))
    report = import_records(text)
    game = Game.objects.get(pk=report.results[0].game_id)
    page = make_page(viewport=size)
    open_at(page, f"/games/{game.pk}/?ply=12")
    broken = page.evaluate("""(names) => {
      const out = [];
      const walker = document.createTreeWalker(document.querySelector("main"),
                                               NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent;
        for (const name of names) {
          for (const word of name.split(/[ -]/)) {
            let at = text.indexOf(word);
            while (at >= 0) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + word.length);
              const tops = new Set([...range.getClientRects()]
                .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (tops.size > 1) out.push(word);
              at = text.indexOf(word, at + 1);
            }
          }
        }
      }
      return out;
    }""", list(LONG_NAMES))
    assert broken == []


def test_a_wide_table_shows_that_it_scrolls_on_a_phone(make_page: Any, seeded: Archive) -> None:
    page = make_page(viewport=PHONE)
    page.goto("/matches/")  # the list of matches, its columns wider than a phone
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth")
    assert wrap.evaluate("(el) => getComputedStyle(el).backgroundImage").count("gradient") == 4
    assert wrap.get_attribute("tabindex") == "0"  # the arrow keys scroll it
    assert "is-scrollable" in (wrap.get_attribute("class") or "")
