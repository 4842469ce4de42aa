"""The archive's filters, one FilterSet shared by the web archive and the REST API.

Query parameters (every combination is a plain GET URL, so a filtered archive can be shared):

=============  ===============================================================================
``player``     part of a player's name (case, Unicode form and blanks ignored, as
               `records.models.player_key` defines it): "jonas" finds "Jonas Weber"
``opponent``   part of another player's name: games where both ``player`` and ``opponent`` sat
               (alone, it behaves like ``player``)
``ruleset``    a ruleset name (``classic``, ``bga``)
``players``    the number of seats, 2 to 4
``outcome``    ``win``, ``forced``, ``exhausted``, ``redeal`` or ``unfinished``
``since``      the played date (``Date`` tag), on or after, ``YYYY-MM-DD``
``until``      the played date, on or before, ``YYYY-MM-DD``
``match``      a match's id
``min_points`` the finisher's points at least this (games without points are left out)
``ordering``   ``date``, ``points``, ``plies``, ``players`` or ``uploaded``, ``-`` for
               descending; several comma-separated. Default: newest played first.
=============  ===============================================================================

Nothing here knows about templates or DRF: the web and the API wrap the same class. Invalid
values are form errors (`GameFilter.errors`); the valid filters still apply.

`manage.py export_games` uses the same filters (`ExportGameFilter`), with the two meanings its
options have always documented: ``--player`` is a whole name (any case, as the identity key
compares names), ``--match`` a ``Match`` tag value, and ``--ruleset`` any name.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Exists, F, OrderBy, OuterRef, QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import fourcolor
from records.models import MAX_PLAYER_NAME, Game, GameSeat, Outcome, match_key, player_key

# Ids and points are bounded so that a huge number is a form error, not a database overflow.
_MAX_ID = 2**63 - 1
_MAX_POINTS = 2**31 - 1
MAX_USERNAME = 150  # django.contrib.auth's User.username
PLAYER_COUNTS = (2, 3, 4)

# Public parameter -> model field. Dates and points sort missing values last either way.
ORDERING_FIELDS = {
    "date": "date",
    "points": "points",
    "plies": "event_count",
    "players": "players",
    "uploaded": "uploaded_at",
}
DEFAULT_ORDERING = ("-date", "-uploaded")


class IntegerFilter(django_filters.NumberFilter):
    """A whole-number filter (django-filter's NumberFilter accepts decimals)."""

    field_class = forms.IntegerField


class GameOrderingFilter(django_filters.OrderingFilter):
    """Ordering by public names, missing values last, with the id as the final tie-break so
    that pages never repeat or skip a game."""

    def __init__(self, **kwargs: Any) -> None:
        fields = [(field, param) for param, field in ORDERING_FIELDS.items()]
        # Both directions named here, in our catalogue: django-filter's own "%s (descending)"
        # comes from its catalogue, which has no Vietnamese or Traditional Chinese (issue 15).
        labels = {
            "date": _("date played, oldest first"),
            "-date": _("date played, newest first"),
            "points": _("points, fewest first"),
            "-points": _("points, most first"),
            "event_count": _("number of plies, fewest first"),
            "-plies": _("number of plies, most first"),
            "players": _("number of players, fewest first"),
            "-players": _("number of players, most first"),
            "uploaded_at": _("date uploaded, oldest first"),
            "-uploaded": _("date uploaded, newest first"),
        }
        super().__init__(fields=fields, field_labels=labels, **kwargs)

    def order_expressions(self, params: list[str]) -> list[OrderBy]:
        expressions = []
        seen = set()
        for param in params:
            descending = param.startswith("-")
            name = param.lstrip("-")
            if name not in ORDERING_FIELDS or name in seen:
                continue
            seen.add(name)
            field = F(ORDERING_FIELDS[name])
            expressions.append(
                field.desc(nulls_last=True) if descending else field.asc(nulls_last=True)
            )
        last = "-pk" if not params or params[-1].startswith("-") else "pk"
        return [*expressions, F("pk").desc() if last == "-pk" else F("pk").asc()]

    def filter(self, qs: QuerySet[Game], value: Any) -> QuerySet[Game]:
        params = [p for p in (value or []) if p]
        return qs.order_by(*self.order_expressions(params or list(DEFAULT_ORDERING)))


def _seated(name: str) -> Exists:
    """A subquery: a seat of the outer game held by a player whose name contains `name`
    (compared as `player_key`s, so case, composition and blanks do not matter).

    Exists rather than a join: a player seated twice in one game lists it once."""
    return Exists(
        GameSeat.objects.filter(game=OuterRef("pk"), player__name_key__contains=player_key(name))
    )


class GameFilter(django_filters.FilterSet):
    """Filters and ordering for a Game queryset (see the module docstring)."""

    player = django_filters.CharFilter(
        method="filter_seated", label=_("Player"), max_length=MAX_PLAYER_NAME
    )
    opponent = django_filters.CharFilter(
        method="filter_seated", label=_("Opponent"), max_length=MAX_PLAYER_NAME
    )
    ruleset = django_filters.ChoiceFilter(
        label=_("Ruleset"), choices=[(name, name) for name in sorted(fourcolor.RULESETS)],
        empty_label=_("any"),
    )
    players = django_filters.ChoiceFilter(
        label=pgettext_lazy("number of seats", "Players"),
        choices=[(str(n), str(n)) for n in PLAYER_COUNTS],
        empty_label=_("any"),
    )
    outcome = django_filters.ChoiceFilter(
        label=_("Outcome"), choices=Outcome.choices, empty_label=_("any")
    )
    since = django_filters.DateFilter(
        field_name="date", lookup_expr="gte", label=_("Played on or after")
    )
    until = django_filters.DateFilter(
        field_name="date", lookup_expr="lte", label=_("Played on or before")
    )
    match = IntegerFilter(
        field_name="match_id", label=_("Match"), min_value=1, max_value=_MAX_ID
    )
    min_points = IntegerFilter(
        field_name="points", lookup_expr="gte", label=_("Minimum points"),
        min_value=0, max_value=_MAX_POINTS,
    )
    # A username, exactly as written (case counts): what one account
    # uploaded (the user's page, a script's own uploads).
    uploaded_by = django_filters.CharFilter(
        field_name="uploaded_by__username", max_length=MAX_USERNAME, label=_("Uploaded by")
    )
    ordering = GameOrderingFilter(label=_("Sort by"), empty_label=_("newest played first"))

    class Meta:
        model = Game
        fields = ["player", "opponent", "ruleset", "players", "outcome", "since", "until",
                  "match", "min_points", "uploaded_by"]

    def filter_seated(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        if not player_key(value):
            return queryset
        return queryset.filter(_seated(value))

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        queryset = super().filter_queryset(queryset)
        # OrderingFilter only runs for a non-empty value: the default order is applied here.
        if not self.form.cleaned_data.get("ordering"):
            queryset = self.filters["ordering"].filter(queryset, None)
        return queryset


class ExportGameFilter(GameFilter):
    """The archive's filters as `manage.py export_games` takes them: `player` a whole name,
    `match` a Match tag, and `ruleset` any name (one no game has exports nothing), as the
    command has always documented (see the module docstring)."""

    ruleset = django_filters.CharFilter(field_name="ruleset")
    player = django_filters.CharFilter(method="filter_named", max_length=MAX_PLAYER_NAME)
    match = django_filters.CharFilter(method="filter_match_tag")

    def filter_named(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        # Exists, not a join: a player seated twice in one game must not list it twice.
        seated = GameSeat.objects.filter(game=OuterRef("pk"), player__name_key=player_key(value))
        return queryset.filter(Exists(seated))

    def filter_match_tag(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return queryset.filter(match__key=match_key(value))
