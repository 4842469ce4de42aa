"""The replay page in Chromium: keyboard stepping, permalinks, the seat view, the move list and
the slider, checked against the engine's `Replay.state` at the same ply."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LONG, Archive, replay_of
from fourcolor.replay_json import state_json

pytestmark = pytest.mark.browser

# What the page shows, read from the DOM: per seat its hand (None when hidden), its melds and
# hand size; the pile count; the live card; the discards; the ply counter.
READ_TABLE = """() => {
  const cards = (el) => el ? [...el.querySelectorAll('li.card[data-card]')]
    .map((c) => c.dataset.card) : [];
  const seats = [...document.querySelectorAll('li.seat')].map((box) => {
    const hand = box.querySelector('[data-field="hand"]');
    return {
      seat: Number(box.dataset.seat),
      name: box.querySelector('.seat__name').textContent,
      hand: hand.querySelector('[data-hidden]') ? null : cards(hand),
      hidden: hand.querySelector('[data-hidden]')?.textContent.trim() ?? null,
      display: [...box.querySelectorAll('[data-field="display"] .meld')].map(cards),
      count: box.querySelector('[data-field="count"]').textContent,
      turn: box.classList.contains('is-turn'),
    };
  });
  return {
    seats,
    pile: Number(document.querySelector('[data-field="pile"]').textContent),
    live: cards(document.querySelector('[data-field="live"]')),
    discards: cards(document.querySelector('[data-field="discards"]')),
    plyOf: document.querySelector('[data-field="ply-of"]').textContent.trim(),
    endHidden: document.getElementById('end').hidden,
    current: document.querySelector('.move-list a[aria-current="step"]').dataset.ply,
  };
}"""


def expected(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "seats": [
            {"seat": s["seat"], "hand": s["hand"], "count": f"({s['hand_count']})",
             "display": [m["cards"] for m in s["display"]], "turn": s["seat"] == state["turn"]}
            for s in state["seats"]
        ],
        "pile": state["pile_left"],
        "live": [state["live"]["card"]] if state["live"] else [],
        "discards": [d["card"] for d in state["discards"]],
        "plyOf": f"Ply {state['ply']} of {state['plies']}",
        "endHidden": state["ply"] != state["plies"],
        "current": str(state["ply"]),
    }


def shown(page: Any) -> dict[str, Any]:
    table = page.evaluate(READ_TABLE)
    for seat in table["seats"]:
        del seat["name"], seat["hidden"]
    return table


def address(page: Any) -> str:
    """The page's own address, as its script left it. (Playwright's `page.url` follows the
    script's history.replaceState through an event that may arrive after the key press that
    caused it has returned.)"""
    return str(page.evaluate("() => location.href"))


def open_replay(page: Any, url: str | None = None) -> None:
    """Go to a replay page (or reload the current one) and wait until its script has taken
    over the controls: a key pressed before that does nothing (CI once pressed End too early
    after a reload)."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector("#replay[data-script=ready]", state="attached")


def test_it_steps_with_the_keyboard_and_shows_what_the_engine_says(
    page: Any, seeded: Archive
) -> None:
    replay = replay_of(seeded.long)
    url = f"/games/{seeded.long.pk}/"
    open_replay(page, url)
    assert shown(page) == expected(state_json(replay.state(0)))
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("k")  # back one: ply 31
    assert address(page).endswith(f"{url}?ply=31")
    assert shown(page) == expected(state_json(replay.state(31)))
    # The permalink, drawn by the server alone, shows the same table.
    open_replay(page)
    assert shown(page) == expected(state_json(replay.state(31)))
    page.keyboard.press("End")
    assert address(page).endswith("?ply=133")
    assert shown(page) == expected(state_json(replay.state(133)))
    assert page.locator("#end").is_visible()
    page.keyboard.press("ArrowLeft")
    assert shown(page) == expected(state_json(replay.state(132)))
    page.keyboard.press("Home")
    assert shown(page) == expected(state_json(replay.state(0))) and address(page).endswith("?ply=0")
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    assert address(page).endswith("?ply=0")


def test_it_shows_one_seats_view_with_the_other_hands_hidden(
    page: Any, seeded: Archive
) -> None:
    replay = replay_of(seeded.four)
    open_replay(page, f"/games/{seeded.four.pk}/?ply=12")
    page.focus("#seat-select")
    page.keyboard.press("ArrowDown")  # choosing by keyboard does not leave the page
    page.keyboard.press("ArrowDown")
    assert address(page).endswith("?ply=12") and page.input_value("#seat-select") == "2"
    with page.expect_navigation():
        page.click(".seat-form button[type=submit]")
    assert address(page).endswith("?seat=2&ply=12")
    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    for ply in (12, 13, 14):
        state = state_json(replay.state(ply, seat=2))
        table = page.evaluate(READ_TABLE)
        for seat, engine in zip(table["seats"], state["seats"], strict=True):
            if seat["seat"] == 2:
                assert seat["hand"] == engine["hand"]
            else:
                assert seat["hand"] is None and engine["hand"] is None
                assert seat["hidden"] == f"{engine['hand_count']} hidden cards"
            assert seat["display"] == [m["cards"] for m in engine["display"]]
        # Only the viewer's waits are in the review.
        assert page.locator('[data-field="waits"] dt').all_text_contents() == [
            replay.record.seats[1]]
        page.keyboard.press("ArrowRight")
    assert address(page).endswith("?seat=2&ply=15")
    page.select_option("#seat-select", "")
    with page.expect_navigation():
        page.click(".seat-form button[type=submit]")
    table = page.evaluate(READ_TABLE)
    assert all(seat["hand"] is not None for seat in table["seats"])


def test_it_jumps_from_the_move_list_the_buttons_and_the_slider(
    page: Any, seeded: Archive
) -> None:
    replay = replay_of(seeded.four)
    open_replay(page, f"/games/{seeded.four.pk}/")
    page.click('.move-list a[data-ply="20"]')
    assert shown(page) == expected(state_json(replay.state(20)))
    assert address(page).endswith("?ply=20")
    page.click('a[data-step="next"]')
    assert shown(page)["current"] == "21"
    page.click('a[data-step="last"]')
    assert shown(page) == expected(state_json(replay.state(41)))
    page.click('a[data-step="prev"]')
    page.click('a[data-step="first"]')
    assert shown(page)["current"] == "0"
    page.locator("#ply-slider").fill("9")
    assert shown(page) == expected(state_json(replay.state(9))) and address(page).endswith("?ply=9")
    assert page.locator('a[data-step="prev"]').get_attribute("href").endswith("?ply=8")


def test_it_shows_unusual_names_exactly_as_written(page: Any, seeded: Archive) -> None:
    open_replay(page, f"/games/{seeded.long.pk}/?ply=5")
    names = [seat["name"] for seat in page.evaluate(READ_TABLE)["seats"]]
    assert names == list(LONG)
    page.keyboard.press("ArrowRight")
    event = page.locator('[data-field="event"] .event__who').text_content()
    assert event in LONG
    assert page.evaluate("() => document.querySelectorAll('main script:not([type])').length") == 0


def test_it_says_each_event_in_the_same_words_as_the_server(page: Any, seeded: Archive) -> None:
    """replay.js draws the ply header from the same templates as the server's event line:
    stepping with the keyboard shows, at every ply, exactly what a page loaded at that ply
    shows (claims in words, whose card, the seats a claim skipped)."""
    game = seeded.four
    plies = replay_of(game).plies
    open_replay(page, f"/games/{game.pk}/?ply=0")
    # Each ply's page as the server sends it, read by the browser's own parser (so that both
    # sides are serialised alike) without drawing it.
    server = {}
    for ply in range(1, plies + 1):
        html = page.request.get(f"/games/{game.pk}/?ply={ply}").text()
        server[ply] = page.evaluate(
            "html => new DOMParser().parseFromString(html, 'text/html')"
            ".querySelector('[data-field=\"event\"]').innerHTML", html)
    assert sum("data-claim" in html for html in server.values()) >= 5
    for ply in range(1, plies + 1):
        page.keyboard.press("ArrowRight")
        drawn = page.locator('[data-field="event"]').inner_html()
        assert drawn == server[ply], ply


def test_the_move_list_is_one_tab_stop_with_the_arrow_keys_inside(
    page: Any, seeded: Archive
) -> None:
    open_replay(page, f"/games/{seeded.four.pk}/?ply=10")
    stops = page.eval_on_selector_all(".move-list a[data-ply]",
                                      "links => links.filter(a => a.tabIndex >= 0)"
                                      ".map(a => Number(a.dataset.ply))")
    assert stops == [10]
    page.focus('.move-list a[data-ply="10"]')
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("() => document.activeElement.dataset.ply")
    assert focused == "11" and address(page).endswith("?ply=11")
    page.keyboard.press("Tab")  # leaves the list in one step
    assert page.evaluate("() => !document.activeElement.closest('.move-list')")
