"""The client's address, trusting `X-Forwarded-For` only as far as NUM_PROXIES says.

Rate limits and the sign-in lockout count per address. Any client can send an
`X-Forwarded-For` header, so it is read only when the site really sits behind that many
proxies, each appending the address it saw (nginx's `$proxy_add_x_forwarded_for`, HAProxy,
cloud load balancers). With N trusted proxies the client is the N-th address from the right:
what the outermost proxy saw. Addresses a client wrote further left are never used.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address to count a request under (see the module doc)."""
    remote = str(request.META.get("REMOTE_ADDR", "") or "")
    proxies: int = settings.NUM_PROXIES
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", "") or "")
    if proxies == 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if not hops:
        return remote
    # Fewer hops than proxies: a proxy in front did not append (misconfigured); the leftmost
    # is then the best there is, and still one the proxies wrote rather than the client alone.
    return hops[-min(proxies, len(hops))]
