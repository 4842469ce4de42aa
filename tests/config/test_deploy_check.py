"""`manage.py check --deploy` on a production environment, and the HTTPS switches behind it."""

from __future__ import annotations

import json

import pytest

from tests.config.production import production, run

_REPORT = """
import json
from config import settings as s
print(json.dumps({name: getattr(s, name, None) for name in (
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER", "SILENCED_SYSTEM_CHECKS")}))
"""
_CHECK = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]
YEAR = 365 * 24 * 3600


def _settings(**environ: str) -> dict[str, object]:
    result = run(["-c", _REPORT], **environ)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize(
    "extra",
    [{}, {"BEHIND_HTTPS_PROXY": "true"}],
    ids=["defaults", "behind-proxy"],
)
def test_it_passes_the_deployment_check_in_production(extra: dict[str, str]) -> None:
    result = run(_CHECK, **production(**extra))

    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_it_fails_the_deployment_check_when_https_is_switched_off() -> None:
    result = run(_CHECK, **production(HTTPS="false"))

    assert result.returncode != 0
    for warning in ("W004", "W008", "W012", "W016"):
        assert f"security.{warning}" in result.stderr


def test_it_is_https_only_in_production_by_default() -> None:
    loaded = _settings(**production())

    assert loaded == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": YEAR,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": False,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": None,
        # Preload is off on purpose (a commitment to opt into), so its warning is silenced.
        "SILENCED_SYSTEM_CHECKS": ["security.W021"],
    }


@pytest.mark.parametrize(
    "environ",
    [{}, production(HTTPS="false")],
    ids=["development", "production-over-plain-http"],
)
def test_it_serves_plain_http_in_development_or_when_told(environ: dict[str, str]) -> None:
    loaded = _settings(**environ)

    assert loaded["SECURE_SSL_REDIRECT"] is False
    assert loaded["SECURE_HSTS_SECONDS"] == 0
    assert loaded["SESSION_COOKIE_SECURE"] is False
    assert loaded["CSRF_COOKIE_SECURE"] is False
    assert loaded["SILENCED_SYSTEM_CHECKS"] == []


def test_it_believes_the_proxy_s_https_header_when_told() -> None:
    loaded = _settings(**production(BEHIND_HTTPS_PROXY="true"))

    assert loaded["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert loaded["SECURE_SSL_REDIRECT"] is True


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("HTTPS", "sometimes", "HTTPS='sometimes' is not a boolean"),
        ("SECURE_HSTS_SECONDS", "600", "SECURE_HSTS_SECONDS is no longer read: use HTTPS"),
        ("GUNICORN_WORKERS", "3", "GUNICORN_WORKERS is no longer read: use gunicorn's own"),
        ("SQLITE_TIMEOUT", "60", "SQLITE_TIMEOUT is no longer read: the setting is fixed"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT='xml' is not one of"),
    ],
)
def test_it_refuses_switches_it_cannot_read(variable: str, value: str, message: str) -> None:
    result = run(["-c", _REPORT], **production(**{variable: value}))

    assert result.returncode != 0
    assert message in result.stderr
