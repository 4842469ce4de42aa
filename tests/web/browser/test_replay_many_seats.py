"""The replay page at tables of five to eight (a house variant's among them) on a phone and
a desktop: no page-wide horizontal scroll, every seat on screen, hands in balanced lines; the
archive's list of such games, its match names unbroken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import fourcolor
from fourcolor.generate import generate_match, generate_record
from records.services import import_records

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NAMES = ("Nguyễn Thị Lan", "Trần Văn Bình", "陳美玲", "María García", "Анна Иванова",
         "Ελένη Παπαδοπούλου", "Søren Åberg", "فاطمة الزهراء")
TABLES = [(5, {}), (6, {"steal_generals": "never"}), (8, {"lucky_draw": True})]

SEATS = """() => [...document.querySelectorAll('li.seat')].map((el) => {
  const r = el.getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width, height: r.height};
})"""

# The texts under `selector` that take more than one line.
LINES = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
}).map((el) => el.textContent)"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("players", "switches"), TABLES, ids=[str(n) for n, _ in TABLES])
def test_it_shows_every_seat_without_scrolling_sideways(
    make_page: Any, transactional_db: None, screenshots: Path, size: dict[str, int],
    players: int, switches: dict[str, Any],
) -> None:
    record = generate_record("classic", players, 3, names=NAMES[:players], switches=switches)
    report = import_records(fourcolor.write_fcn(record))
    game_id = report.results[0].game_id
    page = make_page(viewport=size)
    page.goto(f"/games/{game_id}/?ply=20")
    page.wait_for_selector("#replay[data-script=ready]", state="attached")

    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide
    seats = page.evaluate(SEATS)
    assert len(seats) == players
    for seat in seats:
        assert seat["width"] > 0 and seat["height"] > 0, seats
        assert 0 <= seat["left"] and seat["right"] <= size["width"], seats
    # Short phrases are not broken over lines: a meld's name ("three-colour": a wrapped one
    # pushed its points away), the pile's "62 cards left", the legend's "yellow (triangle)"
    # and a player's name in the heading.
    assert page.evaluate(LINES, ".seat__display .meld__name, .centre__pile p, "
                                ".centre__legend li > span, .game-head__name") == [], players
    words = "generals never stolen, " if switches == {"steal_generals": "never"} else ""
    assert f"classic, {words}" in page.content() and f"{players} players" in page.content()
    page.screenshot(path=str(screenshots / f"replay-{players}-seats-{size['width']}.png"),
                    full_page=True)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_it_lists_house_variants_and_large_tables_in_the_archive(
    make_page: Any, transactional_db: None, screenshots: Path, size: dict[str, int]
) -> None:
    for players, switches in TABLES:
        record = generate_record("classic", players, 3, names=NAMES[:players], switches=switches)
        import_records(fourcolor.write_fcn(record))
    import_records(fourcolor.write_fcn(generate_record(
        "bga", 4, 5, names=NAMES[:4], switches={"steal_generals": "never", "threshold": 8})))
    page = make_page(viewport=size)
    page.goto("/?switches=house")

    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 3
    assert page.locator("small.variant", has_text="generals never stolen").count() == 2
    page.screenshot(path=str(screenshots / f"archive-house-variants-{size['width']}.png"),
                    full_page=True)


# Each seat's hand as the number of cards on each of its lines, top to bottom ("6+5").
HAND_LINES = """() => [...document.querySelectorAll('li.seat')].map((seat) => {
  const lines = new Map();
  for (const card of seat.querySelectorAll('.seat__hand .card')) {
    const top = Math.round(card.getBoundingClientRect().top);
    lines.set(top, (lines.get(top) || 0) + 1);
  }
  return [...lines.keys()].sort((a, b) => a - b).map((top) => lines.get(top)).join("+");
})"""


def test_a_hand_on_a_phone_never_leaves_one_card_alone_on_a_line(
    make_page: Any, transactional_db: None
) -> None:
    """Eight seats, stepped through ply by ply: a hand of ten fits one line; a longer one
    wraps into lines that differ by one card at most."""
    record = generate_record("classic", 8, 3, names=NAMES)
    game_id = import_records(fourcolor.write_fcn(record)).results[0].game_id
    page = make_page(viewport=PHONE)
    page.goto(f"/games/{game_id}/?ply=0")
    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    seen = set()
    for _ in range(len(record.events) + 1):
        for hand in page.evaluate(HAND_LINES):
            lines = [int(n) for n in hand.split("+")]
            seen.add(sum(lines))
            assert sum(lines) > 10 or len(lines) == 1, hand
            assert max(lines) - min(lines) <= 1, hand
        page.keyboard.press("ArrowRight")
    assert {10, 11, 21} <= seen  # the hands the rule is about were shown


def test_the_archive_keeps_a_match_name_on_one_line(
    make_page: Any, transactional_db: None
) -> None:
    for seed, players in ((3, 8), (4, 6)):
        import_records("\n".join(fourcolor.write_fcn(r) for r in generate_match(
            "classic", players, seed, rounds=2, match_id=f"demo-1-00{seed}0",
            names=NAMES[:players], date=f"2026.01.0{seed}")))
    page = make_page(viewport=DESKTOP)
    page.goto("/")
    names = page.locator("table.games td:last-child a")
    assert names.count() == 4
    assert page.evaluate(LINES, "table.games td:last-child a") == []
    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide
