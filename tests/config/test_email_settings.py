"""E-mail settings from the environment (config/email.py): EMAIL_URL, the console in
development and no mail in production without it, loud errors for what cannot be read."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.email import CONSOLE, DUMMY, SMTP, account_settings, email_settings


def test_it_reads_a_submission_url() -> None:
    conf = email_settings(False, {"EMAIL_URL": "submission://ann:s%40cret@mail.example.org"})
    assert (conf["EMAIL_BACKEND"], conf["EMAIL_HOST"], conf["EMAIL_PORT"]) == (
        SMTP, "mail.example.org", 587)
    assert (conf["EMAIL_HOST_USER"], conf["EMAIL_HOST_PASSWORD"]) == ("ann", "s@cret")
    assert conf["EMAIL_USE_TLS"] and conf["EMAIL_AVAILABLE"]


def test_it_reads_a_tls_url_and_the_sender() -> None:
    conf = email_settings(False, {"EMAIL_URL": "smtp://ann@mail.example.org:465?ssl=True",
                                  "DEFAULT_FROM_EMAIL": "archive@example.org"})
    assert (conf["EMAIL_BACKEND"], conf["EMAIL_PORT"], conf["EMAIL_USE_SSL"]) == (
        SMTP, 465, True)
    assert conf["DEFAULT_FROM_EMAIL"] == conf["SERVER_EMAIL"] == "archive@example.org"


@pytest.mark.parametrize(("debug", "backend", "available"), [
    (True, CONSOLE, True), (False, DUMMY, False)])
def test_without_settings_it_prints_in_development_and_sends_nothing_in_production(
    debug: bool, backend: str, available: bool
) -> None:
    conf = email_settings(debug, {})
    assert (conf["EMAIL_BACKEND"], conf["EMAIL_AVAILABLE"]) == (backend, available)


@pytest.mark.parametrize(("environ", "says"), [
    ({"EMAIL_URL": "smpt://mail.example.org"}, "unknown scheme 'smpt'"),
    ({"EMAIL_URL": "smtp://mail.example.org:port"}, "not usable"),
    ({"EMAIL_URL": "submission://"}, "names no host"),
])
def test_it_refuses_what_it_cannot_read(environ: dict[str, str], says: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=says):
        email_settings(False, environ)


def test_without_mail_sign_up_asks_for_no_address_and_confirms_nothing() -> None:
    assert account_settings(True)["ACCOUNT_EMAIL_VERIFICATION"] == "mandatory"
    without = account_settings(False)
    assert without["ACCOUNT_EMAIL_VERIFICATION"] == "none"
    assert not [f for f in without["ACCOUNT_SIGNUP_FIELDS"] if f.startswith("email")]
