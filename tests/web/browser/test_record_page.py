"""The record editor in Chromium on a phone-sized page: whole rounds entered by taps and saved
(six seats under a house variant among them), an illegal typed event refused with the engine's
words, undo across a claim, a reload; the status line and tag labels in the three languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import fourcolor

from drafts import services
from drafts.models import Draft
from records.models import Game
from tests.web.browser.conftest import PHONE, sign_in

pytestmark = pytest.mark.browser

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus" / "valid.fcn"
VARIANTS = CORPUS.with_name("variants.fcn")
# Short rounds of the conformance corpus without a Pile tag (the editor records no pile):
# classic, 3 seats, a pong, 30 events; bga, 2 seats, a comment and a Lucky card, 30 events;
# classic, 6 seats under steal_generals=never and three other switches, 13 events.
CLASSIC, BGA, SIX = (CORPUS, 33), (CORPUS, 35), (VARIANTS, 49)


def corpus_record(index: int, path: Path = CORPUS) -> fourcolor.Record:
    text = path.read_text(encoding="utf-8")
    for rt in fourcolor.iter_records(text.splitlines(keepends=True)):
        if rt.index == index:
            return fourcolor.parse_record(rt.text)
    raise LookupError(index)


def wait_ready(page: Any) -> None:
    page.wait_for_selector('#recorder[data-script="ready"]')


def wait_position(page: Any, position: int) -> None:
    page.wait_for_selector(f'#recorder[data-position="{position}"]:not([aria-busy])')


def start_by_form(page: Any, record: fourcolor.Record) -> None:
    page.goto("/record/")
    page.select_option("#id_ruleset", record.ruleset_name)
    if record.players > 4:
        page.click(".record-form__more-seats summary")
    for number, name in enumerate(record.seats, start=1):
        page.fill(f"#id_seat{number}", name)
    page.select_option("#id_dealer", str(record.dealer))
    if record.tag("Switches"):
        page.fill("#id_switches", record.tags["Switches"])
    if record.tag("Event") or record.tag("Date") or record.tag("Round"):
        page.click(".record-form__tags summary")
    if record.tag("Round"):
        page.fill("#id_round", record.tags["Round"])
    if record.tag("Event"):
        page.fill("#id_event", record.tags["Event"])
    if record.tag("Date"):
        page.fill("#id_date", record.tags["Date"].replace(".", "-"))
    with page.expect_navigation():
        page.click(".record-form button[type=submit]")
    wait_ready(page)


def deal_by_taps(page: Any, record: fourcolor.Record) -> None:
    for seat in range(1, record.players + 1):
        page.click(f'[data-deal-seat="{seat}"]')
        for card in record.deal[seat]:
            page.click(f'[data-field="palette"] [data-card="{card.token}"]')
    page.wait_for_selector('#recorder[data-stage="play"]')


def play_by_taps(page: Any, record: fourcolor.Record, upto: int | None = None) -> int:
    """Enter the record's events: a tap on the offered event, typed FCN when the record
    writes it otherwise (a win with no or another declared split). How many were typed."""
    typed = 0
    for ply, event in enumerate(record.events[:upto], start=1):
        text = event.canonical().text()
        if event.comments:
            page.fill("#next-comment", " ".join(event.comments))
        button = page.locator(f'[data-field="legal"] button[data-event="{text}"]')
        if button.count():
            button.first.click()
        else:
            typed += 1
            page.fill("#typed-event", text)
            page.click('[data-form="typed"] button[type=submit]')
        wait_position(page, ply)
    return typed


@pytest.mark.parametrize("where", [CLASSIC, BGA, SIX], ids=["classic", "bga", "six-seats"])
def test_it_records_a_whole_round_by_taps_and_saves_it(
    make_page: Any, account: Any, where: tuple[Path, int]
) -> None:
    record = corpus_record(where[1], where[0])
    page = make_page(PHONE)
    sign_in(page, "uploader", "/record/")
    start_by_form(page, record)
    deal_by_taps(page, record)
    typed = play_by_taps(page, record)
    assert typed <= 1  # the last event at most (a win written with its own split)
    if record.ruleset_name == "bga":
        page.wait_for_selector('#recorder[data-stage="lucky"]')
        page.click(f'[data-lucky="{record.tags["Lucky"]}"]')
    page.wait_for_selector('#recorder[data-stage="ended"]')
    assert page.locator('[data-field="settlement"] tr').count() == record.players
    with page.expect_navigation():
        page.click('[data-action="save"]')
    game = Game.objects.get()
    assert page.url.endswith(f"/games/{game.pk}/")
    # The same record (a record that leaves out its Result gets the one the round gives).
    record.tags.setdefault("Result", fourcolor.validate(record).finish.result_tag)
    assert game.canonical_text == fourcolor.write_fcn(record)
    assert game.uploaded_by == account
    assert not services.open_drafts(account).exists()


def _draft(account: Any, record: fourcolor.Record, events: int) -> Draft:
    cut = fourcolor.parse_record(fourcolor.write_fcn(record))
    cut.events = cut.events[:events]
    cut.tags["Result"] = "*"
    return services.create_from_fcn(account, fourcolor.write_fcn(cut))


def test_it_refuses_an_illegal_typed_event_with_the_engines_message(
    make_page: Any, account: Any
) -> None:
    record = corpus_record(CLASSIC[1])
    draft = _draft(account, record, 0)
    page = make_page(PHONE)
    make_page.allow("status of 400 (Bad Request)")
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    dealer = record.dealer
    general = next(c for c in record.deal[dealer] if c.rank == "K")
    page.fill("#typed-event", f"{dealer}x {general.token}")
    page.click('[data-form="typed"] button[type=submit]')
    message = page.locator('[data-field="message"]')
    message.wait_for(state="visible")
    rnd = fourcolor.Round.from_record(record)
    with pytest.raises(Exception) as refused:
        rnd.push(fourcolor.Event(dealer, "x", (general,)))
    assert message.text_content() == refused.value.message  # type: ignore[attr-defined]
    assert Draft.objects.get().position == 0


def test_it_undoes_across_a_claim_and_keeps_the_state_over_a_reload(
    make_page: Any, account: Any
) -> None:
    record = corpus_record(CLASSIC[1])
    game = fourcolor.validate(record)
    claim = next(c.ply for c in game.claims if c.right.label in ("pong", "chi"))
    draft = _draft(account, record, claim - 1)
    page = make_page(PHONE)
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    claimant = record.events[claim - 1]
    hand_of = f'.seat[data-seat="{claimant.seat}"] [data-field="hand"]'
    hand_before = page.locator(hand_of).inner_text()
    play = record.events[claim - 1: claim + 1]
    for ply, event in enumerate(play, start=claim):
        page.click(f'[data-field="legal"] button[data-event="{event.canonical().text()}"]')
        wait_position(page, ply)
    assert page.locator(f'.seat[data-seat="{claimant.seat}"] [data-field="display"] .meld').count()

    # A reload mid-round: the same state, from the server.
    page.reload()
    wait_ready(page)
    wait_position(page, claim + 1)
    assert page.locator(".record-moves .move").count() == claim + 1

    for ply in (claim, claim - 1):
        page.click('[data-action="undo"]')
        wait_position(page, ply)
    assert page.locator(hand_of).inner_text() == hand_before
    claim_button = f'[data-field="legal"] button[data-event="{claimant.canonical().text()}"]'
    assert page.locator(claim_button).count() == 1
    page.click('[data-action="redo"]')
    wait_position(page, claim)
    assert Draft.objects.get().position == claim


@pytest.mark.parametrize("locale,words", [
    ("en-GB", "expected a seat digit and a verb"),
    ("vi-VN", "cần số ghế và một động từ"),
    ("zh-TW", "應為座位數字加動作"),
])
def test_a_typed_non_event_says_what_an_event_looks_like(
    make_page: Any, account: Any, locale: str, words: str
) -> None:
    draft = _draft(account, corpus_record(CLASSIC[1]), 0)
    page = make_page(PHONE, locale=locale)
    make_page.allow("status of 400 (Bad Request)")
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    page.fill("#typed-event", "zz top")
    page.click('[data-form="typed"] button[type=submit]')
    message = page.locator('[data-field="message"]')
    message.wait_for(state="visible")
    shown = message.text_content() or ""
    assert words in shown and "'zz'" in shown and "2x rK" in shown and "1m rP yP wP" in shown
    assert Draft.objects.get().position == 0


@pytest.mark.parametrize("locale,language",
                         [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")])
def test_the_legal_event_buttons_are_named_in_words_in_the_pages_language(
    make_page: Any, account: Any, locale: str, language: str
) -> None:
    from django.utils import translation

    from records.wording import card_name

    record = corpus_record(CLASSIC[1])
    draft = _draft(account, record, 0)
    page = make_page(PHONE, locale=locale)
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    buttons = page.locator('.legal__kind[data-kind="discard"] button.event-button')
    assert buttons.count() > 0
    with translation.override(language):
        discard = str(translation.gettext("Discard"))
        for i in range(buttons.count()):
            token = (buttons.nth(i).get_attribute("data-event") or "").split()[1]
            assert buttons.nth(i).get_attribute("aria-label") == f"{discard} {card_name(token)}"


@pytest.mark.parametrize("locale,language",
                         [("en-GB", "en"), ("vi-VN", "vi"), ("zh-TW", "zh-hant")])
def test_the_editor_says_what_it_waits_for_in_the_pages_language_naming_players(
    make_page: Any, account: Any, locale: str, language: str
) -> None:
    """The status line as the page loads, as the script rewrites it after a tap, and at an
    exhausted round's end; the tags' labels."""
    from tests.web.test_record_words import EXHAUSTED, STATUS, VALID, draft_of

    said = {plies: status for plies, lang, status in STATUS if lang == language}
    first = corpus_record(EXHAUSTED, VALID).events[0].canonical().text()
    draft = draft_of(account, 0, {"Site": "Hanoi"})
    page = make_page(PHONE, locale=locale)
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    expected = page.locator('[data-field="expected"]')
    assert expected.text_content() == said[0]
    assert {"en": "Site: Hanoi", "vi": "Địa điểm: Hanoi", "zh-hant": "地點：Hanoi"}[language] in (
        page.locator("p.game-meta").text_content() or "")
    page.click(f'[data-field="legal"] button[data-event="{first}"]')
    wait_position(page, 1)
    assert expected.text_content() == said[1]
    page.goto(f"/record/{draft_of(account, None).pk}/")
    wait_ready(page)
    assert expected.text_content() == said[None]
