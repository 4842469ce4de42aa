"""Batches of analyses (jobs/batches.py): many games analysed as one job, each game's analysis
a job of its own that any worker runs, the batch showing the whole progress; games already
analysed so left out; the same results as one request per game; a failed or taken-over
analysis counted; `manage.py analyse_games`; the staff's API endpoint."""

from __future__ import annotations

import datetime
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from fourcolor.analysis import analyse
from jobs.analysis import Parameters, request_analysis
from jobs.batches import batch_progress, submit_batch
from jobs.models import Job
from jobs.lease import claim, runner_token
from jobs.runs import execute
from records.analysis import load_record
from records.models import Game, GameAnalysis, Player
from tests.analysis.fixtures import SAMPLES
from tests.api.conftest import round_text, store
from tests.worker import run_worker

pytestmark = pytest.mark.django_db

NAMES = (("An", "Bình"), ("An", "Chi"), ("Bình", "Chi"))


@pytest.fixture
def games(user: Any) -> list[int]:
    return store([round_text(60 + n, "classic", 2, names) for n, names in enumerate(NAMES)],
                 user)


def _set_up(batch: Job) -> Job:
    """Run the batch job itself (what the first worker to take it does): its analyses queued."""
    token = runner_token()
    claimed = claim(batch.pk, token)
    assert claimed is not None
    execute(claimed, token)
    batch.refresh_from_db()
    return batch


def _run_child(child: Job) -> None:
    token = runner_token()
    claimed = claim(child.pk, token)
    assert claimed is not None
    execute(claimed, token)


def test_it_analyses_the_games_as_one_job_with_a_request_per_games_results(
        games: list[int], staff: Any) -> None:
    batch = submit_batch(staff, Parameters.of(seed=3), games=games)
    assert (batch.kind, batch.status, batch.total) == ("analyses", "queued", None)
    assert not GameAnalysis.objects.exists()  # nothing done where it was asked for

    assert run_worker() == 1 + len(games)  # the batch, then each game's analysis

    batch.refresh_from_db()
    assert (batch.status, batch.total, batch.resume_at, batch.percent) == ("done", 3, 3, 100)
    assert (batch.stored, batch.duplicates, batch.refused) == (3, 0, 0)
    assert batch.report["analysed"] == 3 and batch.report["failed_games"] == []
    children = list(batch.children.order_by("pk"))
    assert [c.options for c in children] == [
        {"game": pk, "samples": SAMPLES, "seed": 3} for pk in games]
    assert all(c.kind == "analysis" and c.status == "done" for c in children)
    for pk in games:
        expected = analyse(load_record(Game.objects.get(pk=pk)), samples=SAMPLES, seed=3)
        stored = GameAnalysis.objects.get(game_id=pk)
        assert stored.result == expected.to_dict()
        assert (stored.samples, stored.seed, stored.requested_by) == (SAMPLES, 3, staff)


def test_it_shows_the_progress_as_each_analysis_ends(games: list[int]) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games))
    assert (batch.status, batch.total, batch.resume_at, batch.percent) == ("running", 3, 0, 0)

    children = list(batch.children.order_by("pk"))
    _run_child(children[0])
    batch.refresh_from_db()
    assert (batch.status, batch.resume_at, batch.stored, batch.percent) == ("running", 1, 1, 33)

    for child in children[1:]:
        _run_child(child)
    batch.refresh_from_db()
    assert (batch.status, batch.resume_at, batch.percent) == ("done", 3, 100)
    assert batch.finished_at is not None and batch.runner == ""


def test_games_already_analysed_so_are_left_out(games: list[int], user: Any) -> None:
    first, second, third = games
    request_analysis(Game.objects.get(pk=first), user, Parameters.of())
    request_analysis(Game.objects.get(pk=second), user, Parameters.of(seed=9))
    run_worker()
    GameAnalysis.objects.filter(game_id=first).update(stale=True)  # an engine upgrade
    request_analysis(Game.objects.get(pk=first), user, Parameters.of(seed=5))
    # ...and game 1's analysis with seed 5 is queued, not run yet: not queued twice.

    batch = _set_up(submit_batch(None, Parameters.of(seed=5), games=games + [second]))

    assert [c.options["game"] for c in batch.children.order_by("pk")] == [second, third]
    assert batch.report["current"] == 1  # game 1: asked for already, with these parameters
    run_worker()
    batch.refresh_from_db()
    assert (batch.status, batch.total, batch.stored, batch.duplicates) == ("done", 3, 2, 1)
    assert set(GameAnalysis.objects.values_list("seed", flat=True)) == {5}

    again = _set_up(submit_batch(None, Parameters.of(seed=5), games=games))
    assert (again.status, again.total, again.duplicates, again.stored) == ("done", 3, 3, 0)
    assert not again.children.exists()


def test_a_game_gone_is_counted_and_listed_as_failed(games: list[int]) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games))
    Game.objects.filter(pk=games[1]).delete()

    run_worker()

    batch.refresh_from_db()
    assert (batch.status, batch.stored, batch.refused, batch.resume_at) == ("done", 2, 1, 3)
    assert batch.report["failed_games"] == [
        {"game_id": games[1], "reason": "The game no longer exists."}]


def test_a_killed_workers_analysis_is_taken_over_and_the_batch_ends(games: list[int]) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games))
    child = batch.children.order_by("pk").first()
    assert child is not None
    # A worker took it and was killed -9: its lease is neither refreshed nor given back.
    Job.objects.filter(pk=child.pk).update(
        status="running", runner="elsewhere:1:dead", attempts=1,
        heartbeat_at=timezone.now() - datetime.timedelta(hours=1))

    run_worker()

    child.refresh_from_db()
    batch.refresh_from_db()
    assert (child.status, child.attempts) == ("done", 2)
    assert (batch.status, batch.stored) == ("done", 3)
    assert GameAnalysis.objects.count() == 3


def test_a_batch_run_again_queues_nothing_twice(games: list[int]) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games))
    # Its worker's lease ran out (the analyses take long): another worker takes it over.
    Job.objects.filter(pk=batch.pk).update(
        heartbeat_at=timezone.now() - datetime.timedelta(hours=1))

    assert run_worker() == 1 + 3  # the batch again, and the three analyses once each

    batch.refresh_from_db()
    assert batch.children.count() == 3
    assert (batch.status, batch.stored, batch.attempts) == ("done", 3, 2)


def test_every_game_of_a_player_the_newest_first(games: list[int]) -> None:
    chi = Player.objects.get(name="Chi")
    batch = _set_up(submit_batch(None, Parameters.of(), player=chi.pk, limit=1))
    assert [c.options["game"] for c in batch.children.all()] == [games[2]]

    everything = _set_up(submit_batch(None, Parameters.of()))
    assert sorted(c.options["game"] for c in everything.children.all()) == games[:2]
    assert everything.report["current"] == 1  # the third, queued by the batch before


def test_given_ids_are_looked_up_a_chunk_at_a_time(games: list[int]) -> None:
    # 40,000 ids of games that do not exist: in one statement, more parameters than SQLite
    # takes when built with its default limit (32,766; Debian's allows 250,000).
    absent = list(range(10**6, 10**6 + 40_000))

    batch = submit_batch(None, Parameters.of(), games=[*absent, *games])
    with CaptureQueriesContext(connection) as queries:
        _set_up(batch)

    longest = max(sql.count("%s") + sql.count("?") + sql.count(",") for sql in
                  (q["sql"] for q in queries.captured_queries))
    assert longest < 5_000

    assert sorted(c.options["game"] for c in batch.children.all()) == games
    assert (batch.status, batch.total, batch.report["last_game"]) == ("running", 3, absent[-1])


def test_a_limit_keeps_the_newest_of_the_given_games(games: list[int]) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games, limit=2))

    assert batch.options["games"] == games[1:]
    assert sorted(c.options["game"] for c in batch.children.all()) == games[1:]


def test_an_empty_batch_is_done_at_once() -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=[]))
    assert (batch.status, batch.total, batch.percent) == ("done", 0, 100)
    assert batch_progress(batch.pk) is False  # ended once


def test_with_a_broker_the_batch_and_its_analyses_go_to_celery(
        games: list[int], held_jobs: list[Job]) -> None:
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/6"):
        batch = submit_batch(None, Parameters.of(), games=games)
        assert held_jobs == [batch]
        _set_up(batch)
    assert held_jobs[1:] == list(batch.children.order_by("pk"))


def test_a_games_replay_answer_shows_its_own_analysis_job(
        games: list[int], api: Any) -> None:
    batch = _set_up(submit_batch(None, Parameters.of(), games=games))
    child = batch.children.get(options__game=games[0])

    response = api.get(f"/api/v1/games/{games[0]}/analysis/")

    assert response.status_code == 202
    assert response.json()["job"]["id"] == child.pk


def test_with_the_setting_the_stored_games_are_one_batch(user: Any) -> None:
    with override_settings(ANALYSIS_ON_UPLOAD=True):
        ids = store([round_text(seed, "classic", 2, ("An", "Bình")) for seed in (41, 42)], user)

    (batch,) = Job.objects.filter(kind="analyses")
    assert batch.options == {"samples": SAMPLES, "seed": 0, "games": ids}
    run_worker()
    batch.refresh_from_db()
    assert (batch.status, batch.stored) == ("done", 2)
    assert GameAnalysis.objects.count() == 2


# ----------------------------------------------------------------------------- the command


def test_it_the_command_queues_a_batch(games: list[int]) -> None:
    out = StringIO()
    call_command("analyse_games", *map(str, games[:2]), "--seed", "4", stdout=out)

    batch = Job.objects.get(kind="analyses")
    assert f"batch job {batch.pk} queued" in out.getvalue()
    assert (batch.status, batch.options) == (
        "queued", {"samples": SAMPLES, "seed": 4, "games": games[:2]})


def test_it_the_command_runs_a_batch_here(games: list[int]) -> None:
    out = StringIO()
    call_command("analyse_games", "--run", "--player", "an", stdout=out)

    batch = Job.objects.get(kind="analyses")
    assert (batch.status, batch.stored) == ("done", 2)
    assert f"batch job {batch.pk}: 2 games analysed, 0 already analysed or queued so, 0 failed" in \
        out.getvalue()
    assert set(GameAnalysis.objects.values_list("game_id", flat=True)) == set(games[:2])


@pytest.mark.parametrize(("args", "message"), [
    (["--player", "Nobody"], "no player named 'Nobody'"),
    (["--samples", "0"], "samples must be between 1 and 50, not 0"),
    (["--limit", "0"], "--limit must be between 1 and 2147483647"),
    (["--limit", str(2**63)], "--limit must be between 1 and 2147483647"),
    (["3", str(2**63)], f"no game can have the id {2**63}"),
    (["0"], "no game can have the id 0"),
])
def test_it_the_command_refuses_bad_options(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("analyse_games", *args)
    assert not Job.objects.exists()


# ----------------------------------------------------------------------------- the API


@pytest.fixture(scope="module")
def checker() -> Any:
    from tests.api.openapi import ResponseChecker, openapi_document

    return ResponseChecker(openapi_document())


def test_it_lets_staff_analyse_games_through_the_api(
        client_for: Any, staff: Any, games: list[int], checker: Any) -> None:
    client = client_for(staff)

    response = client.post("/api/v1/jobs/analyse/", {"games": games[:2], "seed": 2},
                           format="json")

    assert response.status_code == 202
    body = response.json()
    checker.check("/api/v1/jobs/analyse/", "post", 202, "application/json", body)
    assert response["Location"] == body["url"]
    assert (body["kind"], body["status"]) == ("analyses", "queued")
    assert body["analyses_report"] == {"analysed": 0, "current": 0, "failed": 0,
                                       "failed_games": [], "samples": SAMPLES, "seed": 2}
    run_worker()
    path = response["Location"].removeprefix("http://testserver")
    body = client.get(path).json()
    checker.check(path, "get", 200, "application/json", body)
    assert (body["status"], body["total"], body["stored"], body["percent"]) == ("done", 2, 2, 100)
    assert body["analyses_report"]["analysed"] == 2
    assert set(GameAnalysis.objects.values_list("game_id", "seed")) == {
        (games[0], 2), (games[1], 2)}


def test_it_analyses_a_players_newest_games_through_the_api(
        client_for: Any, staff: Any, games: list[int]) -> None:
    chi = Player.objects.get(name="Chi")

    response = client_for(staff).post("/api/v1/jobs/analyse/",
                                      {"player": chi.pk, "limit": 1}, format="json")

    assert response.status_code == 202
    run_worker()
    assert list(GameAnalysis.objects.values_list("game_id", flat=True)) == [games[2]]


@pytest.mark.parametrize(("who", "status"), [("user", 403), ("anonymous", 401)])
def test_it_refuses_a_batch_to_everyone_but_staff(
        client_for: Any, user: Any, who: str, status: int) -> None:
    response = client_for(user if who == "user" else None).post(
        "/api/v1/jobs/analyse/", {}, format="json")

    assert response.status_code == status
    assert not Job.objects.exists()


@pytest.mark.parametrize(("data", "field"), [
    ({"samples": 0}, "samples"),
    ({"samples": 51}, "samples"),
    ({"games": [0]}, "games"),
    ({"games": "1,2"}, "games"),
    ({"player": 999_999}, "player"),
    ({"limit": 0}, "limit"),
    ({"seed": 2**63}, "seed"),
    ({"sample": 3}, "sample"),
])
def test_it_refuses_an_invalid_batch_option(
        client_for: Any, staff: Any, data: dict[str, Any], field: str, checker: Any) -> None:
    response = client_for(staff).post("/api/v1/jobs/analyse/", data, format="json")

    assert response.status_code == 400
    checker.check("/api/v1/jobs/analyse/", "post", 400, "application/json", response.json())
    assert field in str(response.json()["error"])
    assert not Job.objects.exists()


# ----------------------------------------------------------------------------- the web page


def test_it_the_batchs_page_follows_it_and_lists_the_games_not_analysed(
        client_for: Any, staff: Any, games: list[int]) -> None:
    from django.test import Client

    from tests.web.dom import parse

    client = Client()
    client.force_login(staff)
    batch = _set_up(submit_batch(staff, Parameters.of(seed=1), games=games))

    waiting = client.get(f"/jobs/{batch.pk}/")

    assert waiting.status_code == 200 and b"js/job.js" in waiting.content
    page = parse(waiting.content)
    assert page.find("h1").words() == f"Batch of analyses {batch.pk}"
    assert page.find("span", **{"data-field": "total"}).text() == "3"
    assert page.find("p", "job__progress").words().endswith("0 / 3 games")
    assert f"{SAMPLES} simulated playouts per option, seed 1" in page.words()

    Game.objects.filter(pk=games[0]).delete()
    run_worker()
    done = parse(client.get(f"/jobs/{batch.pk}/").content)
    counts = {strong.attrs["data-count"]: strong.text()
              for strong in done.find("ul", "summary").find_all("strong")}
    assert counts == {"analysed": "2", "current": "0", "failed": "1"}
    assert [li.words() for li in done.find("ul", "job__details").find_all("li")] == [
        f"Game #{games[0]}: The game no longer exists."]
    assert b"js/job.js" not in client.get(f"/jobs/{batch.pk}/").content


@pytest.mark.parametrize("language", ["zh-hant", "vi"])
def test_it_the_batchs_page_speaks_the_readers_language(
        staff: Any, games: list[int], language: str) -> None:
    from django.test import Client

    client = Client(headers={"accept-language": language})
    client.force_login(staff)
    batch = submit_batch(staff, Parameters.of(), games=games)

    text = client.get(f"/jobs/{batch.pk}/").content.decode()

    assert "Batch of analyses" not in text and "already analysed so" not in text
    assert "games analysed" not in text


def test_the_analyses_go_on_the_queue_the_batch_came_by(
        games: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[int, str | None]] = []
    monkeypatch.setattr("jobs.publish.enqueue",
                        lambda job, queue=None: sent.append((job.pk, queue)))
    monkeypatch.setattr("jobs.batches.current_queue", lambda: "analyses-only")
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/6"):
        batch = _set_up(submit_batch(None, Parameters.of(), games=games))

    assert sent == [(batch.pk, None)] + [(c.pk, "analyses-only")
                                        for c in batch.children.order_by("pk")]


@pytest.mark.parametrize("data", [
    {"player": 2**63}, {"player": 2**70}, {"games": [2**63]}, {"limit": 2**63},
    {"games": [1] * 100_001},
])
def test_it_refuses_numbers_out_of_range_with_a_400(
        client_for: Any, staff: Any, data: dict[str, Any]) -> None:
    response = client_for(staff).post("/api/v1/jobs/analyse/", data, format="json")

    assert response.status_code == 400
    assert not Job.objects.exists()


# ----------------------------------------------------------------------------- uploads


def test_with_the_setting_an_upload_job_queues_what_it_stored(
        user: Any, other_user: Any, settings: Any) -> None:
    from jobs.queue import submit_upload

    settings.BACKGROUND_IMPORT_MIN_BYTES = 10  # a background job, run by the worker
    settings.ANALYSIS_ON_UPLOAD = True
    texts = [round_text(80 + n, "classic", 2, ("An", "Bình")) for n in range(3)]
    data = "\n".join([*texts, texts[0]]).encode()
    job = submit_upload(data, user, "three.fcn", size=len(data)).job
    # Another user's upload stored meanwhile: not his to analyse.
    store([round_text(90, "classic", 2, ("Chi", "Dũng"))], other_user)

    run_worker()

    job.refresh_from_db()
    mine = set(Game.objects.filter(uploaded_by=user).values_list("pk", flat=True))
    assert (job.status, job.stored, job.duplicates, len(mine)) == ("done", 3, 1, 3)
    # Two batches: the upload job's, and the one import_records' signal made for the other
    # user's game (stored the way `import_games` stores).
    batch, theirs = sorted(Job.objects.filter(kind="analyses"),
                           key=lambda b: "upload" not in b.options)
    assert batch.options["upload"]["job"] == job.pk and batch.created_by == user
    assert (batch.status, batch.total, batch.stored) == ("done", 3, 3)
    assert sorted(c.options["game"] for c in batch.children.all()) == sorted(mine)
    assert theirs.options["games"] == list(
        Game.objects.filter(uploaded_by=other_user).values_list("pk", flat=True))


def test_without_the_setting_an_upload_job_queues_no_analysis(user: Any, settings: Any) -> None:
    from jobs.queue import submit_upload

    data = round_text(85, "classic", 2, ("An", "Bình")).encode()
    submit_upload(data, user, "one.fcn", size=len(data))

    run_worker()

    assert not Job.objects.filter(kind__in=["analysis", "analyses"]).exists()
    assert Game.objects.count() == 1


def test_the_uploader_follows_the_analyses_from_the_uploads_page(
        user: Any, client_for: Any, settings: Any) -> None:
    from django.test import Client

    from jobs.queue import submit_upload
    from tests.web.dom import parse

    settings.BACKGROUND_IMPORT_MIN_BYTES = 10
    settings.ANALYSIS_ON_UPLOAD = True
    settings.ANALYSIS_REQUESTS_PER_HOUR = 1
    data = "\n".join(round_text(95 + n, "classic", 2, ("An", "Bình")) for n in range(2)).encode()
    job = submit_upload(data, user, "two.fcn", size=len(data)).job
    web = Client()
    web.force_login(user)

    # The import first (the worker's first job), the batch then queued.
    token = runner_token()
    claimed = claim(job.pk, token)
    assert claimed is not None
    execute(claimed, token)
    page = parse(web.get(f"/upload/{job.pk}/").content)
    notice = page.find("p", **{"data-field": "analyses"})
    batch = Job.objects.get(kind="analyses")
    assert notice.words() == ("The stored games are being analysed in the background. "
                              "The analyses’ job")
    assert notice.find("a").attrs["href"] == f"/jobs/{batch.pk}/"
    assert web.get(f"/jobs/{batch.pk}/").status_code == 200  # his to see

    run_worker()
    page = parse(web.get(f"/jobs/{job.pk}/").content)
    assert page.find("p", **{"data-field": "analyses"}).words().startswith(
        "The stored games have been analysed.")
    # The batch's two analyses were not his requests: his hourly one is still there.
    game = Game.objects.filter(uploaded_by=user).first()
    assert request_analysis(game, user, Parameters.of(seed=8)).created
    # His job list: the upload, the batch and his request, not the batch's analyses.
    listed = client_for(user).get("/api/v1/jobs/").json()["results"]
    assert [j["kind"] for j in listed] == ["analysis", "analyses", "import"]
