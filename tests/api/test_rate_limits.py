"""Rate limits that mean what they say: counted in a store every worker shares (the database
without Redis), per client address as NUM_PROXIES allows (a made-up X-Forwarded-For buys
nothing), a burst rate and a sustained rate (a burst waits a minute, not an hour), and the
RateLimit-* headers on every throttled answer so that clients can pace themselves."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.cache.backends.db import DatabaseCache
from django.utils.module_loading import import_string
from django.db import connection
from rest_framework.test import APIClient

from api import throttling
from tests.conftest import SHARED_CACHES
from config.env import env_rates
from django.core.exceptions import ImproperlyConfigured

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _the_site_s_cache(settings: Any) -> None:
    """The cache the site runs with (the database, here), not the tests' usual one."""
    settings.CACHES = SHARED_CACHES


def rates(settings: Any, **scopes: str) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current,
        "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **scopes},
    }


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1_000_000.0]
    monkeypatch.setattr(throttling.ApiThrottle, "timer", lambda self: now[0])
    return now


def test_it_counts_in_the_database_without_redis() -> None:
    assert not django_settings.REDIS_URL
    backend = import_string(django_settings.CACHES["default"]["BACKEND"])
    # Django's database cache (common/cache.py's writes each entry in one statement).
    assert issubclass(backend, DatabaseCache)


def test_its_counters_are_rows_every_worker_reads(api: APIClient) -> None:
    cache.clear()
    api.get("/api/v1/games/", REMOTE_ADDR="10.3.3.3")
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM fourcolor_cache")
        keys = [row[0] for row in cursor.fetchall()]
    assert any("10.3.3.3" in key for key in keys)


def test_it_sends_the_ratelimit_headers(api: APIClient, settings: Any, clock: list[float]) -> None:
    rates(settings, anon="5/minute,100/hour")
    cache.clear()

    first = api.get("/api/v1/games/")
    clock[0] += 10
    second = api.get("/api/v1/games/")

    assert first["RateLimit-Limit"] == "5" and first["RateLimit-Remaining"] == "4"
    assert first["RateLimit-Reset"] == "60"
    assert first["RateLimit-Policy"].startswith("5;w=60, 100;w=3600")
    # The window opened with the first request: it ends (full again) a minute after it.
    assert (second["RateLimit-Remaining"], second["RateLimit-Reset"]) == ("3", "50")


def test_a_burst_waits_for_the_minute_not_the_hour(
    api: APIClient, settings: Any, clock: list[float]
) -> None:
    rates(settings, anon="3/minute,8/hour")
    cache.clear()

    assert [api.get("/api/v1/games/").status_code for _ in range(3)] == [200] * 3
    burst = api.get("/api/v1/games/")
    assert burst.status_code == 429
    assert 0 < int(burst["Retry-After"]) <= 60
    assert burst["RateLimit-Remaining"] == "0" and burst["RateLimit-Limit"] == "3"

    clock[0] += 61
    assert [api.get("/api/v1/games/").status_code for _ in range(3)] == [200] * 3
    clock[0] += 61
    assert [api.get("/api/v1/games/").status_code for _ in range(3)] == [200, 200, 429]
    # Eight in three minutes: now the hourly rate is the one that holds, for about an hour.
    hourly = api.get("/api/v1/games/")
    assert hourly.status_code == 429
    assert 3000 < int(hourly["Retry-After"]) <= 3600
    assert (hourly["RateLimit-Limit"], hourly["RateLimit-Remaining"]) == ("8", "0")


def test_a_made_up_forwarded_address_buys_nothing(api: APIClient, settings: Any) -> None:
    rates(settings, export="3/minute,60/hour", anon="1000/minute")
    settings.NUM_PROXIES = 0
    cache.clear()

    statuses = [
        api.get("/api/v1/games/export/?max=1", REMOTE_ADDR="10.0.0.9",
                HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
        for n in range(10)
    ]

    assert statuses == [200] * 3 + [429] * 7


def test_behind_a_proxy_it_counts_each_client_the_proxy_saw(
    api: APIClient, settings: Any
) -> None:
    rates(settings, export="2/minute,60/hour", anon="1000/minute")
    settings.NUM_PROXIES = 1
    cache.clear()

    def export(forwarded: str) -> int:
        return api.get("/api/v1/games/export/?max=1", REMOTE_ADDR="10.0.0.1",
                       HTTP_X_FORWARDED_FOR=forwarded).status_code

    # The client writes anything on the left; the proxy appends what it saw on the right.
    assert [export(f"forged-{n}, 203.0.113.5") for n in range(3)] == [200, 200, 429]
    assert export("203.0.113.6") == 200


@pytest.mark.parametrize("value", ["60/hour", "20/minute,120/hour", " 5/s , 10/day "])
def test_rates_are_read_from_the_environment(value: str) -> None:
    assert env_rates("X", "1/hour", environ={"X": value}) == value.replace(" ", "")


@pytest.mark.parametrize("value", ["60", "ten/hour", "60/fortnight", "20/minute,", "60/hour;"])
def test_a_bad_rate_stops_the_start(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="X="):
        env_rates("X", "1/hour", environ={"X": value})
