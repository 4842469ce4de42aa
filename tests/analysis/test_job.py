"""Analysis jobs: queued by a request, run by the worker, progress counted in decisions, the
result stored with its parameters; a request that is already answered queues nothing; the
optional analysis of every upload."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from fourcolor.analysis import analyse
from common.rates import RateLimited
from jobs.analysis import Parameters, request_analysis
from jobs.models import Job
from records.analysis import load_record
from records.models import Game, GameAnalysis
from tests.api.conftest import round_text, store

from tests.analysis.fixtures import SAMPLES, run_queued

pytestmark = pytest.mark.django_db


def test_a_request_queues_a_job_that_the_worker_runs(
    game_id: int, user: Any, held_jobs: list[Job]
) -> None:
    answer = request_analysis(Game.objects.get(pk=game_id), user, Parameters.of(seed=7))

    assert answer.created and answer.analysis is None
    job = answer.job
    # No broker (the default): nothing is handed to Celery, the job waits in the table.
    assert job is not None and held_jobs == []
    assert (job.kind, job.status, job.created_by) == ("analysis", "queued", user)
    assert job.options == {"game": game_id, "samples": SAMPLES, "seed": 7}
    assert not GameAnalysis.objects.exists()  # nothing done in the request

    assert run_queued() == 1

    job.refresh_from_db()
    stored = GameAnalysis.objects.get(game_id=game_id)
    expected = analyse(load_record(Game.objects.get(pk=game_id)), samples=SAMPLES, seed=7)
    assert stored.result == expected.to_dict()
    assert (stored.samples, stored.seed, stored.requested_by) == (SAMPLES, 7, user)
    assert (job.status, job.total, job.resume_at, job.percent) == (
        "done", len(expected.decisions), len(expected.decisions), 100)


def test_it_reports_progress_in_decisions(
    game_id: int, user: Any, held_jobs: list[Job], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int | None]] = []
    import jobs.analysis

    real = jobs.analysis.analyse

    def watched(record: Any, **kwargs: Any) -> Any:
        progress = kwargs["progress"]

        def spy(done: int, total: int) -> None:
            progress(done, total)
            job = Job.objects.get()
            seen.append((job.resume_at, job.total))

        return real(record, **{**kwargs, "progress": spy})

    monkeypatch.setattr(jobs.analysis, "analyse", watched)
    request_analysis(Game.objects.get(pk=game_id), user, Parameters.of())
    run_queued()

    total = Job.objects.get().total
    assert total and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert len({done for done, _ in seen}) > 1  # it moved while running


def test_a_current_analysis_answers_without_a_job(
    game_id: int, user: Any, held_jobs: list[Job]
) -> None:
    game = Game.objects.get(pk=game_id)
    request_analysis(game, user, Parameters.of())
    run_queued()

    again = request_analysis(game, user, Parameters.of())

    assert again.job is None and again.analysis is not None
    assert Job.objects.count() == 1


def test_other_parameters_or_a_stale_analysis_queue_a_new_job(
    game_id: int, user: Any, held_jobs: list[Job]
) -> None:
    game = Game.objects.get(pk=game_id)
    request_analysis(game, user, Parameters.of())
    run_queued()

    assert request_analysis(game, user, Parameters.of(seed=1)).created
    run_queued()
    GameAnalysis.objects.update(stale=True)
    assert request_analysis(game, user, Parameters.of(seed=1)).created
    assert Job.objects.count() == 3


def test_a_second_request_while_queued_gets_the_same_job(
    game_id: int, user: Any, other_user: Any, held_jobs: list[Job]
) -> None:
    game = Game.objects.get(pk=game_id)
    first = request_analysis(game, user, Parameters.of())

    second = request_analysis(game, other_user, Parameters.of(seed=5))

    assert not second.created and second.job == first.job
    assert Job.objects.count() == 1


def test_a_user_is_limited_per_hour(
    user: Any, staff: Any, held_jobs: list[Job]
) -> None:
    ids = store([round_text(seed, "classic", 2, ("An", "Bình")) for seed in range(20, 24)])
    with override_settings(ANALYSIS_REQUESTS_PER_HOUR=3):
        for pk in ids[:3]:
            request_analysis(Game.objects.get(pk=pk), user, Parameters.of())
        with pytest.raises(RateLimited) as refused:
            request_analysis(Game.objects.get(pk=ids[3]), user, Parameters.of())
        assert 3500 < refused.value.retry_after <= 3601
        # Staff are not limited.
        assert request_analysis(Game.objects.get(pk=ids[3]), staff, Parameters.of()).created


def test_it_refuses_a_sample_count_above_the_limit() -> None:
    with pytest.raises(ValueError, match="samples must be between 1 and 50"):
        Parameters.of(samples=51)
    with pytest.raises(ValueError):
        Parameters.of(samples=0)


def test_a_game_deleted_before_its_turn_fails_the_job_with_a_reason(
    game_id: int, user: Any, held_jobs: list[Job]
) -> None:
    request_analysis(Game.objects.get(pk=game_id), user, Parameters.of())
    Game.objects.filter(pk=game_id).delete()

    run_queued()

    job = Job.objects.get()
    assert (job.status, job.error) == ("failed", "The game no longer exists.")


def test_uploads_are_not_analysed_by_default(user: Any, held_jobs: list[Job]) -> None:
    store([round_text(40, "classic", 2, ("An", "Bình"))], user)

    assert not Job.objects.filter(kind="analysis").exists()


def test_with_a_broker_the_job_goes_to_celery(
    game_id: int, user: Any, held_jobs: list[Job]
) -> None:
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/6"):
        answer = request_analysis(Game.objects.get(pk=game_id), user, Parameters.of())

    assert held_jobs == [answer.job]
    assert Job.objects.get().status == "queued"
