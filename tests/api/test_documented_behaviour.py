"""docs/api.md and the server agree: each row a request, the status the docs give it and the
field its error names (or the header the docs promise), as a builder reads them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from tests.api.conftest import SHARED, Archive, round_text
from tests.api.openapi import openapi_document
from tests.api.test_drafts import bot_round, text_of

pytestmark = pytest.mark.usefixtures(SHARED)

DRAFT = {"ruleset": "classic", "seats": ["An", "Bình"], "dealer": 1}
NAMES = ["An", "Bình"]

# (what, method, path ({game}, {draft} filled in), body, status, the field the error names)
ROWS: list[tuple[str, str, str, dict[str, Any] | None, int, str | None]] = [
    ("ordering given twice", "get", "/api/v1/games/?ordering=-points&ordering=date", None,
     400, "ordering"),
    ("several orderings comma-separated", "get", "/api/v1/games/?ordering=-points,date", None,
     200, None),
    ("a junk cursor", "get", "/api/v1/games/?cursor=nonsense", None, 400, "cursor"),
    ("a well-formed cursor of nothing", "get", "/api/v1/games/?cursor=eyJvIjpbXX0", None,
     400, "cursor"),
    ("a cursor made for another ordering", "get", "/api/v1/games/?cursor={points_cursor}",
     None, 400, "cursor"),
    ("plies from after to", "get", "/api/v1/games/{game}/plies/?from=10&to=2", None,
     400, "from"),
    ("plies from before to", "get", "/api/v1/games/{game}/plies/?from=2&to=10", None,
     200, None),
    ("a draft event's comment by PUT", "put", "/api/v1/drafts/{draft}/events/1/",
     {"comment": "a good call"}, 200, None),
    ("an unknown field in a new draft", "post", "/api/v1/drafts/", {**DRAFT, "colour": "red"},
     400, "colour"),
    ("an unknown field in a draft's change", "patch", "/api/v1/drafts/{draft}/",
     {"seats": NAMES, "sets": NAMES}, 400, "sets"),
    ("an unknown tag in a draft's change", "patch", "/api/v1/drafts/{draft}/",
     {"tags": {"Evnt": "club"}}, 400, "tags"),
    ("an unknown field beside an event", "post", "/api/v1/drafts/{draft}/events/",
     {"event": "1x rK", "coment": "x"}, 400, "coment"),
    ("a dealer beyond the seats", "post", "/api/v1/drafts/", {**DRAFT, "dealer": 3},
     400, "dealer"),
    ("a control character in a seat's name", "post", "/api/v1/drafts/",
     {**DRAFT, "seats": ["An\x07", "Bình"]}, 400, "seats"),
    ("a bidi override in a seat's name", "post", "/api/v1/drafts/",
     {**DRAFT, "seats": ["An\u202e", "Bình"]}, 400, "seats"),
    ("an upload's text and file together", "post", "/api/v1/uploads/",
     {"text": round_text(5), "file": "x"}, 400, "file"),
    ("an unknown upload field", "post", "/api/v1/uploads/", {"txt": round_text(5)}, 400, "txt"),
    ("a NUL in a password", "post", "/api/v1/auth/token/",
     {"username": "uploader", "password": "pass\x00word"}, 400, "password"),
    ("an unknown field beside a password", "post", "/api/v1/auth/token/",
     {"username": "uploader", "password": "x", "key": "mine"}, 400, "key"),
    ("an unknown scope for a token", "post", "/api/v1/auth/token/",
     {"username": "uploader", "password": "x", "scope": "admin"}, 400, "scope"),
]


@pytest.fixture
def places(archive: Archive, user: AbstractUser, client_for: Callable[[Any], APIClient]
           ) -> dict[str, Any]:
    # A draft with two events played, from a bot's round.
    fcn = text_of(bot_round(), events=2)
    draft = client_for(user).post("/api/v1/drafts/", {"fcn": fcn}, format="json")
    assert draft.status_code == 201, draft.content
    following = APIClient().get("/api/v1/games/?ordering=points&cursor=&page_size=2")
    cursor = parse_qs(urlsplit(following.json()["next"]).query)["cursor"][0]
    return {"game": archive.match[0], "draft": draft.json()["id"], "points_cursor": cursor}


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "method", "path", "body", "status", "field"), ROWS,
                         ids=[row[0] for row in ROWS])
def test_it_answers_as_the_docs_say(
    places: dict[str, Any], user: AbstractUser, client_for: Callable[[Any], APIClient],
    what: str, method: str, path: str, body: dict[str, Any] | None, status: int,
    field: str | None,
) -> None:
    client = client_for(None if "auth/token" in path else user)
    send = getattr(client, method)

    response = send(path.format(**places), body, format="json") if body is not None else send(
        path.format(**places))

    assert response.status_code == status, response.content[:300]
    if field is not None:
        assert field in response.json()["error"]["fields"], response.json()


def _header_set(response: Any, name: str) -> set[str]:
    return {part.strip().lower() for part in response.get(name, "").split(",") if part.strip()}


@pytest.mark.django_db
def test_it_exposes_every_header_it_sends_to_other_origins(api: APIClient, archive: Archive
                                                           ) -> None:
    response = api.get("/api/v1/games/", HTTP_ORIGIN="https://elsewhere.example")

    exposed = _header_set(response, "Access-Control-Expose-Headers")
    sent = {name.lower() for name in response.headers}
    assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= sent
    assert {name for name in sent if name.startswith("ratelimit")} <= exposed
    assert {"etag", "location", "retry-after", "link"} <= exposed


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_the_token_endpoint_varies_by_origin(
    user: AbstractUser, client_for: Callable[[Any], APIClient], method: str
) -> None:
    response = getattr(client_for(user), method)("/api/v1/auth/token/")

    assert "origin" in _header_set(response, "Vary")


@pytest.mark.django_db
def test_a_new_tokens_answer_is_never_stored(django_user_model: Any) -> None:
    django_user_model.objects.create_user("ana", password="correct horse battery")

    response = APIClient().post("/api/v1/auth/token/",
                                {"username": "ana", "password": "correct horse battery"},
                                format="json")

    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    assert "origin" in _header_set(response, "Vary")


def test_the_schema_states_what_the_server_refuses() -> None:
    components = openapi_document()["components"]["schemas"]
    password = components["Password"]["properties"]
    fields = components["DraftFields"]
    name = fields["properties"]["seats"]["items"]["pattern"]

    for key in ("username", "password"):
        assert re.search(password[key]["pattern"], "pass\x00word") is None
    for refused in ("An\x07", "An\u202e", "An\x9b"):
        assert re.search(name, refused) is None
    assert re.search(name, "Nguyễn Thị Bình") is not None
    assert "`seats`" in fields["properties"]["dealer"]["description"]
    assert fields["additionalProperties"] is False
    assert components["DraftTags"]["additionalProperties"] is False
