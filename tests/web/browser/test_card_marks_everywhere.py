"""Every card written on the pages carries the tiles' shape cue: in Chromium, after the
scripts drew their parts, no card glyph (車, 炮, 兵...) stands in the text outside a tile
(`.card`, with its corner mark) or a glyph of running text (`.glyph`, followed by the same
mark) — on the archive, the replay (its board, move list and analysis at the start, the middle
and the end of a round), the player, match, leaderboard, check and upload pages with their
refusals, and the record editor."""

from __future__ import annotations

from typing import Any

import pytest

import fourcolor
from drafts import services
from fourcolor.cards import CARDS
from tests.web.browser.conftest import PHONE, sign_in
from tests.web.browser.test_record_page import wait_ready
from tests.web.browser.test_replay_page import open_replay
from tests.web.conftest import Archive, illegal_text
from tests.web.test_replay_analysis import hand_made

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("few_analysis_samples")]
GLYPHS = "".join(sorted({card.glyph for card in CARDS}))

# Text nodes holding a card glyph outside a tile or a marked glyph, with where they are.
BARE = """(glyphs) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    if (![...node.nodeValue].some((ch) => glyphs.includes(ch))) continue;
    const el = node.parentElement;
    if (el.closest('.card, .glyph, script, style, template')) continue;
    const where = el.tagName.toLowerCase() + '.' + el.className;
    out.push(where + ': ' + node.nodeValue.trim().slice(0, 80));
  }
  return out;
}"""


def bare_cards(page: Any) -> list[str]:
    return list(page.evaluate(BARE, GLYPHS))


def test_no_card_glyph_stands_without_its_mark(
    make_page: Any, seeded: Archive, account: Any
) -> None:
    known = hand_made(seeded.four)
    page = make_page()
    found: dict[str, list[str]] = {}

    def visit(url: str, replay: bool = False) -> None:
        if replay:
            open_replay(page, url)
        else:
            page.goto(url)
        if bare := bare_cards(page):
            found[url] = bare

    visit("/")
    for game in seeded.all_games():
        for ply in ("0", "12", "end"):
            visit(f"/games/{game.pk}/?ply={ply}", replay=True)
    visit(f"/games/{seeded.four.pk}/?ply={known['p3']}", replay=True)
    for player in seeded.four.seats.all():
        visit(f"/players/{player.player_id}/")
    visit("/players/")
    visit("/leaderboard/")
    assert seeded.match is not None
    visit(f"/matches/{seeded.match.pk}/")
    page.goto("/check/")
    page.fill("#id_text", illegal_text()[0])
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    if bare := bare_cards(page):
        found["/check/ refusal"] = bare
    sign_in(page, "uploader", "/upload/")
    page.fill("#id_text", illegal_text()[0])
    with page.expect_navigation():
        page.click("form.form--upload button[type=submit]")
    if bare := bare_cards(page):
        found["upload refusal"] = bare
    record = fourcolor.parse_record(seeded.four.canonical_text)
    record.events = record.events[:12]
    record.tags["Result"] = "*"
    draft = services.create_from_fcn(account, fourcolor.write_fcn(record))
    page.set_viewport_size(PHONE)
    page.goto(f"/record/{draft.pk}/")
    wait_ready(page)
    if bare := bare_cards(page):
        found["editor"] = bare
    assert found == {}
    # The scan finds a glyph written bare.
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<p>炮</p>')")
    assert bare_cards(page) == ["p.: 炮"]
