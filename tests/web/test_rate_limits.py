"""One rate limiter for every write a visitor can repeat (common.rates), on the web as in the
API: the upload page and the API upload spend one allowance, /check/ and the record editor's
start have theirs; over a rate the page answers 429 with Retry-After, in its language."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from records.tokens import create_token

from records.models import Game
from tests.web.conftest import FOUR, record_text

pytestmark = pytest.mark.django_db


def rates(settings: Any, **scopes: str) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current, "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **scopes}}


def good(seed: int) -> str:
    return record_text("classic", 4, seed, FOUR)


def test_it_limits_the_upload_page_and_the_api_upload_together(
    signed_in: Client, user: Any, settings: Any
) -> None:
    rates(settings, upload="3/minute")
    token = create_token(user, "test")[1]
    assert signed_in.post("/upload/", {"text": good(1)}).status_code == 303
    api = Client().post("/api/v1/uploads/", good(2), content_type="text/x-fcn",
                        HTTP_AUTHORIZATION=f"Token {token}")
    assert api.status_code == 201
    upload = SimpleUploadedFile("a.fcn", good(3).encode())
    assert signed_in.post("/upload/", {"file": upload}).status_code == 303

    refused = signed_in.post("/upload/", {"text": good(4)})

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many requests" in refused.content.decode()
    assert Game.objects.count() == 3
    assert signed_in.get("/upload/").status_code == 200  # reading the form is not limited


def test_it_limits_the_check_page_per_visitor(client: Client, settings: Any) -> None:
    rates(settings, check="2/minute")
    for _ in range(2):
        assert client.post("/check/", {"text": good(5)}).status_code == 200
    refused = client.post("/check/", {"text": good(5)}, HTTP_ACCEPT_LANGUAGE="vi")
    assert refused.status_code == 429
    assert refused["Retry-After"]
    assert refused["Content-Language"] == "vi"
    assert "Too many requests" not in refused.content.decode()  # in the page's language
    # Another visitor has an allowance of his own.
    assert client.post("/check/", {"text": good(5)}, REMOTE_ADDR="10.9.9.9").status_code == 200


def test_it_limits_starting_drafts_in_the_record_editor(
    signed_in: Client, settings: Any
) -> None:
    rates(settings, drafts="1/minute")
    form = {"ruleset": "classic", "seat1": "Ann", "seat2": "Bo", "dealer": "1"}
    assert signed_in.post("/record/", form).status_code == 302
    assert signed_in.post("/record/", form).status_code == 429
