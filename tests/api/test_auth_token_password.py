"""POST /api/v1/auth/token/ with a username and password: a token for a script, no browser."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import user_logged_in, user_login_failed
from rest_framework.test import APIClient

from records.tokens import ApiToken as Token

URL = "/api/v1/auth/token/"
PASSWORD = "correct horse battery"


@pytest.fixture
def ana(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def post(client: APIClient, body: dict[str, str], encoding: str) -> Any:
    if encoding == "json":
        return client.post(URL, json.dumps(body), content_type="application/json")
    return client.post(URL, body, format=encoding)


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["json", "multipart"])
def test_it_exchanges_a_password_for_a_token(ana: Any, encoding: str) -> None:
    response = post(APIClient(), {"username": "ana", "password": PASSWORD}, encoding)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["id"] == Token.objects.get(user=ana).pk
    assert body["username"] == "ana" and body["last_four"] == body["token"][-4:]
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert scripted.get(URL).json() == {k: v for k, v in body.items() if k != "token"}


@pytest.mark.django_db
def test_it_exchanges_a_form_encoded_password(ana: Any) -> None:
    response = APIClient().post(
        URL, f"username=ana&password={PASSWORD.replace(' ', '+')}",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 201, response.content


@pytest.mark.django_db
def test_it_takes_the_username_in_any_case_as_the_sign_in_page_does(ana: Any) -> None:
    response = post(APIClient(), {"username": "ANA", "password": PASSWORD}, "json")

    assert response.status_code == 201 and response.json()["username"] == "ana"


@pytest.mark.django_db
def test_a_second_script_signing_in_leaves_the_first_ones_key_working(ana: Any) -> None:
    first = post(APIClient(), {"username": "ana", "password": PASSWORD}, "json").json()["token"]
    second = post(APIClient(), {"username": "ana", "password": PASSWORD, "name": "backup",
                                "scope": "read"}, "json").json()

    assert first != second["token"]
    assert (second["name"], second["scope"]) == ("backup", "read")
    for key in (first, second["token"]):
        script = APIClient()
        script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert script.get(URL).status_code == 200


REFUSED = [
    ({"username": "ana", "password": "wrong"}, 401, "invalid_credentials"),
    ({"username": "nobody", "password": PASSWORD}, 401, "invalid_credentials"),
    ({"username": "ana"}, 400, "invalid"),
    ({"password": PASSWORD}, 400, "invalid"),
    ({"username": "ana", "password": ""}, 400, "invalid"),
    ({"username": "ana", "password": "x" * 4097}, 400, "invalid"),
    ({"username": "ana", "password": PASSWORD, "scope": "admin"}, 400, "invalid"),
    ({"username": "ana", "password": PASSWORD, "name": ""}, 400, "invalid"),
    ({"username": "ana", "password": PASSWORD, "name": "a\nb"}, 400, "invalid"),
    ({"username": "ana", "password": PASSWORD, "name": "x" * 101}, 400, "invalid"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "status", "code"), REFUSED,
                         ids=[f"{s}-{sorted(b)}" for b, s, _ in REFUSED])
def test_it_refuses_bad_credentials_without_a_token(
    ana: Any, body: dict[str, str], status: int, code: str
) -> None:
    response = post(APIClient(), body, "json")

    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert not Token.objects.exists()
    if status == 401:
        assert response["WWW-Authenticate"] == "Token"


@pytest.mark.django_db
def test_it_refuses_an_inactive_user(ana: Any) -> None:
    ana.is_active = False
    ana.save()

    response = post(APIClient(), {"username": "ana", "password": PASSWORD}, "json")

    assert response.status_code == 401
    assert not Token.objects.exists()


@pytest.mark.django_db
def test_it_checks_the_password_through_authenticate_with_the_request(ana: Any) -> None:
    # What django-axes counts: the failed attempt's signal carries the request.
    failed: list[Any] = []

    def record(sender: Any, credentials: Any, request: Any = None, **kwargs: Any) -> None:
        failed.append((credentials.get("username"), request))

    user_login_failed.connect(record)
    try:
        post(APIClient(), {"username": "ana", "password": "wrong"}, "json")
    finally:
        user_login_failed.disconnect(record)

    assert len(failed) == 1
    assert failed[0][0] == "ana" and failed[0][1] is not None
    assert failed[0][1].path == URL


@pytest.mark.django_db
def test_it_does_not_start_a_session(ana: Any) -> None:
    signed_in: list[Any] = []

    def record(sender: Any, **kwargs: Any) -> None:
        signed_in.append(kwargs)

    user_logged_in.connect(record)
    client = APIClient()
    try:
        response = post(client, {"username": "ana", "password": PASSWORD}, "json")
    finally:
        user_logged_in.disconnect(record)

    assert response.status_code == 201
    assert signed_in == [] and "sessionid" not in client.cookies


@pytest.mark.django_db
def test_it_answers_a_lockout_with_429(ana: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # django-axes' backend raises PermissionDenied for a locked-out account or address.
    from django.core.exceptions import PermissionDenied

    def locked(*args: Any, **kwargs: Any) -> None:
        raise PermissionDenied("locked out")

    monkeypatch.setattr("api.views.auth.authenticate", locked)

    response = post(APIClient(), {"username": "ana", "password": PASSWORD}, "json")

    assert response.status_code == 429
    assert response.json()["error"]["code"] == "locked_out"
    assert not Token.objects.exists()


@pytest.mark.django_db
def test_the_sign_in_lockout_counts_and_blocks_password_exchanges(ana: Any, settings: Any) -> None:
    # django-axes (config/settings.py): the same lockout as the login pages, for real.
    limit = settings.AXES_FAILURE_LIMIT
    wrong = [post(APIClient(), {"username": "ana", "password": "wrong"}, "json").status_code
             for _ in range(limit)]

    right = post(APIClient(), {"username": "ana", "password": PASSWORD}, "json")

    assert set(wrong[:-1]) == {401}
    assert right.status_code == 429
    assert right.json()["error"]["code"] == "locked_out"
    assert int(right["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert not Token.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("username", "status"), [("", 400), ("   ", 401)])
def test_it_refuses_an_empty_username_and_finds_no_user_named_by_spaces(
    username: str, status: int
) -> None:
    """As the schema says (`minLength: 1`): an empty field is a 400; a name of spaces is sent
    as it is, and no user has it."""
    response = APIClient().post(URL, {"username": username, "password": "x"}, format="json")

    assert response.status_code == status
    assert not Token.objects.exists()
