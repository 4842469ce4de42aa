"""A JSON body nested too deeply (`[` a hundred thousand times) is a 400 that says so, at every
endpoint that reads JSON, never a 500 (Python's JSON reader stops at its recursion limit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from records.models import Game
from tests.api.conftest import round_text

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]

BODIES = {
    "open-brackets": "[" * 100_000,
    "balanced-brackets": "[" * 100_000 + "]" * 100_000,
    "objects": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "in-a-field": '{"text": ' + "[" * 100_000 + "]" * 100_000 + "}",
}
# Every API address that takes a JSON body: (method, path, who may call it).
ENDPOINTS = [
    ("post", "/api/v1/uploads/", "user"),
    ("post", "/api/v1/auth/token/", "anonymous"),
    ("post", "/api/v1/jobs/revalidate/", "staff"),
]


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
@pytest.mark.parametrize("method,path,who", ENDPOINTS, ids=[e[1] for e in ENDPOINTS])
def test_it_refuses_json_nested_too_deeply_with_a_400(
    client_for: Clients, api: APIClient, user: AbstractUser, staff: AbstractUser,
    method: str, path: str, who: str, body: str,
) -> None:
    client = {"user": client_for(user), "staff": client_for(staff), "anonymous": api}[who]

    response = getattr(client, method)(path, data=body, content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "parse_error"
    assert "nested" in error["message"] and "deep" in error["message"]
    assert "Recursion" not in error["message"]


def test_it_still_reads_json_nested_as_deep_as_a_client_would(
    client_for: Clients, user: AbstractUser
) -> None:
    response = client_for(user).post(
        "/api/v1/uploads/", {"text": round_text(3), "extra": [[[[[[[[1]]]]]]]]}, format="json")

    # Read whole (no parse_error): then refused for its unknown field, as any upload would be.
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], list(error["fields"])) == ("invalid", ["extra"])
    assert Game.objects.count() == 0
