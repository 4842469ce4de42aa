"""The rate limits' counters (api.throttling over the cache's count_hits): a fixed window per
client and rate, counted with one atomic operation per request, holding the same limits in every
store the site may count in: the site's database cache (SQLite or PostgreSQL, whichever the run
uses), Redis, and the per-process cache of the tests."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api import throttling
from tests.conftest import REDIS_TEST_URL, SHARED_CACHES, clear_test_cache, redis_test_cache

# One test process at a time on the Redis test database (`make test` runs several); other
# runs on the machine share it too, so the counters live under this process's key prefix.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("redis")]

STORES = {
    "database": lambda: SHARED_CACHES,
    "redis": lambda: {"default": redis_test_cache()},
    "locmem": lambda: {"default": {"BACKEND": "tests.local_cache.CountingLocMemCache"}},
}


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping())
    except redis.exceptions.ConnectionError:
        return False


@pytest.fixture(params=list(STORES))
def store(request: pytest.FixtureRequest, settings: Any) -> Iterator[str]:
    if request.param == "redis" and not _redis_answers():
        pytest.skip(f"no Redis at {REDIS_TEST_URL}")
    settings.CACHES = STORES[request.param]()
    clear_test_cache()
    yield request.param
    clear_test_cache()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The throttles' clock (Redis times its windows by its own: tests that move this clock
    skip Redis)."""
    now = [time.time()]
    monkeypatch.setattr(throttling.ApiThrottle, "timer", lambda self: now[0])
    return now


def rates(settings: Any, **scopes: str) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current,
        "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **scopes},
    }


def test_it_refuses_the_request_past_the_limit_with_429_and_retry_after(
    api: APIClient, settings: Any, store: str
) -> None:
    rates(settings, anon="4/minute,100/hour")

    answers = [api.get("/api/v1/games/") for _ in range(6)]

    assert [a.status_code for a in answers] == [200, 200, 200, 200, 429, 429]
    assert [a["RateLimit-Remaining"] for a in answers] == ["3", "2", "1", "0", "0", "0"]
    wait = int(answers[4]["Retry-After"])
    assert 0 < wait <= 60
    assert answers[4].json()["error"]["retry_after"] == wait


def test_it_counts_each_client_address_apart(api: APIClient, settings: Any, store: str) -> None:
    rates(settings, anon="2/minute")
    settings.NUM_PROXIES = 1

    def get(address: str) -> int:
        return api.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=address).status_code

    assert [get("203.0.113.1") for _ in range(3)] == [200, 200, 429]
    assert [get("203.0.113.2") for _ in range(3)] == [200, 200, 429]


def test_it_holds_users_to_the_user_rate_and_anonymous_clients_to_theirs(
    api: APIClient, client_for: Any, user: Any, other_user: Any, settings: Any, store: str
) -> None:
    rates(settings, anon="1/minute", user="3/minute")
    signed_in, other = client_for(user), client_for(other_user)

    assert [api.get("/api/v1/games/").status_code for _ in range(2)] == [200, 429]
    assert [signed_in.get("/api/v1/games/").status_code for _ in range(4)] == [200] * 3 + [429]
    assert other.get("/api/v1/games/").status_code == 200
    assert signed_in.get("/api/v1/games/")["RateLimit-Limit"] == "3"


def test_a_refused_request_spends_none_of_the_allowance(
    api: APIClient, settings: Any, store: str
) -> None:
    rates(settings, anon="2/minute,5/hour")

    statuses = [api.get("/api/v1/games/").status_code for _ in range(10)]

    assert statuses == [200, 200] + [429] * 8
    # Two of the hour's five spent, by the two requests that passed.
    assert api.get("/api/v1/games/")["RateLimit-Policy"] == "2;w=60, 5;w=3600"
    assert _hour_remaining(api) == "3"


def _hour_remaining(api: APIClient) -> str:
    states = api.get("/api/v1/games/").wsgi_request.rate_limits
    return str(next(s.remaining for s in states if s.window == 3600))


def test_the_count_starts_again_when_the_window_ends(
    api: APIClient, settings: Any, store: str, clock: list[float]
) -> None:
    if store == "redis":
        pytest.skip("Redis times the windows by its own clock (the next test)")
    rates(settings, anon="2/minute,100/hour")

    first = [api.get("/api/v1/games/").status_code for _ in range(3)]
    clock[0] += 30
    later = api.get("/api/v1/games/")
    clock[0] += 31
    next_window = [api.get("/api/v1/games/").status_code for _ in range(3)]

    assert first == [200, 200, 429]
    # The window opened with the first request: half a minute on, it has half a minute left.
    assert later.status_code == 429 and 29 <= int(later["Retry-After"]) <= 31
    assert next_window == [200, 200, 429]


def test_redis_s_counters_end_with_their_window(
    api: APIClient, settings: Any, store: str
) -> None:
    if store != "redis":
        pytest.skip("the other stores follow the throttles' clock (the test before)")
    rates(settings, anon="2/second")

    first = [api.get("/api/v1/games/").status_code for _ in range(3)]
    time.sleep(1.1)
    second = [api.get("/api/v1/games/").status_code for _ in range(3)]

    assert first == second == [200, 200, 429]


def test_it_counts_a_request_in_one_statement_on_the_database(
    api: APIClient, settings: Any, store: str
) -> None:
    if store != "database":
        pytest.skip("the database's statements")
    rates(settings, anon="60/minute,1000/hour")
    api.get("/api/v1/games/")

    with CaptureQueriesContext(connection) as queries:
        api.get("/api/v1/games/")
    counting = [q["sql"] for q in queries.captured_queries if "fourcolor_cache" in q["sql"]]

    # Both rates' counters, in one statement; nothing read before it.
    assert len(counting) == 1 and "RETURNING" in counting[0]


def test_it_counts_a_request_of_several_at_its_cost(settings: Any, store: str) -> None:
    # A match's rounds asked for at once: each round is one of the hour's analyses.
    from common.rates import RateLimited, limit

    settings.ANALYSIS_REQUESTS_PER_HOUR = 5
    limit("analysis", "someone", cost=3)
    with pytest.raises(RateLimited) as over:
        limit("analysis", "someone", cost=3)  # 6 > 5: refused, and taken back
    assert over.value.retry_after is not None and 0 < over.value.retry_after <= 3600
    limit("analysis", "someone", cost=2)  # 5: the refused three were not spent
    with pytest.raises(RateLimited) as never:
        limit("analysis", "another", cost=6)  # more than a whole hour allows
    assert never.value.retry_after is None
