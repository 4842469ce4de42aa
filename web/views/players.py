"""Players: a searchable list, and each player's page (games, statistics, charts, opponents).

The figures come from `ratings.stats.player_stats` (the definitions of docs/stats.md, shared
with the API): SQL aggregates over the per-seat facts written at import, so no game is replayed
to draw this page. The page narrows to a ruleset, a table size and a date range like the API.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Exists, F, OuterRef, QuerySet
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ratings import stats
from ratings.history import rating_histories
from ratings.services import ratings_updating
from records.filters import GameFilters, StatisticsFilter
from records import search as name_search
from records.models import GameSeat, NameWord, Player
from web.forms import DateRangeForm, use_date_pickers
from web.views.archive import counted_rounds, games_for_listing, paginate

PLAYERS_PAGE = 50
GAMES_PAGE = 20
CHART_ROUNDS = 1000  # the charts show the most recent rounds (the total still counts all)
OPPONENTS = 10


class PlayerFilter(StatisticsFilter):
    """The statistics' filters as the player page's form (dates the wrong way round are an
    error there, web.forms.DateRangeForm)."""

    class Meta(StatisticsFilter.Meta):
        form = DateRangeForm


def player_seats(player: Player, filters: GameFilters) -> QuerySet[GameSeat]:
    """The player's seats in the games the filters keep."""
    return GameSeat.objects.filter(player=player, **filters.for_statistics().lookups("game__"))


def running_net(seats: QuerySet[GameSeat], total: int) -> list[int]:
    """The net settlement after each of the most recent rounds, in play order.

    Ordered by the seats' own copy of the date: the index on (player, date DESC NULLS LAST,
    game DESC) hands over the newest rounds first and the query stops after CHART_ROUNDS,
    however long the player's history (ordered by the game's date, every seat of the player
    was joined to its game and sorted)."""
    recent = list(
        seats.order_by(F("date").desc(nulls_last=True), "-game_id")
        .values_list("delta", flat=True)[:CHART_ROUNDS]
    )
    recent.reverse()
    return list(accumulate(recent, initial=total - sum(recent)))[1:]


def outcome_bars(figures: dict[str, Any]) -> list[tuple[str, int, str]]:
    """How the player's rounds ended: each round in exactly one bar (all from the counters:
    no bar reads the player's seats)."""
    no_winner = figures["no_winner_rounds"]
    finished_by_me = figures["wins"] + figures["forced_finishes"]
    others = figures["rounds"] - finished_by_me - figures["deal_ins"] - no_winner
    return [
        (_("won on own draw"), figures["wins_on_self_draw"], "self-draw"),
        (_("won on another’s draw"), figures["wins_on_draw"], "draw"),
        (_("won on a discard"), figures["wins_on_discard"], "discard"),
        (_("forced finish"), figures["forced_finishes"], "forced"),
        (_("dealt in"), figures["deal_ins"], "dealin"),
        (_("another player won"), max(others, 0), "other"),
        (_("no winner"), no_winner, "none"),
    ]


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:100].replace("\x00", "")
    players = Player.objects.annotate(rounds=Coalesce(counted_rounds(), 0)).order_by(
        "-rounds", "name_key"
    )
    players = name_search.search(players, NameWord.Kind.PLAYER, query)
    page = Paginator(players, PLAYERS_PAGE).get_page(request.GET.get("page"))
    return render(request, "records/player_list.html", {
        "page": page, "query": query, "ratings_updating": ratings_updating(),
    })


@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    filterset = PlayerFilter(request.GET)
    use_date_pickers(filterset.form)
    # A form error (the dates' order) drops every filter, as the page says above its form.
    filters = filterset.value if filterset.is_valid() else GameFilters()
    figures = stats.player_stats(player, opponents=OPPONENTS, filters=filters)
    seats = player_seats(player, filters)
    # This player's games: by the seats' player, not the name filter (which matches parts of
    # names, so "Jo" would also list Jonas's games).
    seated = Exists(GameSeat.objects.filter(game=OuterRef("pk"), player=player))
    games = filters.apply(games_for_listing().filter(seated))
    # As many as the player's seats in them (one each): counted on the seats' own index.
    page = paginate(request, games, GAMES_PAGE, counted=seats)
    return render(
        request,
        "records/player.html",
        {
            "player": player,
            "form": filterset.form,
            "filtered": filters != GameFilters(),
            "stats": figures,
            "ratings": sorted(figures["ratings"].items()),
            "rating_charts": [
                {"ruleset": h.ruleset, "values": [p.ordinal for p in h.points],
                 "pending": h.pending}
                for h in rating_histories(player.pk, limit=CHART_ROUNDS)
            ],
            # Uploads answer before their games are counted (a statistics job does that).
            "ratings_updating": ratings_updating(),
            "running": running_net(seats, figures["net_total"] or 0),
            "bars": outcome_bars(figures),
            "opponents": figures["frequent_opponents"],
            "page": page,
            "games": page.object_list,
        },
    )
