"""The one rate limiter of every write a visitor can repeat, web and API alike.

Each scope has one or more rates, `"20/minute,120/hour"` (a burst rate and a sustained one); a
request passes only when it is within every rate of its scope. Each rate is a counter per
client in a fixed window (the cache's `count_hits`) that opens with the client's first request
and lasts the rate's period, then counts again from nothing: a burst spends the minute's
allowance and waits under a minute; only a client that keeps going meets the hourly rate. A
request costs one atomic increment of the cache for all its rates; a refused one is taken back
(a second), so refusals spend no allowance. Across the change of windows a client may send up
to twice a rate, never more.

Rates come from `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (API_THROTTLE_ANON, _USER, _UPLOAD,
_EXPORT, _DRAFTS); a scope missing there falls back to DEFAULT_RATES, and `analysis` to
ANALYSIS_REQUESTS_PER_HOUR an hour. The scopes of writes:

- `upload`: the upload page and the API upload, one allowance for both (per user);
- `check`: the check page (per user, or per address for visitors without an account);
- `drafts`: the record editor's drafts, started on the page or changed through the API;
- `analysis`: analyses asked for (a match's rounds count one each), staff excepted; counted
  only when the request queues work (jobs.analysis), not when it finds the analysis stored;
- `anon`, `user`, `export`: the API's reads (api.throttling adapts this to DRF's throttles).

Counters live in the default cache (Redis with REDIS_URL, otherwise the database), so every
worker and machine counts together; clients are told apart by `common.proxies.client_address`
(NUM_PROXIES). Sign-in lockout is django-axes', not this.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.settings import api_settings

from common.proxies import client_address

# The defaults of the settings' rates (API_THROTTLE_ANON, ...: every scope but `check`).
DEFAULT_RATES = {
    "anon": "60/minute,1000/hour",
    "user": "300/minute,10000/hour",
    "upload": "20/minute,120/hour",
    "check": "30/minute,300/hour",
    "export": "10/minute,60/hour",
    # The record editor's changes (an event a tap): a round at a table, not a script.
    "drafts": "120/minute,3000/hour",
}
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class RateState:
    """Where a client stands in one rate, after this request."""

    limit: int
    window: int  # seconds
    remaining: int
    reset: int  # seconds until the window ends and its count starts again
    wait: float | None  # seconds until a request would pass (None: it passes now)


class RateLimited(Exception):
    """Over a rate of `scope`: `retry_after` seconds until the request would pass, or None
    when it never can (it asks for `wanted`, more than the `limit` of a whole window)."""

    def __init__(self, scope: str, limit: int, retry_after: int | None,
                 wanted: int = 1) -> None:
        wait = ("it asks for more than a whole window allows" if retry_after is None
                else f"try again in {retry_after} seconds")
        super().__init__(f"Too many requests ({scope}): at most {limit}; {wait}.")
        self.scope, self.limit, self.retry_after, self.wanted = scope, limit, retry_after, wanted


def configured_rate(scope: str) -> str | None:
    # Read at each request, not at import: settings overridden in tests (and DRF's reload on
    # setting_changed) take effect.
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    if scope in rates:
        return str(rates[scope])
    if scope == "analysis":
        return f"{int(settings.ANALYSIS_REQUESTS_PER_HOUR)}/hour"
    return DEFAULT_RATES.get(scope)


def parse_rates(text: str | None) -> list[tuple[int, int]]:
    """`"20/minute,120/hour"` -> [(20, 60), (120, 3600)]."""
    if not text:
        return []
    rates = []
    for part in text.split(","):
        number, _, period = part.strip().partition("/")
        rates.append((int(number), _PERIODS[period.strip()[0]]))
    return rates


def client_key(scope: str, request: Any) -> str:
    """Whom a request counts for in `scope`: its user, else its address (the key DRF's
    scoped throttle uses, so that a page and the API share a counter)."""
    user = getattr(request, "user", None)
    ident = user.pk if user is not None and user.is_authenticated else client_address(request)
    return f"throttle_{scope}_{ident}"


def count(scope: str, key: str, *, cost: int = 1,
          now: float | None = None) -> tuple[bool, list[RateState]]:
    """Count a request of `cost` for `key` in every rate of `scope`: whether it passes, and
    where the client stands in each rate. A refused request is taken back."""
    rates = parse_rates(configured_rate(scope))
    if not rates:
        return True, []
    now = time.time() if now is None else now
    if any(cost > limit for limit, _ in rates):
        return False, [RateState(limit, window, limit, window, None) for limit, window in rates]
    # One counter per window length: two rates of one period share it.
    counters = {window: f"rate:{key}:{window}" for _, window in rates}
    hits = cache.count_hits([(name, w) for w, name in counters.items()], now, cost)
    counted = dict(zip(counters, hits, strict=True))
    allowed = all(counted[window][0] <= limit for limit, window in rates)
    if not allowed:
        cache.uncount_hits(list(counters.values()), now, cost)
    return allowed, [_state(limit, window, *counted[window], allowed, cost)
                     for limit, window in rates]


def _state(limit: int, window: int, hits: int, left: float, allowed: bool,
           cost: int) -> RateState:
    if not allowed:
        hits -= cost  # taken back: the requests the window holds are the ones allowed
    wait: float | None = None
    if not allowed and hits + cost > limit:
        wait = left  # the window's count starts again when it ends
    # `left` rounded up: a client that waits as long as told finds the new window.
    return RateState(limit, window, max(limit - hits, 0), math.ceil(left), wait)


def limit(scope: str, key: str, *, cost: int = 1) -> list[RateState]:
    """Count a request as `count` does; raise RateLimited when it does not pass."""
    allowed, states = count(scope, key, cost=cost)
    if allowed:
        return states
    over = [state for state in states if state.wait is not None]
    if not over:  # more than a whole window allows: no wait makes it pass
        raise RateLimited(scope, min(state.limit for state in states), None, cost)
    worst = max(over, key=lambda state: state.wait or 0)
    raise RateLimited(scope, worst.limit, math.ceil(worst.wait or 0), cost)


def remember(request: Any, states: list[RateState]) -> None:
    """Keep every rate's state on the request, for the response's headers."""
    django_request = getattr(request, "_request", request)
    seen: list[RateState] = getattr(django_request, "rate_limits", [])
    django_request.rate_limits = seen + states


def rate_limit_headers(request: Any) -> dict[str, str]:
    """The RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers) for a request the
    limiter counted, for the rate closest to its limit (none otherwise)."""
    states: list[RateState] = getattr(getattr(request, "_request", request), "rate_limits", [])
    if not states:
        return {}
    # The rate closest to its limit (the fewest left; of those, the longest to reset).
    tightest = min(states, key=lambda s: (s.remaining, -s.reset))
    policy = ", ".join(dict.fromkeys(f"{s.limit};w={s.window}" for s in states))
    return {
        "RateLimit-Limit": str(tightest.limit),
        "RateLimit-Remaining": str(tightest.remaining),
        "RateLimit-Reset": str(tightest.reset),
        "RateLimit-Policy": policy,
    }
