"""A JSON body that is not an object (`1.5`, `[]`, `"text"`, `null`, `true`) is a 400
`parse_error` that names its kind, at every operation the schema says takes JSON, never a 500
(the views read a body's fields by name: `"fcn" in 1.5` was a TypeError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from records.models import Game
from tests.api.conftest import round_text, store
from tests.api.openapi import openapi_document

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]

BODIES = {"number": "1.5", "array": "[]", "string": '"fcn"', "null": "null", "true": "true"}
KINDS = {"number": "a number", "array": "an array", "string": "a string", "null": "null",
         "true": "true"}


def json_operations() -> list[tuple[str, str]]:
    """(method, path template) of every operation whose request body may be JSON."""
    return sorted(
        (method, path)
        for path, operations in openapi_document()["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    )


OPERATIONS = json_operations()


def test_it_finds_the_operations_that_take_json() -> None:
    paths = {path for _, path in OPERATIONS}

    assert {"/api/v1/drafts/", "/api/v1/drafts/{id}/events/", "/api/v1/auth/tokens/",
            "/api/v1/games/{id}/analysis/"} <= paths


@pytest.mark.parametrize("body", BODIES, ids=BODIES)
@pytest.mark.parametrize("method,path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_it_refuses_a_body_that_is_not_an_object(
    client_for: Clients, staff: AbstractUser, method: str, path: str, body: str
) -> None:
    client = client_for(staff)  # staff may call every operation
    game = store([round_text(5)])[0]
    draft = client.post("/api/v1/drafts/", {"ruleset": "classic", "seats": ["An", "Bình"],
                                             "dealer": 1}, format="json").json()["id"]
    url = path.replace("{id}", str(draft if "/drafts/" in path else game)).replace("{ply}", "1")

    response = getattr(client, method)(url, data=BODIES[body], content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "parse_error"
    assert f"must be a JSON object, not {KINDS[body]}" in error["message"]
    assert Game.objects.count() == 1
