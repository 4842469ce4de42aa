"""The leaderboard page: the best players by one statistic (`ratings.leaderboards.leaderboard`,
the same board as the API's /stats/leaderboard/ and /stats/ratings/), narrowed like a player's
page to a ruleset, a table size and a date range, among the players with enough rounds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from ratings import leaderboards
from ratings.services import ratings_updating
from records.filters import GameFilters
from web.forms import use_date_pickers
from web.views.players import PlayerFilter

BOARD_ROWS = 100
DEFAULT_METRIC = "rounds"
DEFAULT_MIN_ROUNDS = 10

# Each metric's name on the page and how its value reads: "count", "percent", or a number of
# decimals ("1", "2"). Every metric of ratings.stats has one (a test holds them together).
METRIC_SHOWN: dict[str, tuple[Promise, str]] = {
    "rating": (_("Rating"), "1"),
    "rounds": (_("Rounds"), "count"),
    "wins": (_("Wins"), "count"),
    "win_rate": (_("Win rate"), "percent"),
    "net_total": (_("Net settlement"), "signed"),
    "net_per_round": (_("Net per round"), "2"),
    "avg_win_points": (_("Average winning points"), "1"),
    "best_win_points": (_("Best winning points"), "count"),
    "deal_in_rate": (_("Deal-in rate"), "percent"),
    "dealer_win_rate": (_("Dealer win rate"), "percent"),
    "missed_wins_per_round": (_("Missed wins per round"), "2"),
    "decision_accuracy": (_("Decision accuracy"), "percent"),
    "mean_loss_per_decision": (_("Mean loss per decision"), "2"),
}


class BoardForm(forms.Form):
    metric = forms.ChoiceField(
        label=_("Statistic"), required=False,
        choices=[(name, label) for name, (label, _shown) in METRIC_SHOWN.items()],
    )
    min_rounds = forms.IntegerField(
        label=_("Minimum rounds"), required=False, min_value=1, max_value=1_000_000,
    )


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    # The menu shows what the board ranks by: a first visit names the default statistic.
    data = request.GET.copy()
    if not data.get("metric"):
        data["metric"] = DEFAULT_METRIC
    board_form = BoardForm(data)
    board_form.is_valid()  # a bad value falls back to its default, and the form says why
    choice = getattr(board_form, "cleaned_data", {})
    metric = choice.get("metric") or DEFAULT_METRIC
    min_rounds = choice.get("min_rounds") or DEFAULT_MIN_ROUNDS
    filterset = PlayerFilter(request.GET)
    use_date_pickers(filterset.form)
    filters = filterset.value if filterset.is_valid() else GameFilters()
    context: dict[str, Any] = {
        "board_form": board_form, "form": filterset.form, "metric": metric,
        "label": METRIC_SHOWN[metric][0], "shown": METRIC_SHOWN[metric][1],
        "lowest_first": not leaderboards.higher_is_better(metric), "min_rounds": min_rounds,
        "ratings_updating": ratings_updating(), "rows": [], "problem": None,
    }
    # Ratings are kept per ruleset (docs/stats.md, "Rating"): their board needs one and takes
    # no other filter. The service refuses both with a ValueError in English; the page says
    # why in the reader's language instead of calling it.
    if metric == "rating" and filters.ruleset is None:
        context["problem"] = _("Ratings are kept per ruleset: choose a ruleset to see them.")
    elif metric == "rating" and (filters.players is not None or filters.dated):
        context["problem"] = _("The rating board narrows by ruleset only.")
    else:
        board = leaderboards.leaderboard(
            metric, min_rounds=min_rounds, limit=BOARD_ROWS, filters=filters
        )
        context["rows"] = board["rows"]
    return render(request, "records/leaderboard.html", context)
