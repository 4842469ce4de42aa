"""The schema states the limits the server enforces: a request at each
stated limit is answered, one past it refused with the JSON error body; the schema's own
upload example is accepted; every operation documents the query string's 414. schemathesis
(scripts/schemathesis_run.py) checks the same across every operation, with no exemption."""

from __future__ import annotations

import re
from typing import Any, Callable
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from records.models import Game

from .conftest import Archive
from .openapi import openapi_document

pytestmark = pytest.mark.django_db


def _parameter(path: str, method: str, name: str) -> dict[str, Any]:
    operation = openapi_document()["paths"][path][method]
    (found,) = [p for p in operation["parameters"] if p["name"] == name]
    schema: dict[str, Any] = found["schema"]
    return schema


def _refused(response: Any) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["status"] == 400


def test_it_answers_an_export_of_the_stated_maximum_and_refuses_one_more(
    archive: Archive, settings: Any
) -> None:
    settings.API_EXPORT_MAX_GAMES = 3
    maximum = _parameter("/api/v1/games/export/", "get", "max")["maximum"]
    assert maximum == 3  # API_EXPORT_MAX_GAMES, as the server reads it

    answer = APIClient().get(f"/api/v1/games/export/?max={maximum}")
    assert answer.status_code == 200
    assert len(answer.getvalue().splitlines()) == 3
    _refused(APIClient().get(f"/api/v1/games/export/?max={maximum + 1}"))


def test_it_takes_a_reason_of_the_stated_length_even_in_four_byte_characters(
    archive: Archive, user: AbstractUser, client_for: Callable[[Any], APIClient]
) -> None:
    longest = _parameter("/api/v1/games/{id}/", "delete", "reason")["maxLength"]
    first, second = archive.match[:2]
    client = client_for(user)

    # 12 bytes each once percent-encoded: still under the query string's limit, never a 414.
    assert client.delete(f"/api/v1/games/{first}/?reason={'𝄞' * longest}").status_code == 204
    _refused(client.delete(f"/api/v1/games/{second}/?reason={'a' * (longest + 1)}"))
    assert Game.objects.filter(pk=second).exists()


# What each reason is, by the schema's own words: the server takes it or refuses it (400) as
# the schema's pattern and length say (a NUL, which DRF refuses in any text, was allowed by
# the schema and refused by the server).
REASONS = {
    "empty": "",
    "spaces": "   ",
    "words": "a duplicate of game 12",
    "line break": "first\nsecond",
    "nul": "a\x00b",
    "nul alone": "\x00",
    "longest": "r" * 300,
    "one too long": "r" * 301,
}


@pytest.mark.parametrize("reason", REASONS.values(), ids=REASONS.keys())
def test_it_answers_a_reason_as_the_schema_says(
    archive: Archive, user: AbstractUser, client_for: Callable[[Any], APIClient], reason: str
) -> None:
    schema = _parameter("/api/v1/games/{id}/", "delete", "reason")
    allowed = len(reason) <= schema["maxLength"] and re.search(schema.get("pattern", ""), reason)
    game = archive.match[0]

    response = client_for(user).delete(f"/api/v1/games/{game}/?{urlencode({'reason': reason})}")

    if allowed:
        assert response.status_code == 204, response.content[:300]
        assert not Game.objects.filter(pk=game).exists()
    else:
        _refused(response)
        assert Game.objects.filter(pk=game).exists()


def test_it_accepts_the_schemas_own_upload_example(
    user: AbstractUser, client_for: Callable[[Any], APIClient]
) -> None:
    body = openapi_document()["paths"]["/api/v1/uploads/"]["post"]["requestBody"]
    assert body["required"] is True
    (example,) = body["content"]["multipart/form-data"]["examples"].values()

    response = client_for(user).post("/api/v1/uploads/", data=example["value"])

    assert response.status_code == 201, response.content[:500]
    assert response.json()["import_report"]["created"] == 1


def test_it_states_what_an_upload_body_must_be() -> None:
    content = openapi_document()["paths"]["/api/v1/uploads/"]["post"]["requestBody"]["content"]

    # The form only, which client generators handle (tests/api/test_generated_client.py);
    # FCN text and JSON are taken too, as the description says (tests/api/test_upload.py).
    assert set(content) == {"multipart/form-data"}
    form = content["multipart/form-data"]["schema"]
    assert form["additionalProperties"] is False
    assert form["minProperties"] == 1  # a file or a text, not both: said in words
    assert set(form["properties"]) == {"file", "text", "ruleset", "switches"}
    assert form["properties"]["ruleset"]["enum"] == ["classic", "bga"]


@pytest.mark.parametrize(("value", "matches"), [
    ("", True), ("steal_generals=never threshold=8", True), (" lucky_draw=off\tbase=100 ", True),
    ("threshold=101", False), ("threshold=08", False), ("redeal=yes", False), ("zz top", False),
    ("redeal=onbase=3", False),
])
def test_the_switches_pattern_reads_the_tag_as_the_engine_does(value: str, matches: bool) -> None:
    from fourcolor.rulesets import RulesetError, parse_switches

    content = openapi_document()["paths"]["/api/v1/uploads/"]["post"]["requestBody"]["content"]
    pattern = content["multipart/form-data"]["schema"]["properties"]["switches"]["pattern"]
    assert bool(re.search(pattern, value)) is matches
    try:
        parse_switches(value)
    except RulesetError:
        assert not matches
    else:
        assert matches


def test_every_operation_documents_the_query_strings_limit() -> None:
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            answer = operation["responses"]["414"]
            assert "QUERY_STRING_MAX_BYTES" in answer["description"], (method, path)
            assert "application/json" in answer["content"], (method, path)
