"""Rate limits: 429 with Retry-After and the error body, per client and per scope."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import round_text


def rates(settings: Any, **scopes: str) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current,
        "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **scopes},
    }


@pytest.mark.django_db
def test_it_answers_429_with_retry_after_past_the_anonymous_rate(
    api: APIClient, settings: Any
) -> None:
    rates(settings, anon="3/minute")

    statuses = [api.get("/api/v1/games/").status_code for _ in range(4)]
    limited = api.get("/api/v1/players/")

    assert statuses == [200, 200, 200, 429]
    assert limited.status_code == 429
    wait = int(limited["Retry-After"])
    assert 0 < wait <= 60
    error = limited.json()["error"]
    assert error["code"] == "throttled" and error["retry_after"] == wait


@pytest.mark.django_db
def test_it_counts_each_user_apart_from_anonymous_clients(
    api: APIClient, client_for: Any, user: Any, other_user: Any, settings: Any
) -> None:
    rates(settings, anon="1/minute", user="2/minute")
    signed_in, other = client_for(user), client_for(other_user)

    assert api.get("/api/v1/games/").status_code == 200
    assert api.get("/api/v1/games/").status_code == 429
    assert [signed_in.get("/api/v1/games/").status_code for _ in range(3)] == [200, 200, 429]
    assert other.get("/api/v1/games/").status_code == 200


@pytest.mark.django_db
def test_it_limits_uploads_in_their_own_scope(
    client_for: Any, user: Any, settings: Any
) -> None:
    rates(settings, upload="2/hour", user="100/minute")
    client = client_for(user)
    texts = [round_text(seed, "classic", 2) for seed in (1, 2, 3)]

    statuses = [client.post("/api/v1/uploads/", data=t, content_type="text/x-fcn").status_code
                for t in texts]

    assert statuses == [201, 201, 429]
    assert client.get("/api/v1/games/").status_code == 200  # reads are not uploads


@pytest.mark.django_db
def test_it_falls_back_to_a_default_rate_for_an_unconfigured_scope(
    api: APIClient, settings: Any
) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current,
        "DEFAULT_THROTTLE_RATES": {k: v for k, v in current["DEFAULT_THROTTLE_RATES"].items()
                                   if k != "export"},
    }

    assert api.get("/api/v1/games/export/").status_code == 200


@pytest.mark.django_db
def test_it_counts_an_anonymous_client_under_the_anonymous_rates_alone(
    api: APIClient, settings: Any
) -> None:
    # The user rate is the tighter one here: an anonymous client is not held to it.
    rates(settings, anon="3/minute", user="1/minute")

    answers = [api.get("/api/v1/games/") for _ in range(4)]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0]["RateLimit-Policy"] == "3;w=60"
