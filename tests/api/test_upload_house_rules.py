"""POST /api/v1/uploads/ with a picked ruleset and house rules (`ruleset`, `switches`: form
fields or JSON keys) for the records whose own tags do not say, as the upload page takes them:
each missing tag is added as a line above the record, so a refusal's line is still the
sender's; a record's own tag wins; a pick the engine does not know is a 400 naming its field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from records.models import Game
from tests.web.conftest import HOUSE_SWITCH, house_text

pytestmark = pytest.mark.django_db
URL = "/api/v1/uploads/"
REFUSING = "color_groups=soldiers"  # the other value: the round's meld is then illegal

SENDS: dict[str, Callable[[APIClient, str, dict[str, str]], Any]] = {
    "form text": lambda client, text, picked: client.post(
        URL, {"text": text, **picked}, format="multipart"),
    "form file": lambda client, text, picked: client.post(
        URL, {"file": SimpleUploadedFile("club.fcn", text.encode(), "text/x-fcn"), **picked},
        format="multipart"),
    "json": lambda client, text, picked: client.post(
        URL, {"text": text, **picked}, format="json"),
}


@pytest.fixture
def uploader(client_for: Callable[[Any], APIClient], user: AbstractUser) -> APIClient:
    return client_for(user)


def only_result(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.content[:500]
    (result,) = response.json()["import_report"]["results"]
    return dict(result)


@pytest.mark.parametrize("how", list(SENDS))
def test_the_picked_switch_decides_a_round_whose_tags_do_not_say(
    uploader: APIClient, how: str
) -> None:
    text, meld_line = house_text()

    refused = only_result(SENDS[how](uploader, text, {"switches": REFUSING}))
    assert refused["status"] == "refused"
    assert refused["line"] == 1 and refused["error"]["line"] == meld_line  # the sender's lines
    assert not Game.objects.exists()

    stored = only_result(SENDS[how](uploader, text, {"switches": HOUSE_SWITCH}))
    assert stored["status"] == "created"
    game = Game.objects.get(pk=stored["id"])
    assert game.switches == HOUSE_SWITCH
    assert game.original_text == f'[Switches "{HOUSE_SWITCH}"]\n{text}'


def test_it_adds_the_picked_ruleset_and_switches_in_json(uploader: APIClient) -> None:
    text, _ = house_text()
    untagged = text.replace('[Ruleset "bga"]\n', "")
    assert untagged != text
    assert only_result(SENDS["json"](uploader, untagged, {}))["status"] == "refused"

    stored = only_result(SENDS["json"](uploader, untagged, {
        "ruleset": "bga", "switches": f"  {HOUSE_SWITCH}  "}))  # written canonically

    game = Game.objects.get(pk=stored["id"])
    assert (game.ruleset, game.switches) == ("bga", HOUSE_SWITCH)
    assert game.original_text == f'[Ruleset "bga"]\n[Switches "{HOUSE_SWITCH}"]\n{untagged}'


def test_a_records_own_tag_wins_over_the_pick(uploader: APIClient) -> None:
    text, _ = house_text()
    own = f'[Switches "{HOUSE_SWITCH}"]\n{text}'

    stored = only_result(SENDS["form text"](uploader, own, {"switches": REFUSING,
                                                            "ruleset": "classic"}))

    assert stored["status"] == "created"
    assert Game.objects.get(pk=stored["id"]).original_text == own  # nothing added


@pytest.mark.parametrize(("how", "picked", "field", "words"), [
    ("form text", {"switches": "threshold=8 threshold=9"}, "switches", "given twice"),
    ("json", {"switches": "steal_generals=sometimes"}, "switches", "must be one of"),
    ("json", {"switches": "zz top"}, "switches", "not name=value"),
    ("form text", {"ruleset": "chess"}, "ruleset", "unknown ruleset"),
    ("json", {"ruleset": 5}, "ruleset", "Must be a string"),
    ("json", {"switches": None}, "switches", "Must be a string"),
    ("form text", {"switches": ["redeal=on", "redeal=off"]}, "switches", "once"),
])
def test_a_pick_the_engine_does_not_know_is_a_400_naming_its_field(
    uploader: APIClient, how: str, picked: dict[str, Any], field: str, words: str
) -> None:
    text, _ = house_text()

    response = SENDS[how](uploader, text, picked)

    assert response.status_code == 400, response.content[:300]
    (message,) = response.json()["error"]["fields"][field]
    assert words in message
    assert not Game.objects.exists()


def test_a_bad_pick_is_said_in_the_requests_language(uploader: APIClient) -> None:
    text, _ = house_text()

    response = uploader.post(URL, {"text": text, "switches": "threshold=8 threshold=9"},
                             format="json", HTTP_ACCEPT_LANGUAGE="vi")

    assert response.status_code == 400
    (message,) = response.json()["error"]["fields"]["switches"]
    assert "threshold" in message and "given twice" not in message
