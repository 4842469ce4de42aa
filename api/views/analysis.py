"""A game's analysis, every decision rated by the engine (docs/analysis.md): asked for with
POST, followed with GET (api/schema/games.py, ANALYSIS, says what each answers). The work is a
background job (jobs/analysis.py), never done in the request."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.shortcuts import get_object_or_404
from rest_framework import exceptions, generics
from rest_framework.parsers import FormParser
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from api.parsers import JsonParser
from api.serializers.common import absolute
from api.serializers.analysis import (
    AnalysisAnswerDoc,
    AnalysisJobDoc,
    AnalysisRequest,
    result_json,
)
from api.schema.games import ANALYSIS
from api.views.base import ApiViewMixin, valid
from common.rates import RateLimited
from jobs.analysis import Parameters, active_job, last_job, request_analysis
from jobs.models import Job
from records.models import Game, GameAnalysis

# How often a client following a running job (an analysis, an upload) should ask again
# (Retry-After, seconds).
POLL_SECONDS = 2


def answer(game_id: int, analysis: GameAnalysis | None, job: Job | None,
           context: dict[str, Any]) -> Response:
    """200 with the analysis (and the job of a newer one, if any), or 202 with the job."""
    body = {
        "game": game_id,
        "status": "done" if analysis is not None else (job.status if job else "queued"),
        "job": AnalysisJobDoc(job, context=context).data if job is not None else None,
        "result": result_json(analysis) if analysis is not None else None,
    }
    if analysis is not None:
        return Response(body, status=200)
    return Response(body, status=202, headers={
        "Location": absolute(context, "game-analysis", game_id), "Retry-After": str(POLL_SECONDS)})


@ANALYSIS
class GameAnalysisView(ApiViewMixin, generics.GenericAPIView):  # type: ignore[type-arg]
    permission_classes = [IsAuthenticatedOrReadOnly]
    # Two numbers: JSON or a form, not a multipart upload.
    parser_classes = [JsonParser, FormParser]
    serializer_class = AnalysisAnswerDoc

    def get(self, request: Request, id: int) -> Response:
        game = get_object_or_404(Game.objects.only("pk"), pk=id)
        analysis = GameAnalysis.objects.filter(game_id=game.pk).first()
        job = active_job(game.pk)
        if analysis is None and job is None:
            failed = last_job(game.pk)
            if failed is not None and failed.status == Job.Status.FAILED:
                raise exceptions.NotFound(
                    _("The analysis of game %(game)s failed (%(error)s); ask again with POST.")
                    % {"game": game.pk, "error": failed.error})
            raise exceptions.NotFound(
                _("Game %(game)s has not been analysed; ask for an analysis with POST.")
                % {"game": game.pk})
        return answer(game.pk, analysis, job, self.get_serializer_context())

    def post(self, request: Request, id: int) -> Response:
        game = get_object_or_404(Game.objects.only("pk"), pk=id)
        params = Parameters.of(**valid(AnalysisRequest, request.data))
        try:
            got = request_analysis(game, request.user, params)
        except RateLimited as exc:
            raise exceptions.Throttled(wait=exc.retry_after, detail=str(exc)) from None
        except Game.DoesNotExist:
            raise exceptions.NotFound(_("Game %(game)s was deleted meanwhile.")
                                      % {"game": game.pk}) from None
        job, analysis = got.job, got.analysis
        if job is not None and job.finished and job.status == Job.Status.DONE:
            # In-process (no worker): the job ran already; the result is stored.
            job, analysis = None, GameAnalysis.objects.filter(game_id=game.pk).first()
        elif job is not None:
            analysis = None  # 202 even when an older analysis is stored: it is being replaced
        return answer(game.pk, analysis, job, self.get_serializer_context())
