"""The API's rate limits: DRF's throttles over the site's one limiter (common.rates).

Per anonymous client (`anon`), per user (`user`), and per scope for the expensive operations
(`throttle_scope`: `upload`, `export`, `drafts`), counted as common.rates counts every write a
visitor can repeat; the upload page and the API upload share the `upload` counter.

Clients are told where they stand on every throttled answer, in the IETF draft's headers
(draft-ietf-httpapi-ratelimit-headers) for the rate closest to its limit:

    RateLimit-Limit: 20            requests allowed in that rate's window
    RateLimit-Remaining: 17        left in it
    RateLimit-Reset: 42            seconds until the window ends (and its count with it)
    RateLimit-Policy: 20;w=60, 120;w=3600     every rate that applies

Over a limit the answer is 429 with `Retry-After` (seconds until the request would pass) and
the error body (api.exceptions).
"""

from __future__ import annotations

import time
from typing import Any

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

from common.proxies import client_address
from common.rates import RateState, client_key, count, remember


class MultiRateThrottle:
    """The counting shared by the three throttles below (mixed in before DRF's class, whose
    `get_cache_key` says whom a request counts for)."""

    scope: str | None
    cache: Any
    key: str | None
    now: float

    def __init__(self) -> None:  # DRF's parses one rate; common.rates parses per request
        pass

    def timer(self) -> float:  # one clock for the three throttles (the tests set it)
        return time.time()

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        self.states: list[RateState] = []
        self.key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if self.key is None:
            return True
        self.now = self.timer()
        allowed, self.states = count(str(self.scope), self.key, now=self.now, cache=self.cache)
        remember(request, self.states)
        return allowed

    def wait(self) -> float | None:
        waits = [state.wait for state in getattr(self, "states", []) if state.wait is not None]
        return max(waits) if waits else None


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
    """Counts a view's requests under its `throttle_scope` (per user, or per address), in the
    counter the web pages of that scope count in too (common.rates.client_key)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        # DRF's takes the scope from the view here; without a scope the view is not limited.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return client_key(str(self.scope), request)


DEFAULT_THROTTLES = [AnonThrottle, UserThrottle]
SCOPED_THROTTLES = [AnonThrottle, UserThrottle, ScopeThrottle]
