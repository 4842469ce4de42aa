"""The API's rate limits: one DRF throttle over the site's one limiter (common.rates).

Each request counts per anonymous client (`anon`) or per user (`user`), and under the view's
`throttle_scope` for the expensive operations (`upload`, `export`, `drafts`); the upload page
and the API upload share the `upload` counter. The rates, the `RateLimit-*` headers and the 429:
docs/api.md, "Rate limits".
"""

from __future__ import annotations

import time
from typing import Any

from rest_framework.throttling import BaseThrottle

from common.rates import RateState, client_key, count, remember


class ApiThrottle(BaseThrottle):
    """Counts a request under `anon` or `user` and its view's `throttle_scope`, if any, each
    per user or per address (common.rates.client_key): the counters the web pages count in."""

    def timer(self) -> float:  # the tests set it
        return time.time()

    def allow_request(self, request: Any, view: Any) -> bool:
        signed_in = bool(request.user and request.user.is_authenticated)
        scopes = ["user" if signed_in else "anon", getattr(view, "throttle_scope", "")]
        now = self.timer()
        self.states: list[RateState] = []
        allowed = True
        for scope in filter(None, scopes):
            passed, states = count(scope, client_key(scope, request), now=now)
            remember(request, states)
            self.states += states
            allowed = allowed and passed
        return allowed

    def wait(self) -> float | None:
        waits = [state.wait for state in self.states if state.wait is not None]
        return max(waits) if waits else None
