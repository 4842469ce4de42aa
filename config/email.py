"""E-mail settings from the environment: `EMAIL_URL` (parsed by dj-email-url).

Without it, development (DEBUG on) prints mail to the console, so sign-up and password
reset work on a laptop with the links in the server's output. A production start (DEBUG off)
without them runs with mail switched off (`EMAIL_AVAILABLE` false): the dummy backend, and
the account pages say that this site sends no mail (web/accounts/, docs/deploy.md "E-mail").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dj_email_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_str

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"


def email_settings(debug: bool, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The EMAIL_* settings, DEFAULT_FROM_EMAIL and SERVER_EMAIL, plus EMAIL_AVAILABLE:
    whether mail reaches anyone (a configured backend, or the console in development)."""
    url = env_str("EMAIL_URL", environ=environ)
    if url:
        conf = _from_url(url)
    else:
        conf = {"EMAIL_BACKEND": CONSOLE if debug else DUMMY}
    conf["EMAIL_AVAILABLE"] = conf["EMAIL_BACKEND"] != DUMMY
    conf["DEFAULT_FROM_EMAIL"] = env_str("DEFAULT_FROM_EMAIL", environ) or conf.get(
        "DEFAULT_FROM_EMAIL", "fourcolor <noreply@localhost>")
    conf.setdefault("SERVER_EMAIL", conf["DEFAULT_FROM_EMAIL"])
    return conf


def _from_url(url: str) -> dict[str, Any]:
    """dj-email-url's reading of the URL, with the errors it lets through made loud: an unknown
    scheme (it would leave the backend unset), a port that is not a number, a bad timeout."""
    scheme = url.split(":", 1)[0].lower()
    if scheme not in dj_email_url.SCHEMES:
        raise ImproperlyConfigured(
            f"EMAIL_URL has the unknown scheme {scheme!r}; use one of "
            f"{sorted(dj_email_url.SCHEMES)} (e.g. submission://user:password@host:587)."
        )
    try:
        conf: dict[str, Any] = dj_email_url.parse(url)
    except ValueError as exc:  # port not a number, timeout not an integer
        raise ImproperlyConfigured(f"EMAIL_URL is not usable: {exc}") from None
    if conf["EMAIL_BACKEND"] == SMTP and not conf["EMAIL_HOST"]:
        raise ImproperlyConfigured("EMAIL_URL names no host (smtp://user:password@host:port).")
    return {key: value for key, value in conf.items() if value is not None}


def account_settings(email_available: bool) -> dict[str, Any]:
    """allauth's settings that depend on whether this site sends mail (settings.py,
    "Accounts"): with mail, sign-up asks for an address that must be confirmed before the
    account signs in, and one signs in by username or address; without, neither."""
    if email_available:
        return {
            "ACCOUNT_LOGIN_METHODS": {"username", "email"},
            "ACCOUNT_SIGNUP_FIELDS": ["email*", "username*", "password1*", "password2*"],
            "ACCOUNT_EMAIL_VERIFICATION": "mandatory",
        }
    return {
        "ACCOUNT_LOGIN_METHODS": {"username"},
        "ACCOUNT_SIGNUP_FIELDS": ["username*", "password1*", "password2*"],
        "ACCOUNT_EMAIL_VERIFICATION": "none",
    }
