"""Asking for analyses: a game's from its replay page, a match's rounds from the match's page
(signed-in users).

A POST for a game queues its analysis as a background job (jobs.analysis.request_analysis, as
the API does) and sends the reader back to the page they came from, which shows the job's
progress and, once it is done, the marks, the chart and every decision's options. A POST for a
match queues one batch of its rounds not analysed yet (jobs.batches.request_batch) and sends
the reader to the batch's page, which follows it; each round counts against his hourly
requests.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.rates import RateLimited
from jobs.analysis import Parameters, request_analysis
from jobs.batches import request_batch
from records.models import Game, Match


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
    except RateLimited as exc:
        _too_many(request, exc)
        return _see_other(_back(request, game))
    if answer.job is None:
        messages.info(request, _("This game is already analysed with the current engine."))
    elif answer.created:
        messages.success(request, _("The analysis is queued: this page shows it when it is "
                                    "done."))
    else:
        messages.info(request, _("This game is already being analysed."))
    return _see_other(_back(request, game))


def _see_other(url: str) -> HttpResponse:
    """303: the form's answer is a page to get, not the form sent again on reload."""
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response


def _too_many(request: HttpRequest, exc: RateLimited) -> None:
    if exc.retry_after is None:
        messages.error(request, _(
            "These are %(wanted)s analyses, more than the %(limit)s an hour you may ask for: "
            "ask for the rounds one by one from their replays.") % {
                "wanted": exc.wanted, "limit": exc.limit})
        return
    minutes = max(1, round(exc.retry_after / 60))
    messages.error(request, _(
        "You have asked for many analyses in the last hour: try again in %(minutes)s "
        "minutes.") % {"minutes": minutes})


@login_required
@require_POST
def match_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    back = reverse("match", args=[match.pk]) + "#analysis"
    games = list(match.games.values_list("pk", flat=True))
    try:
        batch = request_batch(request.user, Parameters.of(), games, match=match.pk)
    except RateLimited as exc:
        _too_many(request, exc)
        return _see_other(back)
    if batch is None:
        messages.info(request, _("Every round of this match is analysed or being analysed "
                                 "already."))
        return _see_other(back)
    count = len(batch.options["games"])
    messages.success(request, ngettext(
        "The analysis of %(count)s round is queued: this page follows it.",
        "The analyses of %(count)s rounds are queued: this page follows them.",
        count) % {"count": count})
    return _see_other(reverse("job", args=[batch.pk]))
