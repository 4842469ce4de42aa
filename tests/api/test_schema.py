"""The OpenAPI schema: valid, complete, served, and true to what the API answers."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from jobs.models import Job
from records.models import Game, Player

from .conftest import Archive, illegal_text, round_text
from .openapi import ResponseChecker, openapi_document


def test_it_generates_a_valid_schema_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "schema.yaml"

    # --validate checks the document against the OpenAPI 3 JSON schema; --fail-on-warn makes
    # any generation warning (an undocumented view, an unknown field type) an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target),
                 stderr=StringIO())

    document = yaml.safe_load(target.read_text())
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "fourcolor archive API"


def _api_routes(patterns: list[Any], prefix: str = "") -> list[str]:
    routes = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            routes += _api_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            routes.append(prefix + str(pattern.pattern))
    return routes


def test_it_documents_every_endpoint() -> None:
    documented = set(openapi_document()["paths"])

    routes = [r for r in _api_routes(get_resolver().url_patterns) if r.startswith("api/v1/")]

    undocumented = {"api/v1/schema/", "api/v1/docs/", "api/v1/redoc/"}
    expected = {
        "/api/v1/games/", "/api/v1/games/{id}/", "/api/v1/games/{id}/record/",
        "/api/v1/games/{id}/plies/{ply}/", "/api/v1/games/{id}/plies/",
        "/api/v1/games/{id}/review/",
        "/api/v1/games/export/", "/api/v1/games/deleted/", "/api/v1/players/",
        "/api/v1/players/{id}/",
        "/api/v1/players/{id}/games/", "/api/v1/players/{id}/stats/",
        "/api/v1/players/{id}/head-to-head/{other}/", "/api/v1/players/{id}/ratings/",
        "/api/v1/stats/leaderboard/",
        "/api/v1/stats/ratings/", "/api/v1/stats/global/", "/api/v1/uploads/",
        "/api/v1/auth/token/", "/api/v1/auth/tokens/", "/api/v1/auth/tokens/{id}/",
        "/api/v1/jobs/", "/api/v1/jobs/{id}/",
        "/api/v1/jobs/revalidate/", "/api/v1/jobs/analyse/", "/api/v1/games/{id}/analysis/",
        "/api/v1/drafts/", "/api/v1/drafts/{id}/", "/api/v1/drafts/{id}/events/",
        "/api/v1/drafts/{id}/events/{ply}/", "/api/v1/drafts/{id}/undo/",
        "/api/v1/drafts/{id}/redo/", "/api/v1/drafts/{id}/save/", "/api/v1/rulesets/",
    }
    assert documented == expected
    assert len(routes) >= len(expected) + len(undocumented)


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "parse"), [({}, yaml.safe_load),
                                                ({"format": "json"}, json.loads)])
def test_it_serves_the_schema(api: APIClient, params: dict[str, str], parse: Any) -> None:
    response = api.get("/api/v1/schema/", params)

    assert response.status_code == 200
    assert parse(response.content.decode())["paths"].keys() == openapi_document()["paths"].keys()


@pytest.fixture(scope="module")
def checker() -> ResponseChecker:
    return ResponseChecker(openapi_document())


def _requests(archive: Archive) -> list[tuple[str, str, dict[str, Any]]]:
    game = archive.match[0]
    an = Player.objects.get(name="An").pk
    dũng = Player.objects.get(name="Dũng").pk
    last = Game.objects.get(pk=game).event_count
    return [
        ("get", "/api/v1/games/", {}),
        ("get", "/api/v1/games/", {"players": "9"}),
        ("get", "/api/v1/games/", {"page": "50"}),
        ("get", f"/api/v1/games/{game}/", {}),
        ("get", f"/api/v1/games/{archive.anonymous}/", {}),
        ("get", "/api/v1/games/999999/", {}),
        ("get", f"/api/v1/games/{game}/record/", {}),
        ("get", f"/api/v1/games/{game}/plies/0/", {}),
        ("get", f"/api/v1/games/{game}/plies/{last}/", {}),
        ("get", f"/api/v1/games/{game}/plies/3/", {"seat": "2"}),
        ("get", f"/api/v1/games/{game}/plies/3/", {"seat": "9"}),
        ("get", f"/api/v1/games/{game}/plies/{last + 1}/", {}),
        ("get", f"/api/v1/games/{archive.anonymous}/review/", {}),
        ("get", "/api/v1/games/export/", {"max": "0"}),
        ("get", "/api/v1/players/", {"search": "a"}),
        ("get", f"/api/v1/players/{an}/", {}),
        ("get", f"/api/v1/players/{an}/games/", {}),
        ("get", f"/api/v1/players/{an}/stats/", {}),
        ("get", f"/api/v1/players/{an}/stats/", {"since": "2026-01-01"}),
        ("get", f"/api/v1/players/{an}/stats/", {"ruleset": "x"}),
        ("get", f"/api/v1/players/{an}/head-to-head/{dũng}/", {}),
        ("get", f"/api/v1/players/{an}/head-to-head/{an}/", {}),
        ("get", "/api/v1/stats/leaderboard/", {"min_rounds": "1"}),
        ("get", "/api/v1/stats/leaderboard/", {"min_rounds": "1", "since": "2020-01-01"}),
        ("get", "/api/v1/stats/ratings/", {"ruleset": "classic", "min_rounds": "1"}),
        ("get", "/api/v1/stats/global/", {}),
        ("get", "/api/v1/auth/token/", {}),
        ("post", "/api/v1/auth/token/", {}),
        ("get", "/api/v1/auth/token/", {}),
        ("post", "/api/v1/auth/tokens/", {"name": "dashboard", "scope": "read"}),
        ("post", "/api/v1/auth/tokens/", {"name": ""}),
        ("get", "/api/v1/auth/tokens/", {}),
        ("get", "/api/v1/auth/tokens/999999/", {}),
    ]


@pytest.mark.django_db
def test_it_describes_what_the_api_answers(
    client_for: Any, user: Any, archive: Archive, checker: ResponseChecker
) -> None:
    client = client_for(user)
    client.delete("/api/v1/auth/token/")  # the token endpoint's 404 first (session below)
    client = APIClient()
    client.force_login(user)

    for method, path, params in _requests(archive):
        response = getattr(client, method)(path, params)
        assert response["Content-Type"] == "application/json", path
        checker.check(path, method, response.status_code, "application/json", response.json())


@pytest.mark.django_db
def test_it_describes_every_upload_verdict(
    client_for: Any, user: Any, checker: ResponseChecker
) -> None:
    client = client_for(user)
    good, other = round_text(1, "classic", 3), round_text(2, "bga", 4)
    cases = [good, good, "\n\n".join([other, illegal_text(1)]), illegal_text(2), ""]

    statuses = []
    for text in cases:
        response = client.post("/api/v1/uploads/", data=text, content_type="text/x-fcn")
        statuses.append(response.status_code)
        checker.check("/api/v1/uploads/", "post", response.status_code, "application/json",
                      response.json())

    assert statuses == [201, 201, 201, 201, 400]  # the job, done; or no record at all


@pytest.mark.django_db
def test_it_documents_the_text_formats(api: APIClient, archive: Archive,
                                       checker: ResponseChecker) -> None:
    for media in ("text/x-fcn", "text/x-fcn; variant=canonical"):
        assert checker.schema_for(f"/api/v1/games/{archive.bga[0]}/record/", "get", 200, media)
    for media in ("application/x-ndjson", "text/x-fcn"):
        assert checker.schema_for("/api/v1/games/export/", "get", 200, media)


def _concrete(path: str, archive: Archive, job: int = 0) -> str:
    if path.startswith("/api/v1/jobs/"):
        return path.replace("{id}", str(job))
    an = Player.objects.get(name="An").pk
    dũng = Player.objects.get(name="Dũng").pk
    game = archive.match[0]
    if path.startswith("/api/v1/players/"):
        return path.replace("{id}", str(an)).replace("{other}", str(dũng))
    return path.replace("{id}", str(game)).replace("{ply}", "1")


@pytest.mark.django_db
def test_it_takes_exactly_the_documented_query_parameters(
    client_for: Any, user: Any, archive: Archive, settings: Any
) -> None:
    # Dozens of requests to each endpoint: more than the export's burst rate allows.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict.fromkeys(
        ("anon", "user", "upload", "export"), "10000/minute")}
    client = client_for(user)
    document = openapi_document()
    job = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user).pk

    for path, operations in document["paths"].items():
        operation = operations.get("get")
        if operation is None:
            continue
        url = _concrete(path, archive, job)
        documented = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
        required = {p["name"]: "classic" for p in operation.get("parameters", [])
                    if p["in"] == "query" and p.get("required")}
        # Every documented parameter is known (empty: "not given")...
        for name in documented:
            response = client.get(url, {**required, name: required.get(name, "")})
            assert response.status_code == 200, (path, name, response.content)
        # ...and nothing else is.
        response = client.get(url, {**required, "palyer": "An"})
        assert response.status_code == 400, path
        assert response.json()["error"]["fields"] == {"palyer": ["Unknown parameter."]}


def test_it_gives_every_operation_its_own_summary_and_description() -> None:
    operations = [
        (f"{method.upper()} {path}", operation)
        for path, item in openapi_document()["paths"].items()
        for method, operation in item.items()
    ]

    for name, operation in operations:
        assert operation.get("summary"), name
        assert operation.get("description"), name
        assert "Mixed into" not in operation["description"], name
    descriptions = [operation["description"] for _, operation in operations]
    assert len(set(descriptions)) == len(descriptions)
    summaries = [operation["summary"] for _, operation in operations]
    assert len(set(summaries)) == len(summaries)
