"""Every throttle scope answers 429 with Retry-After (header and body agreeing) once its rate
is spent: anonymous and signed-in reads, uploads and exports, and the unsafe methods.

tests/api/test_throttling.py covers the counting (per client, per scope, defaults); this
table checks the answer's shape for each scope and method that has a rate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.web.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

Send = Callable[[APIClient, Archive], Any]

CASES: list[tuple[str, str, bool, Send]] = [
    ("anon", "read", False, lambda c, a: c.get("/api/v1/games/")),
    ("user", "read", True, lambda c, a: c.get(f"/api/v1/games/{a.four.pk}/")),
    ("upload", "upload", True,
     lambda c, a: c.post("/api/v1/uploads/", "no record", content_type="text/x-fcn")),
    ("export", "export", False, lambda c, a: c.get("/api/v1/games/export/?max=1")),
    ("user", "token", True, lambda c, a: c.post("/api/v1/auth/token/")),
    ("user", "delete", True, lambda c, a: c.delete("/api/v1/games/999999999/")),
]


@pytest.mark.parametrize(("scope", "what", "signed_in", "send"), CASES,
                         ids=[f"{scope}-{what}" for scope, what, _, _ in CASES])
def test_it_answers_429_with_retry_after_in_every_scope(
    archive: Archive, user: User, settings: Any, scope: str, what: str, signed_in: bool,
    send: Send,
) -> None:
    cache.clear()
    rates = {"anon": "1000/hour", "user": "1000/hour", "upload": "1000/hour",
             "export": "1000/hour", scope: "2/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client = APIClient()
    if signed_in:
        # Not a token: POST /auth/token/ replaces the token a client would be using.
        client.force_authenticate(user)

    first = [send(client, archive).status_code for _ in range(2)]
    limited = send(client, archive)

    assert 429 not in first and all(status < 500 for status in first), first
    assert limited.status_code == 429
    wait = int(limited["Retry-After"])
    assert 0 < wait <= 60
    assert limited.json()["error"] == {
        "status": 429, "code": "throttled", "retry_after": wait,
        "message": f"Request was throttled. Expected available in {wait} seconds.",
    }
