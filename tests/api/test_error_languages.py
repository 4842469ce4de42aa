"""The API's own error messages in the client's language (`Accept-Language: vi`, `zh-Hant`), as
the pages are: DRF's errors, the rate limits, the upload's size limit and malformed bodies. The
code stays the same in every language (clients branch on it); English is unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gzip

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.config.test_database_unavailable import _refuse

# Only the words are checked: the errors themselves are tested on both databases beside the
# operations that give them.
pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
UPLOADS = "/api/v1/uploads/"


def _rates(settings: Any, **scopes: str) -> None:
    current = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **current, "DEFAULT_THROTTLE_RATES": {**current["DEFAULT_THROTTLE_RATES"], **scopes}}


def _throttled(api: APIClient, signed_in: APIClient, settings: Any, **headers: str) -> Any:
    _rates(settings, anon="1/minute")
    api.get("/api/v1/games/", **headers)
    return api.get("/api/v1/games/", **headers)


def _too_large(api: APIClient, signed_in: APIClient, settings: Any, **headers: str) -> Any:
    settings.API_UPLOAD_MAX_BYTES = 10
    return signed_in.post(UPLOADS, "x" * 100, content_type="text/x-fcn", **headers)


def _gzip_bomb(api: APIClient, signed_in: APIClient, settings: Any, **headers: str) -> Any:
    settings.UPLOAD_MAX_BYTES = settings.API_UPLOAD_MAX_BYTES = 1000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    return signed_in.post(UPLOADS, gzip.compress(b"\n" * 1_000_000), content_type="text/x-fcn",
                          HTTP_CONTENT_ENCODING="gzip", **headers)


def _unavailable(api: APIClient, signed_in: APIClient, settings: Any, **headers: str) -> Any:
    with connection.execute_wrapper(_refuse):
        return api.get("/api/v1/games/", **headers)


Case = Callable[..., Any]
CASES: dict[str, tuple[Case, int, str, str, str]] = {
    # name: (request, status, code, vi, zh-Hant) — a word of each translation
    "not signed in": (lambda a, s, st, **h: a.post(UPLOADS, "x", content_type="text/x-fcn", **h),
                      401, "not_authenticated", "đăng nhập", "登入"),
    "not found": (lambda a, s, st, **h: a.get("/api/v1/games/999999/", **h),
                  404, "not_found", "Không tìm thấy", "找不到"),
    "wrong method": (lambda a, s, st, **h: a.delete("/api/v1/games/", **h),
                     405, "method_not_allowed", "DELETE", "DELETE"),
    "content type": (lambda a, s, st, **h: s.post(UPLOADS, "<p>", content_type="text/html", **h),
                     415, "unsupported_media_type", "text/html", "text/html"),
    "nothing to upload": (lambda a, s, st, **h: s.post(UPLOADS, {}, format="json", **h),
                          400, "invalid", "Dữ liệu", "輸入"),
    "malformed json": (lambda a, s, st, **h: s.post(UPLOADS, b'{"text": ',
                                                  content_type="application/json", **h),
                       400, "parse_error", "JSON", "JSON"),
    "throttled": (_throttled, 429, "throttled", "giây", "秒"),
    "too large": (_too_large, 413, "too_large", "byte", "位元組"),
    "gzip bomb": (_gzip_bomb, 413, "too_large", "byte", "位元組"),
    "unavailable": (_unavailable, 503, "unavailable", "Cơ sở dữ liệu", "資料庫"),
    "bad page": (lambda a, s, st, **h: a.get("/api/v1/games/?page=abc", **h),
                 400, "invalid", "số nguyên", "整數"),
    "foreign cursor": (lambda a, s, st, **h: a.get("/api/v1/games/?cursor=zzz", **h),
                       400, "invalid", "Con trỏ", "游標"),
    "unknown parameter": (lambda a, s, st, **h: a.get("/api/v1/games/?nope=1", **h),
                          400, "invalid", "Tham số", "參數"),
    "parameter twice": (lambda a, s, st, **h: a.get("/api/v1/games/?players=4&players=3", **h),
                        400, "invalid", "một lần", "一次"),
    "unknown token": (lambda a, s, st, **h: a.get("/api/v1/games/",
                                                  HTTP_AUTHORIZATION="Token nope", **h),
                      401, "authentication_failed", "Mã", "權杖"),
    "wrong password": (lambda a, s, st, **h: a.post(
        "/api/v1/auth/token/", {"username": "nobody", "password": "not-the-password"},
        format="json", **h), 401, "invalid_credentials", "mật khẩu", "密碼"),
    "no endpoint": (lambda a, s, st, **h: a.get("/api/v1/nowhere/", **h),
                    404, "not_found", "điểm cuối", "端點"),
    "no such draft": (lambda a, s, st, **h: s.get("/api/v1/drafts/999999/", **h),
                      404, "not_found", "bản nháp", "草稿"),
    "json not an object": (lambda a, s, st, **h: s.post(UPLOADS, b"[1]",
                                                        content_type="application/json", **h),
                           400, "parse_error", "mảng", "陣列"),
    "ndjson not an export": (lambda a, s, st, **h: s.post(
        UPLOADS, b"{}\n", content_type="application/x-ndjson", **h),
        400, "parse_error", "dòng 1", "第 1 行"),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("language", ["vi", "zh-Hant"])
def test_it_says_its_errors_in_the_clients_language(
    case: str, language: str, api: APIClient, client_for: Any, user: Any, settings: Any
) -> None:
    request, status, code, vi, zh = CASES[case]
    english = request(APIClient(), client_for(user), settings).json()["error"]["message"]
    from django.core.cache import cache

    cache.clear()

    answer = request(api, client_for(user), settings, HTTP_ACCEPT_LANGUAGE=language)

    assert answer.status_code == status
    error = answer.json()["error"]
    assert error["code"] == code
    assert error["message"] != english
    assert (vi if language == "vi" else zh) in error["message"]


@pytest.mark.parametrize(("language", "word"), [("vi", "bắt buộc"), ("zh-Hant", "必需")])
def test_it_says_which_fields_are_wrong_in_the_clients_language(
    api: APIClient, language: str, word: str
) -> None:
    """DRF's own field messages too (its Vietnamese catalogue lacks them: ours has them)."""
    answer = api.post("/api/v1/auth/token/", {}, format="json", HTTP_ACCEPT_LANGUAGE=language)

    assert answer.status_code == 400
    assert word in str(answer.json()["error"]), answer.json()
    english = APIClient().post("/api/v1/auth/token/", {}, format="json").json()
    assert "This field is required." in str(english["error"])
