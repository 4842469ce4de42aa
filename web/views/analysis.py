"""Asking for a game's analysis from its replay page (signed-in users).

A POST queues the analysis as a background job (jobs.analysis.request_analysis, as the API
does) and sends the reader back to the page they came from, which shows the job's progress
and, once it is done, the marks, the chart and every decision's options.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from jobs.analysis import Parameters, TooManyRequests, request_analysis
from records.models import Game


def _back(request: HttpRequest, game: Game) -> str:
    """The replay page, at the ply and view the form was sent from."""
    query = {key: request.POST[key] for key in ("seat", "ply")
             if request.POST.get(key, "").isdecimal()}
    url = reverse("game", args=[game.pk])
    return url + ("?" + urlencode(query) if query else "") + "#analysis"


@login_required
@require_POST
def game_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.only("pk"), pk=pk)
    try:
        answer = request_analysis(game, request.user, Parameters.of())
    except Game.DoesNotExist:
        raise Http404("This game was deleted meanwhile.") from None
    except TooManyRequests as exc:
        minutes = max(1, round(exc.retry_after / 60))
        messages.error(request, _(
            "You have asked for many analyses in the last hour: try again in %(minutes)s "
            "minutes.") % {"minutes": minutes})
        response = HttpResponseRedirect(_back(request, game))
        response.status_code = 303
        return response
    if answer.job is None:
        messages.info(request, _("This game is already analysed with the current engine."))
    elif answer.created:
        messages.success(request, _("The analysis is queued: this page shows it when it is "
                                    "done."))
    else:
        messages.info(request, _("This game is already being analysed."))
    response = HttpResponseRedirect(_back(request, game))
    response.status_code = 303
    return response
