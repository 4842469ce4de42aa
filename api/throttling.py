"""Rate limits: per anonymous client, per user, and per scope for the expensive operations.

Each scope has one or more rates, `"20/minute,120/hour"`: a burst rate and a sustained one.
A request passes only when it is within every rate of every throttle of its view. Each rate is
a counter per client in a fixed window (common.cache.count_hits): the window opens with the
client's first request and lasts the rate's period (a minute, an hour, ...); the requests it
allows are counted, and when it ends the count starts again. So a burst spends the minute's
allowance and waits under a minute, instead of the hour's allowance and an hour; only a client
that keeps going meets the hourly rate. A request costs one atomic increment of the cache (one
statement on the database, one script on Redis) for all its rates; a refused request is taken
back (a second one), so refusals spend no allowance. (Before, each client's counter was DRF's
sliding window: a pickled list of its request times, read and written back whole by every
request. A fixed window lets a client that waits for a window's last moment send up to twice
a rate across the change of windows, never more.) Rates come from
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (environment variables API_THROTTLE_ANON, _USER,
_UPLOAD, _EXPORT, _DRAFTS); a scope missing there falls back to DEFAULT_RATES.

An anonymous client is counted under the `anon` rates, a signed-in user under the `user` ones
(one counter each, not both).

Clients are told where they stand on every throttled answer, in the IETF draft's headers
(draft-ietf-httpapi-ratelimit-headers) for the rate closest to its limit:

    RateLimit-Limit: 20            requests allowed in that rate's window
    RateLimit-Remaining: 17        left in it
    RateLimit-Reset: 42            seconds until the window ends (and its count with it)
    RateLimit-Policy: 20;w=60, 120;w=3600     every rate that applies

Over a limit the answer is 429 with `Retry-After` (seconds until the request would pass) and
the error body (api.exceptions). Counters live in the default cache: Redis with REDIS_URL,
otherwise the database (CACHES in config/settings.py), so every gunicorn worker and machine
counts together. Clients are told apart by `common.proxies.client_address` (NUM_PROXIES).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

from common.cache import count_hits, uncount_hits
from common.proxies import client_address

DEFAULT_RATES = {
    "anon": "60/minute,1000/hour",
    "user": "300/minute,10000/hour",
    "upload": "20/minute,120/hour",
    "export": "10/minute,60/hour",
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


def configured_rate(scope: str) -> str | None:
    # Read at each request, not at import: settings overridden in tests (and DRF's reload on
    # setting_changed) take effect.
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    return rates.get(scope, DEFAULT_RATES.get(scope))


def parse_rates(text: str | None) -> list[tuple[int, int]]:
    """`"20/minute,120/hour"` -> [(20, 60), (120, 3600)]."""
    if not text:
        return []
    rates = []
    for part in text.split(","):
        number, _, period = part.strip().partition("/")
        rates.append((int(number), _PERIODS[period.strip()[0]]))
    return rates


class MultiRateThrottle:
    """The counting shared by the three throttles below (mixed in before DRF's class, whose
    `get_cache_key` says whom a request counts for)."""

    scope: str | None
    cache: Any
    key: str | None
    now: float

    def __init__(self) -> None:  # DRF's parses one rate; these are parsed per request
        pass

    def timer(self) -> float:
        return time.time()

    def get_rate(self) -> str | None:
        return configured_rate(str(self.scope))

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        rates = parse_rates(self.get_rate())
        self.states: list[RateState] = []
        if not rates:
            return True
        self.key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if self.key is None:
            return True
        self.now = self.timer()
        # One counter per window length: two rates of one period share it. Not DRF's key
        # (`throttle_<scope>_<ident>`): rows of its pickled lists may outlive a deploy.
        counters = {window: f"rate:{self.key}:{window}" for _, window in rates}
        hits = count_hits(self.cache, [(name, w) for w, name in counters.items()], self.now)
        counted = dict(zip(counters, hits, strict=True))
        allowed = all(counted[window][0] <= limit for limit, window in rates)
        if not allowed:
            uncount_hits(self.cache, list(counters.values()), self.now)
        self.states = [self._state(limit, window, *counted[window], allowed)
                       for limit, window in rates]
        _remember(request, self.states)
        return allowed

    @staticmethod
    def _state(limit: int, window: int, count: int, left: float, allowed: bool) -> RateState:
        if not allowed:
            count -= 1  # taken back: the requests the window holds are the ones allowed
        wait: float | None = None
        if not allowed and count >= limit:
            wait = left  # the window's count starts again when it ends
        # `left` rounded up: a client that waits as long as told finds the new window.
        return RateState(limit, window, max(limit - count, 0), math.ceil(left), wait)

    def wait(self) -> float | None:
        waits = [state.wait for state in getattr(self, "states", []) if state.wait is not None]
        return max(waits) if waits else None


def _remember(request: Any, states: list[RateState]) -> None:
    """Keep every rate's state on the request, for the response's headers."""
    django_request = getattr(request, "_request", request)
    seen: list[RateState] = getattr(django_request, "rate_limits", [])
    django_request.rate_limits = seen + states


def rate_limit_headers(request: Any) -> dict[str, str]:
    """The RateLimit-* headers for a request the throttles looked at (none otherwise)."""
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


class AnonThrottle(MultiRateThrottle, AnonRateThrottle):
    pass


class UserThrottle(MultiRateThrottle, UserRateThrottle):
    """Counts a signed-in user's requests. DRF's counts an anonymous request too, under its
    address, a second time beside AnonThrottle's count: each anonymous API request read and
    wrote two counters in the cache (the database's, without Redis). Anonymous clients are
    AnonThrottle's alone (every view that has this throttle has that one)."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        key: str | None = super().get_cache_key(request, view)
        return key


class ScopeThrottle(MultiRateThrottle, ScopedRateThrottle):
    """Counts a view's requests under its `throttle_scope` (per user, or per address)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        # DRF's takes the scope from the view here; without a scope the view is not limited.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        return super().allow_request(request, view)


DEFAULT_THROTTLES = [AnonThrottle, UserThrottle]
SCOPED_THROTTLES = [AnonThrottle, UserThrottle, ScopeThrottle]
