"""Rate limits: per anonymous client, per user, and per scope for the expensive operations.

Rates come from `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (environment variables
API_THROTTLE_ANON, _USER, _UPLOAD, _EXPORT); a scope missing there falls back to the default
below instead of failing every request with ImproperlyConfigured. Over the limit, the answer
is 429 with a `Retry-After` header (seconds) and the error body (see api.exceptions).
Counters live in the default cache (per process with the local-memory cache; point CACHES at
Redis for limits shared by every worker).
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

DEFAULT_RATES = {
    "anon": "1000/hour",
    "user": "10000/hour",
    "upload": "120/hour",
    "export": "60/hour",
}


def configured_rate(scope: str) -> str | None:
    # Read at each request, not at import: settings overridden in tests (and DRF's reload on
    # setting_changed) take effect.
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    return rates.get(scope, DEFAULT_RATES.get(scope))


class AnonThrottle(AnonRateThrottle):
    def get_rate(self) -> str | None:
        return configured_rate(self.scope)


class UserThrottle(UserRateThrottle):
    def get_rate(self) -> str | None:
        return configured_rate(self.scope)


class ScopeThrottle(ScopedRateThrottle):
    """Counts a view's requests under its `throttle_scope` (per user, or per address)."""

    def get_rate(self) -> str | None:
        return configured_rate(self.scope)


DEFAULT_THROTTLES = [AnonThrottle, UserThrottle]
SCOPED_THROTTLES = [AnonThrottle, UserThrottle, ScopeThrottle]
