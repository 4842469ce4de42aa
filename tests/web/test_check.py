"""The check page (/check/): every record's verdict, as an upload would give it, and the replay
of a legal one, for anyone, with nothing stored (no row in any table), within the size that
runs in a request."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.web.conftest import (
    FOUR,
    HOUSE_SWITCH,
    Archive,
    four_text,
    house_text,
    illegal_text,
    record_text,
)
from tests.web.dom import parse

pytestmark = pytest.mark.django_db
PAGE = "/check/"


def _rows() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')  # noqa: S608 (our own tables)
            counts[table] = cursor.fetchone()[0]
    return counts


def _statuses(doc: Any) -> list[str]:
    return [li.attrs["data-status"] for li in doc.find_all("li", "result")]


def test_it_is_linked_from_the_nav_and_the_upload_page(client: Client, signed_in: Client) -> None:
    assert reverse("check") == PAGE
    nav = parse(Client().get("/").content).find("nav", "site-nav")
    assert PAGE in [a.attrs["href"] for a in nav.find_all("a")]
    upload = parse(signed_in.get(reverse("upload")).content)
    assert upload.find("a", **{"data-field": "check-link"}).attrs["href"] == PAGE


def test_it_gives_every_verdict_and_a_replay_and_stores_nothing(archive: Archive) -> None:
    good = record_text("classic", 4, 9, FOUR)
    bad, bad_line, _ = illegal_text()
    text = "\n".join([bad, good, four_text()])
    before = _rows()

    response = Client().post(PAGE, {"text": text})

    assert response.status_code == 200
    assert _rows() == before
    doc = parse(response.content)
    assert _statuses(doc) == ["refused", "valid", "duplicate"]
    refused = doc.find("li", "result")
    field = lambda name: refused.find(**{"data-field": name}).words()  # noqa: E731
    assert (field("line"), field("col"), field("ply")) == (str(bad_line), "1", "1")
    assert field("message").startswith("Ann does not hold ")  # the player’s name
    assert {d.attrs["data-count"]: d.words() for d in doc.find_all("strong")
            if "data-count" in d.attrs} == {"valid": "1", "duplicate": "1", "refused": "1"}
    duplicate = doc.find_all("li", "result")[2]
    assert duplicate.find("a").attrs["href"] == f"/games/{archive.four.pk}/"
    # The replay of the legal record, drawn at the deal with every later ply for replay.js.
    assert doc.find("h2", id="replay-heading").words().startswith("Replay of record 2")
    replay = doc.find("div", id="replay")
    assert replay.attrs["data-ply"] == "0" and int(replay.attrs["data-plies"]) > 10
    assert doc.find("script", id="replay-data")
    assert not doc.find_all("form", "seat-form")  # that form reloads a stored game's page


def test_it_shows_the_replay_asked_for(client: Client) -> None:
    first, second = record_text("classic", 4, 9, FOUR), record_text("bga", 3, 2, FOUR[:3])
    doc = parse(client.post(PAGE, {"text": first + "\n" + second, "replay": "2"}).content)
    assert doc.find("h2", id="replay-heading").words().startswith("Replay of record 2")
    button = doc.find("li", "result").find("button")
    assert (button.attrs["name"], button.attrs["value"], button.attrs["form"]) == (
        "replay", "1", "check-form")


def test_it_checks_a_file_and_puts_its_text_in_the_box(client: Client) -> None:
    text = record_text("classic", 4, 9, FOUR)
    upload = SimpleUploadedFile("night.fcn", text.encode(), content_type="text/plain")
    doc = parse(client.post(PAGE, {"file": upload}).content)
    assert _statuses(doc) == ["valid"]
    assert doc.find("textarea", id="id_text").text().strip() == text.strip()


def test_it_refuses_more_than_runs_in_a_request(client: Client, settings: Any) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 200
    before = _rows()
    response = client.post(PAGE, {"text": record_text("classic", 4, 9, FOUR)})
    assert response.status_code == 400
    message = parse(response.content).find("div", "errors").words()
    assert "checks at most 200 bytes at a time" in message and "upload it" in message
    assert _rows() == before


def test_it_refuses_the_record_past_the_upload_limit(client: Client, settings: Any) -> None:
    settings.UPLOAD_MAX_RECORDS = 1
    text = record_text("classic", 4, 9, FOUR) + "\n" + record_text("classic", 4, 10, FOUR)
    doc = parse(client.post(PAGE, {"text": text}).content)
    assert _statuses(doc) == ["valid", "refused"]
    assert doc.find_all("li", "result")[1].find(
        **{"data-field": "category"}).attrs["data-category"] == "limit"


@pytest.mark.parametrize(("switches", "status"), [
    ("color_groups=soldiers", "refused"), (HOUSE_SWITCH, "valid"), ("", "refused"),
], ids=["soldiers-only", "any-rank", "none-picked"])
def test_it_checks_a_record_without_switches_under_the_picked_house_rules(
    db: None, switches: str, status: str
) -> None:
    text, line = house_text()
    before = _rows()
    response = Client().post(PAGE, {"text": text, "switches": switches})
    assert response.status_code == 200
    assert _rows() == before
    doc = parse(response.content)
    assert _statuses(doc) == [status]
    row = doc.find("li", "result")
    if status == "refused":
        assert row.find(**{"data-field": "line"}).words() == str(line)  # the user's own lines
        assert row.find(**{"data-field": "category"}).attrs["data-category"] == "not-a-meld"
    else:
        assert row.find(**{"data-field": "variant"}).words() == (
            "(bga, colour groups of any rank, 4 players)")
    given = [code.words() for node in doc.find_all(**{"data-field": "given"})
             for code in node.find_all("code")]
    assert given == ([f'[Switches "{switches}"]'] if switches else [])
    # The picked rules stay picked for the next check ("Show its replay" sends them again).
    assert doc.find("input", id="id_switches").attrs.get("value", "") == switches
