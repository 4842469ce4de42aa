"""The record editor applies a tapped event at once and sends it behind the page: in Chromium,
taps faster than the server answers, taps made offline (sent when the connection is back),
taps a reload interrupted (sent from localStorage), and a refusal that takes them back."""

from __future__ import annotations

from typing import Any

import pytest

import fourcolor

from drafts import services
from drafts.models import Draft
from tests.web.browser.conftest import PHONE, sign_in
from tests.web.browser.test_record_page import CLASSIC, _draft, corpus_record, wait_position, \
    wait_ready

pytestmark = pytest.mark.browser

EVENTS = "**/api/v1/drafts/*/events/"


def tap(page: Any, event: fourcolor.Event) -> None:
    # Playwright waits for the button: it appears without a round trip, or the test times out,
    # saying what the page was showing instead.
    from playwright.sync_api import TimeoutError

    text = event.canonical().text()
    try:
        page.click(f'[data-field="legal"] button[data-event="{text}"]')
    except TimeoutError:
        shown = page.evaluate("""() => {
            const root = document.getElementById("recorder");
            return ["position", "confirmed", "pending"].map(
                name => name + " " + root.getAttribute("data-" + name)).join(", ")
              + (root.hasAttribute("aria-busy") ? ", busy" : "") + "; legal: "
              + root.querySelector('[data-field="legal"]').innerText.slice(0, 200);
        }""")
        raise AssertionError(f"no button for {text!r}: {shown}") from None


def played(draft: Draft) -> list[str]:
    draft.refresh_from_db()
    return [entry["event"] for entry in draft.events[: draft.position]]


def texts(record: fourcolor.Record, count: int) -> list[str]:
    return [event.canonical().text() for event in record.events[:count]]


def open_draft(make_page: Any, account: Any, record: fourcolor.Record) -> tuple[Any, Draft]:
    draft = _draft(account, record, 0)
    page = make_page(PHONE)
    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    return page, draft


class Held:
    """Holds the events' requests in the browser while `on`: the server has not answered."""

    def __init__(self, page: Any) -> None:
        self.on = True
        self.routes: list[Any] = []
        page.route(EVENTS, self.handle)
        self.page = page

    def handle(self, route: Any) -> None:
        if self.on:
            self.routes.append(route)
        else:
            route.continue_()

    def wait(self, count: int) -> None:
        for _ in range(100):
            if len(self.routes) >= count:
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{len(self.routes)} requests held, not {count}")

    def release(self) -> None:
        """Sends the held requests on, and every later one straight to the server: no longer
        through this handler, which runs only while the test is inside a Playwright call."""
        self.on = False
        for route in self.routes:
            route.continue_()
        self.page.unroute(EVENTS, self.handle)


def test_it_offers_the_next_event_before_the_server_answers(make_page: Any, account: Any
                                                            ) -> None:
    record = corpus_record(CLASSIC[1])
    page, draft = open_draft(make_page, account, record)
    held = Held(page)
    tap(page, record.events[0])
    tap(page, record.events[1])  # offered while the first is not answered
    held.wait(1)
    assert len(held.routes) == 1  # one request at a time, in order
    assert page.locator('.record-moves .move[data-pending]').count() == 2
    assert page.get_attribute("#recorder", "data-position") == "2"
    assert played(draft) == []
    held.release()
    wait_position(page, 2)
    assert page.locator('.record-moves .move[data-pending]').count() == 0

    # Taps as fast as the page takes them: never more than one answer behind.
    for event in record.events[2:14]:
        tap(page, event)
    wait_position(page, 14)
    assert played(draft) == texts(record, 14)
    assert page.locator(".record-moves .move").count() == 14


def test_it_keeps_taps_made_offline_and_sends_them_when_back_online(
    make_page: Any, account: Any
) -> None:
    record = corpus_record(CLASSIC[1])
    page, draft = open_draft(make_page, account, record)
    make_page.allow("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    tap(page, record.events[0])
    tap(page, record.events[1])
    message = page.locator('[data-field="message"]')
    message.wait_for(state="visible")
    assert "No connection" in (message.text_content() or "")
    assert page.locator('.record-moves .move[data-pending]').count() == 2
    assert played(draft) == []

    page.context.set_offline(False)
    wait_position(page, 2)
    assert played(draft) == texts(record, 2)
    assert message.is_hidden()
    # The server's state again, with what follows: the next tap works as before.
    tap(page, record.events[2])
    wait_position(page, 3)
    assert played(draft) == texts(record, 3)


def test_it_sends_the_taps_a_reload_interrupted(make_page: Any, account: Any) -> None:
    record = corpus_record(CLASSIC[1])
    page, draft = open_draft(make_page, account, record)
    held = Held(page)
    tap(page, record.events[0])
    tap(page, record.events[1])
    held.wait(1)
    held.on = False  # the reload drops the held request; the page sends both again
    page.reload()
    wait_ready(page)
    wait_position(page, 2)
    assert played(draft) == texts(record, 2)
    assert page.evaluate("Object.keys(window.localStorage).length") == 0


def test_it_takes_back_refused_taps_with_the_servers_message(make_page: Any, account: Any
                                                             ) -> None:
    record = corpus_record(CLASSIC[1])
    page, draft = open_draft(make_page, account, record)
    make_page.allow("409 (Conflict)")
    # Another device enters another first event: the page's taps no longer follow the draft.
    rnd = fourcolor.Round.from_record(record)
    other = next(e for e in rnd.legal_events() if e != record.events[0].canonical())
    services.add_event(account, draft.pk, other.canonical().text())
    held = Held(page)
    tap(page, record.events[0])
    tap(page, record.events[1])
    held.wait(1)
    held.release()
    message = page.locator('[data-field="message"]')
    message.wait_for(state="visible")
    text = message.text_content() or ""
    assert "The draft has 1 events played" in text
    assert "Taken back with it" in text and "(2 in all)" in text
    wait_position(page, 1)  # the server's state: the other device's event
    assert page.locator('.record-moves .move[data-pending]').count() == 0
    assert page.locator(".record-moves .move .move__event").all_text_contents() == [
        other.canonical().text()]
    assert played(draft) == [other.canonical().text()]


def test_it_keeps_the_taps_when_the_session_has_ended(make_page: Any, account: Any) -> None:
    """A refusal for want of a sign-in is not the rules' verdict: the taps wait on the device
    and are sent once the user has signed in again."""
    record = corpus_record(CLASSIC[1])
    page, draft = open_draft(make_page, account, record)
    make_page.allow("403 (Forbidden)")
    make_page.allow("401 (Unauthorized)")
    page.context.clear_cookies()
    tap(page, record.events[0])
    message = page.locator('[data-field="message"]')
    message.wait_for(state="visible")
    assert "You are signed out" in (message.text_content() or "")
    assert page.locator('.record-moves .move[data-pending]').count() == 1
    assert played(draft) == []

    sign_in(page, "uploader", f"/record/{draft.pk}/")
    wait_ready(page)
    wait_position(page, 1)
    assert played(draft) == texts(record, 1)
