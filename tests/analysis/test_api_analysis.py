"""GET/POST /api/v1/games/{id}/analysis/: 404 before any request, 202 with the job while it is
queued or running, 200 with the result; POST for signed-in users only, its parameters checked;
every answer true to the OpenAPI schema."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

import fourcolor
from jobs.models import Job
from records.models import Game, GameAnalysis, GameSeat
from tests.api.openapi import ResponseChecker, openapi_document

from tests.analysis.fixtures import SAMPLES, run_queued

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]


@pytest.fixture(scope="module")
def checker() -> ResponseChecker:
    return ResponseChecker(openapi_document())


def url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/analysis/"


def _checked(checker: ResponseChecker, response: Any, method: str, path: str) -> Any:
    body = response.json()
    checker.check(path, method, response.status_code, "application/json", body)
    return body


def test_it_is_404_before_anyone_asks(
    game_id: int, api: APIClient, checker: ResponseChecker
) -> None:
    response = api.get(url(game_id))

    assert response.status_code == 404
    body = _checked(checker, response, "get", url(game_id))
    assert "has not been analysed" in body["error"]["message"]


def test_an_unknown_game_is_404(api: APIClient, client_for: Clients, user: Any, db: None) -> None:
    assert api.get(url(999999)).status_code == 404
    assert client_for(user).post(url(999999), {}, format="json").status_code == 404


def test_post_queues_a_job_and_get_follows_it_to_the_result(
    game_id: int, client_for: Clients, user: Any, api: APIClient, checker: ResponseChecker,
    held_jobs: list[Job],
) -> None:
    response = client_for(user).post(url(game_id), {"seed": 3}, format="json")

    assert response.status_code == 202
    body = _checked(checker, response, "post", url(game_id))
    job = Job.objects.get()
    assert response["Location"] == f"http://testserver{url(game_id)}"
    assert response["Retry-After"] == "2"
    assert body["status"] == "queued" and body["result"] is None
    assert body["job"] | {"url": None} == {
        "id": job.pk, "url": None, "status": "queued", "done": 0, "total": None,
        "percent": None, "samples": SAMPLES, "seed": 3, "error": "",
    }

    waiting = api.get(url(game_id))
    assert waiting.status_code == 202
    assert _checked(checker, waiting, "get", url(game_id))["job"]["id"] == job.pk

    run_queued()
    done = api.get(url(game_id))

    assert done.status_code == 200
    result = _checked(checker, done, "get", url(game_id))
    assert result["status"] == "done" and result["job"] is None
    stored = GameAnalysis.objects.get()
    assert result["result"]["decisions"] == stored.result["decisions"]
    assert (result["result"]["engine"], result["result"]["samples"], result["result"]["seed"],
            result["result"]["stale"]) == (fourcolor.__version__, SAMPLES, 3, False)
    names = dict(GameSeat.objects.filter(game_id=game_id).values_list("seat", "name"))
    for seat, summary in result["result"]["seats"].items():
        engine = stored.result["seats"][seat]
        assert summary["decisions"] == engine["decisions"]
        assert summary["accuracy"] == pytest.approx(engine["accuracy"], abs=1e-3)
        assert summary["mean_loss"] == pytest.approx(engine["mean_loss"], abs=1e-3)
        assert summary["player"]["name"] == names[int(seat)]


def test_a_running_job_shows_its_progress(
    game_id: int, client_for: Clients, user: Any, api: APIClient, held_jobs: list[Job]
) -> None:
    client_for(user).post(url(game_id), {}, format="json")
    Job.objects.update(status="running", total=40, resume_at=10)

    body = api.get(url(game_id)).json()

    assert body["status"] == "running"
    assert (body["job"]["done"], body["job"]["total"], body["job"]["percent"]) == (10, 40, 25)


def test_post_when_already_analysed_so_answers_200_and_queues_nothing(
    game_id: int, client_for: Clients, user: Any, checker: ResponseChecker,
    held_jobs: list[Job],
) -> None:
    client = client_for(user)
    client.post(url(game_id), {}, format="json")
    run_queued()

    again = client.post(url(game_id), {}, format="json")

    assert again.status_code == 200
    assert _checked(checker, again, "post", url(game_id))["result"]["seed"] == 0
    assert Job.objects.count() == 1


def test_a_reanalysis_keeps_the_old_result_visible_with_the_new_job(
    game_id: int, client_for: Clients, user: Any, api: APIClient, held_jobs: list[Job]
) -> None:
    client = client_for(user)
    client.post(url(game_id), {}, format="json")
    run_queued()

    again = client.post(url(game_id), {"seed": 9}, format="json")
    shown = api.get(url(game_id))

    assert again.status_code == 202
    assert shown.status_code == 200
    body = shown.json()
    assert body["result"]["seed"] == 0 and body["job"]["seed"] == 9


def test_a_failed_first_analysis_says_why(
    game_id: int, client_for: Clients, user: Any, api: APIClient, held_jobs: list[Job]
) -> None:
    client_for(user).post(url(game_id), {}, format="json")
    Job.objects.update(status="failed", error="database unavailable")

    response = api.get(url(game_id))

    assert response.status_code == 404
    assert "failed (database unavailable)" in response.json()["error"]["message"]


def test_anonymous_requests_are_refused(game_id: int, api: APIClient) -> None:
    response = api.post(url(game_id), {}, format="json")

    assert response.status_code == 401
    assert not Job.objects.exists()


@pytest.mark.parametrize(("data", "field"), [
    ({"sample": 8}, "sample"),
    ({"samples": 0}, "samples"),
    ({"samples": 51}, "samples"),
    ({"samples": "many"}, "samples"),
    ({"seed": 2**63}, "seed"),
])
def test_bad_parameters_are_a_400_naming_them(
    game_id: int, client_for: Clients, user: Any, checker: ResponseChecker,
    data: dict[str, Any], field: str,
) -> None:
    response = client_for(user).post(url(game_id), data, format="json")

    assert response.status_code == 400
    assert field in _checked(checker, response, "post", url(game_id))["error"]["fields"]
    assert not Job.objects.exists()


def test_unknown_query_parameters_are_refused(game_id: int, api: APIClient) -> None:
    assert api.get(url(game_id) + "?seat=1").status_code == 400


def test_over_the_hourly_limit_is_a_429_with_retry_after(
    client_for: Clients, user: Any, held_jobs: list[Job], checker: ResponseChecker
) -> None:
    from tests.api.conftest import round_text, store

    ids = store([round_text(seed, "classic", 2, ("An", "Bình")) for seed in (50, 51)])
    client = client_for(user)
    with override_settings(ANALYSIS_REQUESTS_PER_HOUR=1):
        assert client.post(url(ids[0]), {}, format="json").status_code == 202
        refused = client.post(url(ids[1]), {}, format="json")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 3500
    _checked(checker, refused, "post", url(ids[1]))
    assert Game.objects.count() == 2 and Job.objects.count() == 1


def test_a_body_that_is_not_an_object_is_refused(
    game_id: int, client_for: Clients, user: Any
) -> None:
    client = client_for(user)

    number = client.post(url(game_id), "-6.6e16", content_type="application/json")
    form = client.post(url(game_id), "-6.6e16", content_type="application/x-www-form-urlencoded")
    multipart = client.post(url(game_id), {"samples": "8"}, format="multipart")

    assert (number.status_code, form.status_code, multipart.status_code) == (400, 400, 415)
    assert not Job.objects.exists()
