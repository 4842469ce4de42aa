"""A game's analysis: every decision rated by the engine (docs/analysis.md).

`GET /api/v1/games/{id}/analysis/` answers 404 while nobody asked for one, 202 with the job
while the first one is queued or running, and 200 with the result once stored (with the job of
a newer analysis under way, if any). `POST` asks for one (signed-in users): 202 with the job it
queued or found running, or 200 with the stored analysis when it already answers the request
(same engine, samples and seed). The work is a background job (jobs/analysis.py), never done
in the request.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers
from rest_framework.parsers import FormParser
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from api.parsers import JsonParser
from api.serializers.common import ClosedSerializer, absolute
from api.serializers.errors import ErrorDoc
from api.views.base import ApiViewMixin
from common.rates import RateLimited
from jobs.analysis import (
    Answer,
    Parameters,
    active_job,
    default_samples,
    last_job,
    max_samples,
    request_analysis,
)
from jobs.models import Job
from records.analysis import accuracy_of, mean_loss_of
from records.models import Game, GameAnalysis

# How often a client following a running job (an analysis, an upload) should ask again
# (Retry-After, seconds).
POLL_SECONDS = 2

# ----------------------------------------------------------------------------- documents


class AnalysisRequest(ClosedSerializer):
    samples = serializers.IntegerField(
        required=False, min_value=1,
        # In the schema too (read at start-up), so that a client knows the bound.
        max_value=settings.ANALYSIS_MAX_SAMPLES,
        help_text="simulated playouts per option (default: ANALYSIS_SAMPLES; at most "
                  "ANALYSIS_MAX_SAMPLES)",
    )
    seed = serializers.IntegerField(
        required=False, min_value=-(2**63), max_value=2**63 - 1,
        help_text="random seed (default 0): the same seed gives the same analysis",
    )

    def validate_samples(self, value: int) -> int:
        # The setting as it is now (tests and a changed environment), not as at start-up.
        if value > max_samples():
            raise serializers.ValidationError(f"At most {max_samples()} samples per option.")
        return value


class AnalysisJobDoc(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="the job in the API (its creator and staff)")
    status = serializers.ChoiceField(choices=Job.Status.choices)
    done = serializers.IntegerField(help_text="decisions rated so far")
    total = serializers.IntegerField(allow_null=True, help_text="decisions to rate (once known)")
    percent = serializers.IntegerField(allow_null=True)
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()
    error = serializers.CharField(help_text="why the job failed ('' otherwise)")


class OptionDoc(serializers.Serializer[Any]):
    event = serializers.CharField(help_text='canonical FCN event ("2x rK", "3m rK rK rK") or '
                                            '"pass" (letting the live card go)')
    ev = serializers.FloatField(help_text="the seat's expected settlement after choosing it")


class DecisionDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField(help_text="the ply of the event that followed the decision")
    seat = serializers.IntegerField()
    played = serializers.CharField()
    best = serializers.CharField()
    options = OptionDoc(many=True, help_text="best first")
    loss = serializers.FloatField(help_text="best ev - played ev, in points (>= 0)")
    verdict = serializers.ChoiceField(choices=["good", "inaccuracy", "mistake", "blunder"])


class SeatSummaryDoc(serializers.Serializer[Any]):
    decisions = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True, help_text="share of decisions rated good")
    mean_loss = serializers.FloatField(allow_null=True, help_text="points lost per decision")
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()
    player = serializers.DictField(help_text="id and name")


class AnalysisResultDoc(serializers.Serializer[Any]):
    engine = serializers.CharField(help_text="engine version that made it")
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()
    stale = serializers.BooleanField(help_text="made by another engine than the current one")
    analysed_at = serializers.DateTimeField()
    seconds = serializers.FloatField(help_text="time the job took")
    seats = serializers.DictField(child=SeatSummaryDoc(), help_text='seat ("1".."4") -> summary')
    decisions = DecisionDoc(many=True)


class AnalysisAnswerDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["done", "queued", "running", "failed"],
        help_text="done: `result` holds the analysis; otherwise the job's status",
    )
    job = AnalysisJobDoc(allow_null=True, help_text="the analysis job queued or running")
    result = AnalysisResultDoc(allow_null=True)


# ----------------------------------------------------------------------------- shaping


def job_json(job: Job, context: dict[str, Any]) -> dict[str, Any]:
    options = job.options or {}
    return {
        "id": job.pk,
        "url": absolute(context, "job-detail", job.pk),
        "status": job.status,
        "done": job.resume_at,
        "total": job.total,
        "percent": job.percent,
        "samples": options.get("samples"),
        "seed": options.get("seed"),
        "error": job.error,
    }


def result_json(analysis: GameAnalysis) -> dict[str, Any]:
    seats = {}
    for row in analysis.seats.select_related("player").order_by("seat"):
        seats[str(row.seat)] = {
            "decisions": row.decisions,
            "accuracy": accuracy_of({"decisions": row.decisions, "good": row.good}),
            "mean_loss": mean_loss_of({"decisions": row.decisions, "loss": row.loss}),
            "inaccuracies": row.inaccuracies,
            "mistakes": row.mistakes,
            "blunders": row.blunders,
            "player": {"id": row.player_id, "name": row.player.name},
        }
    return {
        "engine": analysis.engine_version,
        "samples": analysis.samples,
        "seed": analysis.seed,
        "stale": analysis.stale,
        "analysed_at": serializers.DateTimeField().to_representation(analysis.analysed_at),
        "seconds": analysis.seconds,
        "seats": seats,
        "decisions": analysis.result.get("decisions", []),
    }


def answer(game_id: int, analysis: GameAnalysis | None, job: Job | None,
           context: dict[str, Any]) -> Response:
    """200 with the analysis (and the job of a newer one, if any), or 202 with the job."""
    body = {
        "game": game_id,
        "status": "done" if analysis is not None else (job.status if job else "queued"),
        "job": job_json(job, context) if job is not None else None,
        "result": result_json(analysis) if analysis is not None else None,
    }
    url = absolute(context, "game-analysis", game_id)
    if analysis is not None:
        return Response(body, status=200)
    return Response(body, status=202,
                    headers={"Location": url, "Retry-After": str(POLL_SECONDS)})


# ----------------------------------------------------------------------------- the view


class GameAnalysisView(ApiViewMixin, generics.GenericAPIView):  # type: ignore[type-arg]
    permission_classes = [IsAuthenticatedOrReadOnly]
    # Two numbers: JSON or a form, not a multipart upload.
    parser_classes = [JsonParser, FormParser]
    serializer_class = AnalysisAnswerDoc
    allowed_query = {"get": frozenset(), "post": frozenset()}

    @extend_schema(
        tags=["games"],
        summary="A game's analysis: every decision rated",
        description=(
            "200 with the analysis once stored: per seat the number of decisions, the share "
            "rated good (`accuracy`) and the mean loss in points; per decision the options "
            "with their expected settlement, the loss and the verdict (`good`, `inaccuracy`, "
            "`mistake`, `blunder`). 202 while the first analysis is queued or running (the "
            "job's progress in `job`; `Retry-After` says when to ask again). 404 when "
            "nobody asked for one yet (POST does)."
        ),
        responses={
            200: AnalysisAnswerDoc,
            202: OpenApiResponse(AnalysisAnswerDoc, "Queued or running: `result` is null."),
            404: OpenApiResponse(ErrorDoc, "No such game, or no analysis requested yet."),
            429: ErrorDoc,
        },
    )
    def get(self, request: Request, id: int) -> Response:
        game = get_object_or_404(Game.objects.only("pk"), pk=id)
        analysis = GameAnalysis.objects.filter(game_id=game.pk).first()
        job = active_job(game.pk)
        if analysis is None and job is None:
            failed = last_job(game.pk)
            if failed is not None and failed.status == Job.Status.FAILED:
                raise exceptions.NotFound(
                    f"The analysis of game {game.pk} failed ({failed.error}); ask again with "
                    "POST."
                )
            raise exceptions.NotFound(
                f"Game {game.pk} has not been analysed; ask for an analysis with POST."
            )
        return answer(game.pk, analysis, job, self.get_serializer_context())

    @extend_schema(
        tags=["games"],
        summary="Ask for a game's analysis (signed in)",
        description=(
            "Queues an analysis of every seat's decisions as a background job and answers "
            "202 with it (or with the one already queued or running for the game). When the "
            "stored analysis was made by this engine with the same `samples` and `seed`, "
            "answers 200 with it and queues nothing. Defaults: `samples` = "
            "ANALYSIS_SAMPLES, `seed` = 0."
        ),
        request=AnalysisRequest,
        responses={
            200: OpenApiResponse(AnalysisAnswerDoc, "Already analysed so: nothing queued."),
            202: OpenApiResponse(AnalysisAnswerDoc, "Queued (or already running)."),
            400: OpenApiResponse(ErrorDoc, "Invalid samples or seed."),
            401: OpenApiResponse(ErrorDoc, "Not signed in."),
            403: OpenApiResponse(ErrorDoc, "CSRF check failed (session)."),
            404: OpenApiResponse(ErrorDoc, "No such game."),
            429: OpenApiResponse(ErrorDoc, "Too many analyses requested in the last hour."),
        },
    )
    def post(self, request: Request, id: int) -> Response:
        game = get_object_or_404(Game.objects.only("pk"), pk=id)
        data = AnalysisRequest(data=request.data)
        data.is_valid(raise_exception=True)
        params = Parameters.of(data.validated_data.get("samples", default_samples()),
                               data.validated_data.get("seed", 0))
        try:
            got: Answer = request_analysis(game, request.user, params)
        except RateLimited as exc:
            raise exceptions.Throttled(wait=exc.retry_after, detail=str(exc)) from None
        except Game.DoesNotExist:
            raise exceptions.NotFound(f"Game {game.pk} was deleted meanwhile.") from None
        context = self.get_serializer_context()
        if got.job is None:
            return answer(game.pk, got.analysis, None, context)
        # A job: 202 even when an older analysis is stored (it is being replaced).
        response = answer(game.pk, None, got.job, context)
        if got.job.finished and got.job.status == Job.Status.DONE:
            # In-process (no worker): the job ran already; the result is stored.
            stored = GameAnalysis.objects.filter(game_id=game.pk).first()
            return answer(game.pk, stored, None, context)
        return response
