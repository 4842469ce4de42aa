"""Batches of analyses: many games analysed as one job (`Job.Kind.ANALYSES`), on every worker.

The batch's run picks the games (ids, every game, a player's, or what an upload stored, up to
a limit), leaves out those analysed with this engine, samples and seed already, and queues one
analysis job per game left, its `batch` pointing back: any worker takes them. Every time one
ends, the batch's counts are taken again from its analyses' rows (`batch_progress`), and the
last one ends the batch. Each analysis is the job the replay page asks for, taken over like any
job when its worker dies (from its first decision: the result is deterministic for its seed).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from jobs.analysis import ACTIVE, Parameters, check_rate
from jobs.lease import update
from jobs.models import Job, creator
from jobs import publish
from jobs.publish import current_queue, uses_celery
from records.models import Game, GameAnalysis, Match

# Analysis jobs created per transaction while a batch is set up.
CREATE_CHUNK = 1000
# Failed games listed in a batch's report (all are counted).
MAX_FAILED = 100


def create_batch(user: Any, params: Parameters, *, games: Iterable[int] | None = None,
                 player: int | None = None, limit: int | None = None,
                 upload: Job | None = None, match: int | None = None) -> Job:
    """A queued batch of analyses: of `games` (ids), or else of every game; a `player`'s
    only (given his id); the games an `upload` job stored; the `limit` newest (highest ids)
    at most. Only the ids are kept here: the batch's run looks the games up (a selection may
    be the whole archive). `match`: the match whose rounds `games` are, for the batch's page
    to link back to (it selects nothing)."""
    options: dict[str, Any] = {"samples": params.samples, "seed": params.seed}
    if match is not None:
        options["match"] = int(match)
    if upload is not None:
        # What the upload stored: the games its uploader stored from its start until now
        # (its report lists only the first 1,000 records; uploads are signed in).
        options["upload"] = {"job": upload.pk, "uploaded_by": upload.created_by_id,
                             "since": (upload.started_at or upload.created_at).isoformat(),
                             "until": timezone.now().isoformat()}
    if games is not None:
        ids = sorted(set(int(pk) for pk in games))
        options["games"] = ids[-limit:] if limit is not None else ids
    if player is not None:
        options["player"] = int(player)
    if limit is not None:
        options["limit"] = int(limit)
    return Job.objects.create(
        kind=Job.Kind.ANALYSES,
        created_by=creator(user),
        options=options,
    )


def submit_batch(user: Any, params: Parameters, **selection: Any) -> Job:
    """Create a batch (`create_batch`) and hand it to the workers."""
    job = create_batch(user, params, **selection)
    publish.enqueue(job)
    return job


def analysis_states(ids: Iterable[int], params: Parameters, *,
                    match: int | None = None) -> tuple[set[int], set[int]]:
    """Of these games: those analysed with `params` already (`current_games`), and the others
    whose analysis with `params` is queued or running, by anyone; with `match`, also those in
    a batch of that match's rounds still running (its analyses are queued only once it
    runs)."""
    wanted = sorted({int(pk) for pk in ids})
    current = current_games(wanted, params)
    queued = queued_games(wanted, params)
    if match is not None:
        queued |= match_batch_games(match, params) & set(wanted)
    return current, queued - current


def match_batch_games(match: int, params: Parameters) -> set[int]:
    """The games of the batches of a match's rounds (`request_batch`) with `params` that are
    still queued or running."""
    batches = Job.objects.filter(
        kind=Job.Kind.ANALYSES, status__in=ACTIVE, options__match=match,
        options__samples=params.samples, options__seed=params.seed,
    ).values_list("options__games", flat=True)
    return {int(pk) for games in batches for pk in games or ()}


def request_batch(user: Any, params: Parameters, games: Iterable[int], *,
                  match: int | None = None) -> Job | None:
    """A signed-in reader's request for many games' analyses at once (a match's rounds): a
    batch of those not analysed or queued yet (None when there is none), counted against his
    hourly requests game by game (`check_rate`: RateLimited when over them)."""
    with transaction.atomic():
        if match is not None:
            # One request per match at a time decides (the match row is the lock): two
            # readers pressing the button together get one batch, the second nothing.
            Match.objects.select_for_update().filter(pk=match).exists()
        wanted = {int(pk) for pk in games}
        current, queued = analysis_states(wanted, params, match=match)
        todo = sorted(wanted - current - queued)
        if not todo:
            return None
        check_rate(user, len(todo))
        job = create_batch(user, params, games=todo, match=match)
    publish.enqueue(job)
    return job


def selected_chunks(job: Job, after: int) -> Iterator[tuple[list[int], int]]:
    """The batch's games with ids above `after`, in id order, a chunk at a time: each chunk's
    games (before those already analysed are left out) and the id the next chunk starts
    after. Given ids are looked up CREATE_CHUNK at a time (one statement with 100,000
    parameters is more than SQLite takes); the `limit` newest of every game start at the
    limit-th highest id."""
    options = job.options or {}
    games = Game.objects.all()
    if "upload" in options:
        upload = options["upload"]
        games = games.filter(uploaded_by_id=upload["uploaded_by"],
                             uploaded_at__gte=datetime.fromisoformat(upload["since"]),
                             uploaded_at__lte=datetime.fromisoformat(upload["until"]))
    if "player" in options:
        games = games.filter(seats__player_id=options["player"]).distinct()
    if "games" in options:
        ids = [pk for pk in options["games"] if pk > after]
        for start in range(0, len(ids), CREATE_CHUNK):
            part = ids[start:start + CREATE_CHUNK]
            found = games.filter(pk__in=part).order_by("pk").values_list("pk", flat=True)
            yield list(found), part[-1]
        return
    if "limit" in options:
        limit = int(options["limit"])
        edge = list(games.order_by("-pk").values_list("pk", flat=True)[limit - 1:limit])
        if edge:
            games = games.filter(pk__gte=edge[0])
    games = games.order_by("pk")
    while chunk := list(games.filter(pk__gt=after).values_list("pk", flat=True)
                        [:CREATE_CHUNK]):
        after = chunk[-1]
        yield chunk, after


def current_games(ids: list[int], params: Parameters) -> set[int]:
    """Of these games, those whose stored analysis answers a request for `params`."""
    return set(GameAnalysis.objects.filter(game_id__in=ids, **params.current())
               .values_list("game_id", flat=True))


def queued_games(ids: list[int], params: Parameters, batch: Job | None = None) -> set[int]:
    """Of these games, those whose analysis with `params` is queued or running already (a
    reader asked for it, or another batch than `batch`): not asked for twice."""
    jobs = Job.objects.filter(kind=Job.Kind.ANALYSIS, status__in=ACTIVE, options__game__in=ids,
                              options__samples=params.samples, options__seed=params.seed)
    if batch is not None:
        jobs = jobs.exclude(batch=batch)
    return set(jobs.values_list("options__game", flat=True))


def run_batch(job: Job, token: str) -> None:
    """The batch job's run: queue an analysis job for every selected game not analysed yet
    (going on after the last game queued, when a run died half-way), then hand them to the
    workers. The batch ends with its last analysis (`batch_progress`), or here when there is
    nothing to analyse. Run again (a worker that found the batch's lease expired), it queues
    nothing twice and only takes its counts again."""
    params = Parameters(int(job.options["samples"]), int(job.options["seed"]))
    queue = current_queue()  # the analyses go where the batch came
    report = dict(job.report or {})
    if not report.get("queued_all"):
        for chunk, last in selected_chunks(job, int(report.get("last_game", 0))):
            done = current_games(chunk, params) | queued_games(chunk, params, job)
            todo = [pk for pk in chunk if pk not in done]
            skipped = len(chunk) - len(todo)
            with transaction.atomic():
                created = Job.objects.bulk_create([
                    Job(kind=Job.Kind.ANALYSIS, created_by_id=job.created_by_id, batch=job,
                        options=params.as_options(pk))
                    for pk in todo
                ])
                report["current"] = int(report.get("current", 0)) + skipped
                report["last_game"] = last
                update(job, token, report=report)
                for child in created:
                    publish.enqueue(child, queue)
        report["queued_all"] = True
        update(job, token, report=report)
    elif uses_celery():
        # Run again: analyses whose message may have been lost are queued again (a task for
        # an analysis already running or done does nothing).
        for child in job.children.filter(status=Job.Status.QUEUED).only("pk", "kind"):
            publish.enqueue(child, queue)
    batch_progress(job.pk)


def batch_progress(batch_id: int) -> bool:
    """Take the batch's counts again from its analyses, and end it when none is left to run;
    whether this call ended it. Under the batch row's lock: two analyses ending together end
    it once."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=batch_id, kind=Job.Kind.ANALYSES).first()
        if job is None or job.finished:
            return False
        report = dict(job.report or {})
        counts = dict(
            job.children.values_list("status").annotate(n=Count("pk")).order_by()
        )
        analysed = counts.get(Job.Status.DONE, 0)
        failed = counts.get(Job.Status.FAILED, 0)
        waiting = counts.get(Job.Status.QUEUED, 0) + counts.get(Job.Status.RUNNING, 0)
        current = int(report.get("current", 0))
        report.update(analysed=analysed, failed=failed)
        fields: dict[str, Any] = dict(
            seen=current + analysed + failed, resume_at=current + analysed + failed,
            stored=analysed, duplicates=current, refused=failed, heartbeat_at=timezone.now(),
        )
        queued_all = bool(report.get("queued_all"))
        if queued_all:
            fields["total"] = current + analysed + failed + waiting
        if queued_all and not waiting:
            report["failed_games"] = [
                {"game_id": int(child.options.get("game", 0)), "reason": child.error}
                for child in job.children.filter(status=Job.Status.FAILED)
                .order_by("pk").only("options", "error")[:MAX_FAILED]
            ]
            fields.update(status=Job.Status.DONE, finished_at=timezone.now(), error="",
                          runner="")
        Job.objects.filter(pk=job.pk).update(report=report, **fields)
        return "status" in fields


def queue_for_upload(job: Job) -> Job | None:
    """With ANALYSIS_ON_UPLOAD, a batch of analyses of the games an upload job stored (its
    import ran with the signal off: jobs.runs.run_import, jobs.parts.finish_job); nothing
    otherwise. The uploader's, so that he follows it from his upload's page; it does not count
    against his hourly requests (`check_rate`)."""
    if not settings.ANALYSIS_ON_UPLOAD or not job.stored:
        return None
    return submit_batch(job.created_by, Parameters.of(), upload=job)


def upload_analyses(job: Job) -> Job | None:
    """The batch of analyses an upload job queued (`queue_for_upload`), if any."""
    return (Job.objects.filter(kind=Job.Kind.ANALYSES, options__upload__job=job.pk)
            .order_by("pk").first())


def on_games_stored(sender: Any, game_ids: list[int], final: bool, **kwargs: Any) -> None:
    """records.signals.games_stored_batch (sent once the games are committed): with
    ANALYSIS_ON_UPLOAD, a batch of analyses of the new games (default parameters, queued
    after the import's own work)."""
    if settings.ANALYSIS_ON_UPLOAD and game_ids:
        submit_batch(None, Parameters.of(), games=list(game_ids))
