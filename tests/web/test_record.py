"""/record/: the record editor's start form, list of drafts, editor page and FCN download."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

import fourcolor
from fourcolor.generate import generate_record

from drafts import services
from drafts.models import Draft

pytestmark = pytest.mark.django_db


def test_it_asks_for_sign_in(client: Client) -> None:
    for url in ("/record/", "/record/1/", "/record/1/draft.fcn"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=/record/")


def test_it_starts_a_draft_from_the_form(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post("/record/", {
        "ruleset": "bga", "seat1": "An", "seat2": "Bình", "seat3": "Chi", "dealer": "2",
        "event": "Friday club", "date": "2026-11-27", "round": "3",
    })
    draft = Draft.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/record/{draft.pk}/"
    assert (draft.ruleset, draft.seats, draft.dealer) == ("bga", ["An", "Bình", "Chi"], 2)
    assert draft.tags == {"Event": "Friday club", "Date": "2026.11.27", "Round": "3"}
    page = client.get(f"/record/{draft.pk}/")
    assert page.status_code == 200
    assert b'id="draft-data"' in page.content and b'data-stage="deal"' in page.content
    listed = client.get("/record/")
    assert f'href="/record/{draft.pk}/"'.encode() in listed.content


@pytest.mark.parametrize(("fields", "message"), [
    ({"seat1": "An", "seat2": "an"}, "same player"),
    ({"seat1": "An", "seat2": "Bình", "seat4": "Dũng"}, "seat 3 before seat 4"),
    ({"seat1": "An", "seat2": "Bình", "dealer": "3"}, "one of the seats"),
])
def test_it_refuses_a_start_with_the_reason(client: Client, user: User,
                                            fields: dict[str, str], message: str) -> None:
    client.force_login(user)
    response = client.post("/record/", {"ruleset": "classic", "dealer": "1", **fields})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Draft.objects.exists()


def test_it_shows_a_draft_to_its_owner_only(client: Client, user: User) -> None:
    other = User.objects.create_user("other")
    record = generate_record("classic", 2, 0)
    record.events = record.events[:4]
    record.tags["Result"] = "*"
    draft = services.create_from_fcn(other, fourcolor.write_fcn(record))
    client.force_login(user)
    assert client.get(f"/record/{draft.pk}/").status_code == 404
    assert client.get(f"/record/{draft.pk}/draft.fcn").status_code == 404
    client.force_login(other)
    download = client.get(f"/record/{draft.pk}/draft.fcn")
    assert download.status_code == 200
    assert download["Content-Disposition"] == f'attachment; filename="draft-{draft.pk}.fcn"'
    assert download.content.decode() == fourcolor.write_fcn(record)
    page: Any = client.get(f"/record/{draft.pk}/")
    assert page.status_code == 200 and b'data-stage="play"' in page.content


def test_it_gives_the_page_what_follows_each_legal_event(client: Client, user: User) -> None:
    """The editor offers the next events at once after a tap (static/js/record.js): the
    page's state says what may follow each legal event."""
    import json
    import re

    from drafts.play import state_json

    record = generate_record("classic", 2, 0)
    record.events = record.events[:4]
    record.tags["Result"] = "*"
    draft = services.create_from_fcn(user, fourcolor.write_fcn(record))
    client.force_login(user)
    html = client.get(f"/record/{draft.pk}/").content.decode()
    found = re.search(r'<script id="draft-data" type="application/json">(.*?)</script>', html,
                      re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert set(data["next"]) == {event["event"] for event in data["legal"]}
    assert data["next"] == state_json(draft, lookahead=True)["next"]


def test_it_starts_a_draft_of_six_seats_under_a_house_variant(client: Client, user: User) -> None:
    client.force_login(user)
    names = ["An", "Bình", "Chi", "Dũng", "Em", "Phúc"]
    seats = {f"seat{n}": name for n, name in enumerate(names, start=1)}
    response = client.post("/record/", {
        "ruleset": "classic", "dealer": "6", "switches": "threshold=8 steal_generals=never",
        **seats,
    })
    draft = Draft.objects.get()
    assert response.status_code == 302
    assert (draft.seats, draft.dealer) == (names, 6)
    assert draft.tags == {"Switches": "steal_generals=never threshold=8"}
    page = client.get(f"/record/{draft.pk}/")
    assert page.status_code == 200
    assert "Phúc" in page.content.decode()


@pytest.mark.parametrize(("fields", "message"), [
    ({"ruleset": "bga", "seat3": "Chi", "seat4": "Dũng", "seat5": "Em"},
     "bga is played by 2 to 4 players"),
    ({"ruleset": "classic", "seat3": "Chi", "seat6": "Phúc"}, "seat 4 before seat 6"),
    ({"ruleset": "classic", "switches": "steal_generals=sometimes"},
     "steal_generals must be one of gan, never"),
])
def test_it_refuses_a_table_or_variant_the_ruleset_lacks(
    client: Client, user: User, fields: dict[str, str], message: str
) -> None:
    client.force_login(user)
    response = client.post("/record/", {"seat1": "An", "seat2": "Bình", "dealer": "1", **fields})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Draft.objects.exists()
