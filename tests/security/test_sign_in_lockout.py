"""Password guessing: after SIGN_IN_FAILURE_LIMIT failed sign-ins for one account, or from one
address, every attempt (even the right password) is a 429 with `Retry-After` and a clear
message, at the site's sign-in page, the admin's and the API's password exchange; the lock
ends after the cool-off; a forged X-Forwarded-For does not buy new guesses."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client

from tests.web.dom import parse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-1"
LIMIT = 5
COOL_OFF = 15 * 60


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = datetime.timedelta(seconds=COOL_OFF)


def _staff() -> User:
    return User.objects.create_user("boss", password=PASSWORD, is_staff=True, is_superuser=True)


def _web(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR=address)


def _admin(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post("/admin/login/?next=/admin/",
                       {"username": username, "password": password, "next": "/admin/"},
                       REMOTE_ADDR=address)


def _api(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post("/api/v1/auth/token/", {"username": username, "password": password},
                       content_type="application/json", REMOTE_ADDR=address)


DOORS = {"site": _web, "admin": _admin, "api": _api}
SIGNED_IN = {"site": 302, "admin": 302, "api": 201}
REFUSED = {"site": 200, "admin": 200, "api": 401}


def _assert_locked(door: str, response: Any) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == str(COOL_OFF)
    if door == "api":
        error = response.json()["error"]
        assert (error["code"], error["retry_after"]) == ("locked_out", COOL_OFF)
        message = error["message"]
    else:
        message = parse(response.content).find(**{"data-field": "lockout"}).words()
    assert message.startswith("Too many failed sign-ins for this account or from this address")
    assert "15 minutes" in message


@pytest.mark.parametrize("door", DOORS)
def test_it_locks_an_account_after_the_limit_even_for_the_right_password(
    user: User, door: str
) -> None:
    attempt = DOORS[door]
    account = _staff() if door == "admin" else user
    client = Client()
    for _ in range(LIMIT - 1):
        assert attempt(client, account.username, "wrong").status_code == REFUSED[door]
    # Still under the limit: the right password gets in.
    assert attempt(Client(), account.username, PASSWORD).status_code == SIGNED_IN[door]
    for _ in range(LIMIT):
        attempt(client, account.username, "wrong")

    locked = attempt(Client(), account.username, PASSWORD, address="10.9.9.9")

    _assert_locked(door, locked)
    assert "_auth_user_id" not in Client().session
    # Another account from another address is not concerned.
    User.objects.create_user("other", password=PASSWORD, is_staff=True, is_superuser=True)
    assert attempt(Client(), "other", PASSWORD, address="10.7.7.7").status_code == (
        SIGNED_IN[door])


@pytest.mark.parametrize("door", DOORS)
def test_it_locks_an_address_trying_many_accounts(user: User, door: str) -> None:
    attempt = DOORS[door]
    account = _staff() if door == "admin" else user
    for n in range(LIMIT):
        attempt(Client(), f"guess{n}", "wrong", address="10.0.0.66")

    _assert_locked(door, attempt(Client(), account.username, PASSWORD, address="10.0.0.66"))
    assert attempt(Client(), account.username, PASSWORD, address="10.0.0.67").status_code == (
        SIGNED_IN[door])


def test_it_counts_an_account_whatever_the_case_of_its_name(user: User) -> None:
    for n in range(LIMIT):
        _web(Client(), "UPLOADER" if n % 2 else "Uploader ", "wrong", address=f"10.1.0.{n}")

    _assert_locked("site", _web(Client(), "uploader", PASSWORD, address="10.1.1.1"))


def test_a_forged_forwarded_address_buys_no_guesses(user: User, settings: Any) -> None:
    settings.NUM_PROXIES = 0
    client = Client()
    for n in range(LIMIT):
        client.post("/accounts/login/", {"username": f"guess{n}", "password": "x"},
                    REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    response = client.post("/accounts/login/", {"username": "uploader", "password": PASSWORD},
                           REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="192.0.2.200")

    _assert_locked("site", response)


def test_behind_a_proxy_it_counts_the_address_the_proxy_saw(user: User, settings: Any) -> None:
    settings.NUM_PROXIES = 1
    proxy = "10.0.0.1"  # every request comes from the proxy
    for n in range(LIMIT):
        Client().post("/accounts/login/", {"username": f"guess{n}", "password": "x"},
                      REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="forged, 198.51.100.7")

    # The guesser is locked out, whatever it writes to the left of what the proxy appended...
    _assert_locked("site", Client().post(
        "/accounts/login/", {"username": "uploader", "password": PASSWORD},
        REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="other, 198.51.100.7"))
    # ...and another client behind the same proxy is not.
    assert Client().post("/accounts/login/", {"username": "uploader", "password": PASSWORD},
                         REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 302


def test_the_lock_ends_after_the_cool_off(user: User) -> None:
    for _ in range(LIMIT):
        _web(Client(), "uploader", "wrong")
    assert _web(Client(), "uploader", PASSWORD).status_code == 429

    AccessAttempt.objects.update(
        attempt_time=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=COOL_OFF + 1))

    assert _web(Client(), "uploader", PASSWORD).status_code == 302


def _allauth(client: Client, login: str, password: str, address: str = "10.0.0.1") -> Any:
    """The sign-in form as the page posts it (allauth's field `login`: a name or address)."""
    return client.post("/accounts/login/", {"login": login, "password": password},
                       REMOTE_ADDR=address)


def test_the_sign_in_page_locks_after_five_wrong_passwords_then_the_right_one(
    user: User,
) -> None:
    answers = [_allauth(Client(), "uploader", "wrong", address=f"10.3.0.{n}").status_code
               for n in range(LIMIT)]
    # The form's error until the limit; the failure that reaches it is answered as locked.
    assert answers == [200] * (LIMIT - 1) + [429]

    locked = _allauth(Client(), "uploader", PASSWORD, address="10.3.1.1")

    _assert_locked("site", locked)


def test_guesses_by_name_and_by_address_count_for_one_account(user: User) -> None:
    from allauth.account.models import EmailAddress

    user.email = "uploader@example.org"
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    for n in range(LIMIT):
        login = "uploader" if n % 2 else "Uploader@Example.org"
        _allauth(Client(), login, "wrong", address=f"10.4.0.{n}")

    _assert_locked("site", _allauth(Client(), "uploader@example.org", PASSWORD,
                                    address="10.4.1.1"))


@pytest.mark.parametrize("language,warning,reset", [
    ("en", "One more failed sign-in locks", "Reset your password"),
    ("vi", "Thêm một lần đăng nhập sai", "Đặt lại mật khẩu"),
    ("zh-hant", "再失敗一次", "重設密碼"),
])
def test_it_warns_one_try_before_the_lock_and_links_the_password_reset(
    user: User, language: str, warning: str, reset: str
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for attempt in range(1, LIMIT):
        doc = parse(_web(client, "uploader", "wrong").content)
        shown = doc.find_all("p", data_field="last-try")
        assert bool(shown) == (attempt == LIMIT - 1)
    assert warning in shown[0].words()
    assert shown[0].find("a").attrs["href"] == "/accounts/password/reset/"
    locked = _web(client, "uploader", "wrong")
    assert locked.status_code == 429
    link = parse(locked.content).find("a", data_field="reset-link")
    assert (link.words(), link.attrs["href"]) == (reset, "/accounts/password/reset/")
