"""Analysis jobs: a game's every decision rated by the engine (`fourcolor.analysis`) in the
background. `request_analysis` (the replay page, `POST /api/v1/games/{id}/analysis/`) answers
with the stored analysis when it is current, with the job queued or running for the game, or
else queues one. A job cut short starts again from the first decision: the analysis is
deterministic for its seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

import fourcolor
from fourcolor.analysis import analyse
from common.rates import limit
from jobs import publish
from jobs.lease import finish, update
from jobs.models import Job, creator
from records.analysis import load_record, store_analysis
from records.models import Game, GameAnalysis

# Decisions rated between two progress reports (each report is one short UPDATE).
PROGRESS_EVERY = 5
ACTIVE = (Job.Status.QUEUED, Job.Status.RUNNING)


@dataclass(frozen=True)
class Parameters:
    samples: int
    seed: int

    @classmethod
    def of(cls, samples: int | None = None, seed: int | None = None) -> Parameters:
        """The request's parameters, the settings' defaults for those it leaves out. Raises
        ValueError for a sample count outside 1..ANALYSIS_MAX_SAMPLES."""
        count = default_samples() if samples is None else samples
        if not 1 <= count <= max_samples():
            raise ValueError(f"samples must be between 1 and {max_samples()}, not {count}")
        return cls(count, 0 if seed is None else seed)

    def as_options(self, game_id: int) -> dict[str, int]:
        return {"game": game_id, "samples": self.samples, "seed": self.seed}

    def current(self) -> dict[str, Any]:
        """The fields of a stored analysis that answers a request for these parameters with
        this engine (a GameAnalysis filter)."""
        return {"stale": False, "engine_version": fourcolor.__version__,
                "samples": self.samples, "seed": self.seed}


def default_samples() -> int:
    return int(settings.ANALYSIS_SAMPLES)


def max_samples() -> int:
    return int(settings.ANALYSIS_MAX_SAMPLES)


# ----------------------------------------------------------------------------- queries


def last_job(game_id: int, *, active: bool = False) -> Job | None:
    """The game's newest analysis job (only one queued or running, with `active`)."""
    jobs = Job.objects.filter(kind=Job.Kind.ANALYSIS, options__game=game_id)
    if active:
        jobs = jobs.filter(status__in=ACTIVE)
    return jobs.order_by("-created_at", "-pk").first()


def active_job(game_id: int) -> Job | None:
    """The analysis job queued or running for the game, if any (the newest)."""
    return last_job(game_id, active=True)


# ----------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class Answer:
    """What a request for an analysis got: the stored analysis (nothing to do), or the job
    that will make it (`created`: this request queued it)."""

    analysis: GameAnalysis | None
    job: Job | None
    created: bool = False


def check_rate(user: Any, wanted: int = 1) -> None:
    """Count `wanted` analyses asked for by `user` in the site's one limiter (scope
    `analysis`, common.rates): RateLimited when over it. Staff are not limited. Counted only
    when a request queues work: his requests for one game, and the games of the batches he
    asks for (a match's rounds, `jobs.batches.request_batch`); not the batch
    ANALYSIS_ON_UPLOAD queues for his upload."""
    if getattr(user, "is_staff", False):
        return
    limit("analysis", f"throttle_analysis_{getattr(user, 'pk', None)}", cost=wanted)


def request_analysis(game: Game, user: Any, params: Parameters) -> Answer:
    """Answer a request to analyse `game` with `params` (see the module's docstring). Raises
    RateLimited when the user is over his analyses and a new job would be needed."""
    with transaction.atomic():
        # One request per game at a time decides (the game row is the lock): two readers
        # pressing the button together get the same job, never two.
        if not Game.objects.select_for_update().filter(pk=game.pk).exists():
            raise Game.DoesNotExist(f"No game {game.pk}.")
        stored = GameAnalysis.objects.filter(game_id=game.pk).first()
        if stored is not None and all(getattr(stored, name) == value
                                      for name, value in params.current().items()):
            return Answer(stored, None)
        running = active_job(game.pk)
        if running is not None:
            return Answer(stored, running)
        check_rate(user)
        job = Job.objects.create(kind=Job.Kind.ANALYSIS, created_by=creator(user),
                                 options=params.as_options(game.pk))
    # To Celery's workers, or left in the job table for the database worker: never run here
    # (an analysis takes seconds, and this is a request).
    publish.enqueue(job)
    job.refresh_from_db()
    return Answer(stored, job, created=True)


# ----------------------------------------------------------------------------- the run


def run_analysis(job: Job, token: str) -> None:
    """Analyse the job's game, every seat, and store the result (the job's runner)."""
    options = job.options or {}
    game = Game.objects.only("pk", "canonical_text", "players").filter(
        pk=options.get("game")).first()
    if game is None:
        finish(job, token, Job.Status.FAILED, error="The game no longer exists.")
        return
    record = load_record(game)
    started = time.monotonic()
    last_report = [0]

    def progress(done: int, total: int) -> None:
        if done == total or done - last_report[0] >= PROGRESS_EVERY:
            last_report[0] = done
            update(job, token, total=total, resume_at=done, seen=done)

    analysis = analyse(
        record, samples=int(options["samples"]), seed=int(options["seed"]), progress=progress
    )
    try:
        store_analysis(game.pk, analysis, seconds=time.monotonic() - started,
                       requested_by=job.created_by)
    except Game.DoesNotExist:
        finish(job, token, Job.Status.FAILED, error="The game was deleted during its analysis.")
        return
    decisions = len(analysis.decisions)
    finish(job, token, Job.Status.DONE, total=decisions, resume_at=decisions, seen=decisions,
            stored=1)
