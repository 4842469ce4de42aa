"""EMAIL_AVAILABLE in every template: the account pages say when this site sends no mail."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def email_available(request: HttpRequest) -> dict[str, bool]:
    return {"EMAIL_AVAILABLE": settings.EMAIL_AVAILABLE}
