"""The archive: every stored game, filtered and sorted by query parameters (shareable URLs)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ratings.models import ANY_PLAYERS, ANY_RULESET, PlayerTotals
from records.filters import DEFAULT_ORDERING, ORDERING_FIELDS, GameFilter
from records import search as name_search
from records.models import Game, GameSeat, NameWord, Player
from web.forms import suggest_attrs, use_date_pickers
from records.paging import EstimatingPaginator

PAGE_SIZE = 50
MATCHING_PLAYERS = 10


def games_for_listing() -> QuerySet[Game]:
    """Games with what a listing row shows, in three queries whatever the page size."""
    seats = Prefetch(
        "seats", queryset=GameSeat.objects.select_related("player").order_by("seat")
    )
    return (
        Game.objects.select_related("match")
        .prefetch_related(seats)
        .defer("original_text", "canonical_text", "tags")
    )


def paginate(request: HttpRequest, queryset: QuerySet[Game], size: int | None = None,
             counted: QuerySet[Any] | None = None) -> Page:
    """The page asked for; a page number out of range or not a number gives the nearest page.
    No COUNT(*) over a large archive (records.paging); `counted`: as many rows, cheaper to
    count."""
    paginator = EstimatingPaginator(queryset, size or PAGE_SIZE, counted=counted)
    return paginator.get_page(request.GET.get("page"))


def web_filter(request: HttpRequest, queryset: QuerySet[Game]) -> GameFilter:
    """The shared FilterSet, with browser-friendly widgets (date pickers)."""
    filterset = GameFilter(request.GET, queryset=queryset, request=request)
    use_date_pickers(filterset.form)
    for name in ("player", "opponent"):
        filterset.form.fields[name].widget.attrs.update(suggest_attrs(name))
    filterset.form.fields["min_points"].widget.attrs.update({"min": 0, "inputmode": "numeric"})
    filterset.form.fields["match"].widget.attrs.update({"min": 1, "inputmode": "numeric"})
    return filterset


def sort_columns(request: HttpRequest) -> dict[str, dict[str, str]]:
    """Per sortable column: the link that sorts by it (descending first, then toggling) and
    its current state for aria-sort."""
    current = request.GET.get("ordering", "").split(",")[0].strip()
    if not current:
        current = DEFAULT_ORDERING[0]
    columns = {}
    for name in ORDERING_FIELDS:
        if current == f"-{name}":
            state, target = "descending", name
        elif current == name:
            state, target = "ascending", f"-{name}"
        else:
            state, target = "none", f"-{name}"
        query = request.GET.copy()
        query["ordering"] = target
        query.pop("page", None)
        columns[name] = {"url": "?" + query.urlencode(), "state": state}
    return columns


def counted_rounds() -> Subquery:
    """A player's rounds as the statistics counted them (their totals over every ruleset and
    table size, one indexed row), not a count of their seats: at a million rounds that count
    read every seat of the archive on each visit."""
    return Subquery(
        PlayerTotals.objects.filter(
            player=OuterRef("pk"), ruleset=ANY_RULESET, players=ANY_PLAYERS
        ).values("rounds")[:1]
    )


def matching_players(filterset: GameFilter) -> list[Player]:
    """The players whose names the valid `player` and `opponent` filters match (as typed:
    records.search), most rounds first: links to their pages above the results."""
    value = filterset.value
    out: list[Player] = []
    for typed in (value.player, value.opponent):
        found = name_search.matching(NameWord.Kind.PLAYER, typed)
        if found is None:
            continue
        out += list(
            Player.objects.filter(pk__in=found)
            .annotate(rounds=Coalesce(counted_rounds(), 0))
            .order_by("-rounds", "name_key")[:MATCHING_PLAYERS]
        )
    return out


@require_safe
def archive(request: HttpRequest) -> HttpResponse:
    filterset = web_filter(request, games_for_listing())
    page = paginate(request, filterset.qs)
    active = []
    for name, field in filterset.form.fields.items():
        value = request.GET.get(name, "").strip()
        if name == "ordering" or not value:
            continue
        query = request.GET.copy()
        query.pop(name)
        query.pop("page", None)
        # A choice reads as the form shows it ("analysed", not "true"; the outcome's words).
        shown = dict(getattr(field, "choices", None) or ()).get(value, value)
        active.append({"label": field.label, "value": shown, "remove": "?" + query.urlencode()})
    return render(
        request,
        "records/archive.html",
        {
            "filter": filterset,
            "form": filterset.form,
            "page": page,
            "games": page.object_list,
            "active_filters": active,
            "matching_players": matching_players(filterset),
            "sort": sort_columns(request),
        },
    )
