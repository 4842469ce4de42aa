"""The database unreachable: every page, API call and upload answers 503 with `Retry-After`
(the API's JSON error body under /api/, a plain page elsewhere), never a 500 nor a traceback,
whatever query fails first (the session, the API token, a throttle counter, the view's own);
and the next request after the database is back is served as usual.

The outage is simulated by making every query (or every new connection) fail the way psycopg
fails when the server is gone; scripts/fault_db_outage.py cuts a real PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client
from records.tokens import create_token

from common.unavailable import RETRY_AFTER_SECONDS
from tests.api.conftest import round_text

pytestmark = pytest.mark.django_db
GONE = "connection to server at \"db.internal\" (10.0.0.5), port 5432 failed: Connection refused"


def _refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    raise OperationalError(GONE)


@contextlib.contextmanager
def database_gone() -> Iterator[None]:
    """Every query fails, as on a connection whose server went away."""
    with connection.execute_wrapper(_refuse):
        yield


@pytest.fixture
def signed_in(db: None) -> tuple[Client, str]:
    user = User.objects.create_user("ana", password="a-long-test-password-1")
    client = Client()
    client.force_login(user)
    return client, create_token(user, "test")[1]


WEB_PAGES = ["/", "/players/", "/matches/", "/upload/", "/games/1/", "/account/",
             "/accounts/login/", "/admin/", "/jobs/1/"]
# For a visitor without a session: the sign-in form, and the redirects to it.
NEED_NO_DATABASE = {"/upload/", "/account/", "/accounts/login/", "/admin/", "/jobs/1/"}
API_NEED_NO_DATABASE = {"/api/v1/jobs/1/", "/api/v1/auth/token/"}
API_CALLS = ["/api/v1/games/", "/api/v1/games/1/", "/api/v1/players/", "/api/v1/stats/global/",
             "/api/v1/jobs/1/", "/api/v1/auth/token/", "/api/v1/games/export/?format=ndjson"]


def _assert_web_503(response: Any) -> None:
    assert response.status_code == 503, response.content[:400]
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "temporarily unavailable" in body
    assert "Traceback" not in body and "db.internal" not in body and "5432" not in body


def _assert_api_503(response: Any) -> None:
    assert response.status_code == 503, response.content[:400]
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert (error["status"], error["code"], error["retry_after"]) == (
        503, "unavailable", RETRY_AFTER_SECONDS)
    assert "db.internal" not in response.content.decode()


@pytest.mark.parametrize("path", WEB_PAGES)
@pytest.mark.parametrize("who", ["anonymous", "signed-in"])
def test_every_page_is_a_503_while_the_database_is_gone(
    signed_in: tuple[Client, str], path: str, who: str
) -> None:
    client = signed_in[0] if who == "signed-in" else Client()
    with database_gone():
        response = client.get(path)
    if who == "anonymous" and path in NEED_NO_DATABASE:
        # Nothing to look up for a visitor without a session: sent to sign in, as always.
        assert response.status_code in (200, 302)
        return
    _assert_web_503(response)
    assert client.get("/healthz").status_code == 200  # and back at once


PAGE_503 = {
    "en": ("Temporarily unavailable", "nothing you stored is lost", "Back to the archive"),
    "zh-hant": ("暫時無法使用", "您已儲存的內容都不會遺失", "返回牌譜庫"),
    "vi": ("Tạm thời không truy cập được", "đều không bị mất", "Quay lại kho ván bài"),
}


@pytest.mark.parametrize("language", sorted(PAGE_503))
@pytest.mark.parametrize("asked_by", ["Accept-Language", "cookie"])
@pytest.mark.parametrize("who", ["anonymous", "signed-in"])
def test_it_serves_the_503_page_in_the_visitors_language(
    signed_in: tuple[Client, str], language: str, asked_by: str, who: str
) -> None:
    """The page is chosen without the database: the language from the request's cookie or
    Accept-Language (the session, which needs the database, is never read for it), for a
    visitor whose session lookup is the first query to fail too."""
    client = signed_in[0] if who == "signed-in" else Client()
    if asked_by == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        headers = {"HTTP_ACCEPT_LANGUAGE": "en" if language != "en" else "vi"}
    else:
        headers = {"HTTP_ACCEPT_LANGUAGE": f"{language},en;q=0.5"}
    with database_gone():
        response = client.get("/", **headers)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = response.content.decode()
    assert f'<html lang="{language}">' in body
    for text in PAGE_503[language]:
        assert text in body
    others = set(PAGE_503) - {language}
    assert not any(PAGE_503[other][0] in body for other in others)


@pytest.mark.parametrize("path", API_CALLS)
@pytest.mark.parametrize("who", ["anonymous", "token", "session"])
def test_every_api_call_is_a_503_while_the_database_is_gone(
    signed_in: tuple[Client, str], path: str, who: str
) -> None:
    client, key = signed_in
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if who == "token" else {}
    client = client if who == "session" else Client()
    with database_gone():
        response = client.get(path, **headers)
    if who == "anonymous" and path in API_NEED_NO_DATABASE:
        assert response.status_code == 401  # signing in is needed, whatever the database
        return
    _assert_api_503(response)


def test_a_token_lookup_is_a_503_not_a_500(signed_in: tuple[Client, str]) -> None:
    # The token is looked up before any view code runs: that lookup failing was a 500.
    _client, key = signed_in
    with database_gone():
        response = Client().post("/api/v1/uploads/", data=round_text(1).encode(),
                                 content_type="text/x-fcn", HTTP_AUTHORIZATION=f"Token {key}")
    _assert_api_503(response)


def test_uploads_are_a_503_on_the_web_and_through_the_api(
    signed_in: tuple[Client, str]
) -> None:
    client, key = signed_in
    with database_gone():
        web = client.post("/upload/", {"text": round_text(2)})
        api = Client().post("/api/v1/uploads/", {"text": round_text(2)},
                            content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}")
    _assert_web_503(web)
    _assert_api_503(api)


def test_signing_in_is_a_503(db: None) -> None:
    User.objects.create_user("ana", password="a-long-test-password-1")
    with database_gone():
        web = Client().post("/accounts/login/", {"username": "ana",
                                                 "password": "a-long-test-password-1"})
        api = Client().post("/api/v1/auth/token/", {"username": "ana",
                                                    "password": "a-long-test-password-1"},
                            content_type="application/json")
    _assert_web_503(web)
    _assert_api_503(api)


def test_healthz_is_a_503_with_retry_after(db: None) -> None:
    with database_gone():
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json()["database"] == {"ok": False, "error": "OperationalError"}


def test_a_failing_connection_is_a_503_too(
    signed_in: tuple[Client, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a lost query but no connection at all (the server refuses it)."""
    client, key = signed_in

    def refuse() -> None:
        raise OperationalError(GONE)

    monkeypatch.setattr(connection, "ensure_connection", refuse)
    _assert_web_503(client.get("/"))
    _assert_api_503(Client().get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {key}"))
    monkeypatch.undo()
    assert client.get("/").status_code == 200


def test_other_database_errors_stay_500s(signed_in: tuple[Client, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Only an unreachable database is a 503: a programming error is not hidden as one."""
    from django.db import ProgrammingError

    def broken(*args: Any) -> Any:
        raise ProgrammingError('relation "records_game" does not exist')

    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(broken):
        response = client.get("/api/v1/games/")
    assert response.status_code == 500
    assert "records_game" not in response.content.decode()
