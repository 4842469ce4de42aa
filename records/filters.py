"""The archive's game filters: one validated value, `GameFilters`, and its parsers.

`GameFilters` is what the archive, the player pages, the statistics, the API and
`manage.py export_games` filter by: `apply` filters and orders a Game queryset, `lookups` and
`where` are the same conditions for the statistics. Its fields are the query parameters of the
same names (docs/api.md, "Games"), and two for `export_games`: ``player_name``, a whole name
(compared as `player_key`s), and ``match_tag``, a ``Match`` tag value (as `match_key`s). The
statistics take ``ruleset``, ``players``, ``since`` and ``until`` only (`for_statistics`).

Parsers, each validating before anything is queried: query parameters by `GameFilter`
(django-filter; `StatisticsFilter` for the statistics' four; an invalid value is a form error
and the valid ones still apply), Python values by `GameFilters.of` (ValueError), and
`export_games`' options by `GameFilters.from_options`.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Exists, F, OrderBy, OuterRef, QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import fourcolor
from fourcolor.rulesets import RulesetError, format_switches, parse_switches
from records import search
from records.refusal_text import ruleset_refusal
from records.models import (
    MAX_PLAYER_NAME,
    Game,
    GameAnalysis,
    GameSeat,
    Match,
    Outcome,
    Player,
    match_key,
    player_key,
)

# Points are bounded so that a huge number is a form error, not a database overflow (ids:
# MAX_ID).
_MAX_POINTS = 2**31 - 1
MAX_USERNAME = 150  # django.contrib.auth's User.username
MAX_MATCH_QUERY = 1024  # a Match tag's length
PLAYER_COUNTS = tuple(range(2, max(r.max_players for r in fourcolor.RULESETS.values()) + 1))
_COUNTS_TEXT = f"{PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]}"
# The `switches` filter's two words; anything else is a Switches tag's value.
STANDARD, HOUSE = "standard", "house"

# Public parameter -> model field. Dates and points sort missing values last either way.
ORDERING_FIELDS = {
    "date": "date",
    "points": "points",
    "plies": "event_count",
    "players": "players",
    "uploaded": "uploaded_at",
}
DEFAULT_ORDERING = ("-date", "-uploaded")
# A field's values that filter nothing (False does: `analysed`).
EMPTY = (None, "", ())
# The fields the statistics answer (their stored totals are per ruleset and table size).
STATISTICS_FIELDS = ("ruleset", "players", "since", "until")


def order_expressions(params: tuple[str, ...] | list[str]) -> list[OrderBy]:
    """ORDER BY for public ordering names, missing values last, with the id as the final
    tie-break so that pages never repeat or skip a game. Unknown names are passed over."""
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
    last_descending = not params or params[-1].startswith("-")
    return [*expressions, F("pk").desc() if last_descending else F("pk").asc()]


def _named(exact: QuerySet[Any], kind: str, name: str) -> Any:
    """Ids of the rows named exactly `name` if there is one (a link's precise choice), else of
    those whose names match it as typed (`records.search`)."""
    ids = list(exact.values_list("pk", flat=True)[:1])
    return ids or search.matching(kind, name)


@dataclass(frozen=True)
class GameFilters:
    """One validated game filter. Empty fields (None, "" or ()) filter nothing. Build it with
    a parser (`GameFilter`, `of`, `from_options`); the constructor trusts its values."""

    player: str = ""
    opponent: str = ""
    player_name: str = ""
    ruleset: str | None = None
    players: int | None = None
    switches: str = ""
    outcome: str | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    match: str = ""
    match_tag: str = ""
    min_points: int | None = None
    uploaded_by: str = ""
    analysed: bool | None = None
    ordering: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        ruleset: str | None = None,
        players: int | str | None = None,
        since: datetime.date | str | None = None,
        until: datetime.date | str | None = None,
    ) -> GameFilters:
        """The statistics' filters from Python values (strings too); ValueError with a clear
        message for a bad one (an unknown ruleset among them)."""
        if ruleset in ("", None):
            ruleset = None
        elif ruleset not in fourcolor.RULESETS:
            known = ", ".join(sorted(fourcolor.RULESETS))
            raise ValueError(f"unknown ruleset {ruleset!r} (known: {known})")
        if players in ("", None):
            players = None
        else:
            try:
                players = int(players)
            except (TypeError, ValueError):
                raise ValueError(f"players must be {_COUNTS_TEXT}, not {players!r}") from None
            if players not in PLAYER_COUNTS:
                raise ValueError(f"players must be {_COUNTS_TEXT}, not {players}")
        return cls(ruleset=ruleset, players=players, since=_date("since", since),
                   until=_date("until", until))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GameFilters:
        """`manage.py export_games`'s options (argparse has typed them): ``--player`` a whole
        name, ``--match`` a Match tag, ``--ruleset`` any name."""
        return cls(
            player_name=options.get("player") or "",
            ruleset=options.get("ruleset") or None,
            players=options.get("players"),
            outcome=options.get("outcome") or None,
            since=options.get("since"),
            until=options.get("until"),
            match_tag=options.get("match") or "",
        )

    def apply(self, games: QuerySet[Game]) -> QuerySet[Game]:
        """`games` filtered and ordered (newest played first unless `ordering` says)."""
        seated = [search.matching(search.NameWord.Kind.PLAYER, name)
                  for name in (self.player, self.opponent)]
        if self.player_name:
            seated.append(Player.objects.filter(name_key=player_key(self.player_name)).values("pk"))
        for players in seated:
            # Exists rather than a join: a player seated twice in one game lists it once.
            if players is not None:
                games = games.filter(
                    Exists(GameSeat.objects.filter(game=OuterRef("pk"), player_id__in=players))
                )
        if self.match_tag:
            games = games.filter(match__key=match_key(self.match_tag))
        named = (
            ("match_id", Match.objects.filter(key=match_key(self.match)),
             search.NameWord.Kind.MATCH, self.match),
            ("uploaded_by_id", get_user_model().objects.filter(username=self.uploaded_by),
             search.NameWord.Kind.USER, self.uploaded_by),
        )
        for column, exact, kind, name in named:
            ids = _named(exact, kind, name) if name else None
            if ids is not None:
                games = games.filter(**{f"{column}__in": ids})
        if self.analysed is not None:
            stored = Exists(GameAnalysis.objects.filter(game=OuterRef("pk")))
            games = games.filter(stored if self.analysed else ~stored)
        # One filter() each, in the fields' order: the WHERE clause lists them as declared.
        for lookup, value in self.lookups().items():
            games = games.filter(**{lookup: value})
        return games.order_by(*order_expressions(self.ordering or DEFAULT_ORDERING))

    def lookups(self, prefix: str = "") -> dict[str, Any]:
        """The conditions on the game's own columns as ORM lookups (`prefix`: the path to the
        game, "game__" from a seat). The name filters are subqueries (`apply`)."""
        wanted = {
            "ruleset": self.ruleset, "players": self.players, **self._variant(),
            "outcome": self.outcome,
            "date__gte": self.since, "date__lte": self.until,
            "points__gte": self.min_points,
        }
        return {prefix + name: value for name, value in wanted.items() if value is not None}

    def _variant(self) -> dict[str, str]:
        """The `switches` filter as a lookup on Game.switches (canonical, "" when standard)."""
        if not self.switches:
            return {}
        if self.switches == HOUSE:
            return {"switches__gt": ""}
        return {"switches": "" if self.switches == STANDARD else self.switches}

    # The statistics' side: the groups of ratings.stats.

    def for_statistics(self) -> GameFilters:
        """This value, if the statistics can answer it (ValueError names what they cannot)."""
        others = [f.name for f in dataclasses.fields(self)
                  if f.name not in STATISTICS_FIELDS and getattr(self, f.name) not in EMPTY]
        if others:
            raise ValueError(
                f"statistics filter by {', '.join(STATISTICS_FIELDS)} only, not {', '.join(others)}"
            )
        return self

    @property
    def dated(self) -> bool:
        return self.since is not None or self.until is not None

    def where(self, games: str = "g") -> tuple[list[str], list[Any]]:
        """The statistics' conditions in SQL on the games table alias, with their parameters."""
        conditions: list[str] = []
        params: list[Any] = []
        for column, operator, value in (
            ("ruleset", "=", self.ruleset), ("players", "=", self.players),
            ("date", ">=", self.since), ("date", "<=", self.until),
        ):
            if value is None:
                continue
            conditions.append(f"{games}.{column} {operator} %s")
            if isinstance(value, datetime.date):
                value = connection.ops.adapt_datefield_value(value)
            params.append(value)
        return conditions, params

    def statistics_json(self) -> dict[str, Any]:
        """The statistics' filters as their answers echo them."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
        }


def _date(name: str, value: datetime.date | str | None) -> datetime.date | None:
    if value in ("", None):
        return None
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a date YYYY-MM-DD, not {value!r}") from None


class IntegerFilter(django_filters.NumberFilter):
    """A whole-number filter (django-filter's NumberFilter accepts decimals)."""

    field_class = forms.IntegerField


class GameOrderingFilter(django_filters.OrderingFilter):
    """The `ordering` parameter: public names, either direction, several comma-separated
    (GameFilters.apply orders by them, `order_expressions`)."""

    def __init__(self, **kwargs: Any) -> None:
        fields = [(field, param) for param, field in ORDERING_FIELDS.items()]
        # Both directions named here, in our catalogue: django-filter's own "%s (descending)"
        # comes from its catalogue, which has no Vietnamese or Traditional Chinese.
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


class StatisticsFilter(django_filters.FilterSet):
    """The statistics' query parameters: ruleset, players, since, until (a `GameFilters`
    with those four, as `value`). The player pages and every API statistic parse them here."""

    ruleset = django_filters.ChoiceFilter(
        label=_("Ruleset"), choices=[(name, name) for name in sorted(fourcolor.RULESETS)],
        empty_label=_("any"),
    )
    players = django_filters.ChoiceFilter(
        label=pgettext_lazy("number of seats", "Players"),
        choices=[(str(n), str(n)) for n in PLAYER_COUNTS],
        empty_label=_("any"),
    )
    since = django_filters.DateFilter(
        field_name="date", lookup_expr="gte", label=_("Played on or after")
    )
    until = django_filters.DateFilter(
        field_name="date", lookup_expr="lte", label=_("Played on or before")
    )

    class Meta:
        model = Game
        fields: list[str] = []  # the declared filters only

    @property
    def value(self) -> GameFilters:
        """The valid parameters as the filter value (an invalid one is left out, and in
        `errors`)."""
        data: dict[str, Any] = {}
        if self.is_bound:
            self.is_valid()
            data = self.form.cleaned_data
        return GameFilters(**{
            name: _typed(name, value) for name, value in data.items() if value not in (None, "")
        })

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        return self.value.apply(queryset)

    @classmethod
    def get_filters(cls) -> dict[str, django_filters.Filter]:
        # The forms' order is the value's (names first on the archive), not the classes'.
        filters = super().get_filters()
        order = [f.name for f in dataclasses.fields(GameFilters) if f.name in filters]
        return {name: filters[name] for name in order} | filters


def _typed(name: str, value: Any) -> Any:
    """A form's cleaned value as the GameFilters field takes it."""
    if name == "players":
        return int(value)
    if name == "ordering":
        return tuple(p for p in value if p)
    if name == "analysed":
        return value == "true"
    return value


class SwitchesField(forms.CharField):
    """`standard`, `house`, or a Switches tag's value, cleaned to its canonical form (an
    unknown switch or value is the form's error, in the page's language)."""

    def clean(self, value: Any) -> str:
        text = " ".join(str(super().clean(value)).split())
        if text in ("", STANDARD, HOUSE):
            return text
        try:
            canonical = format_switches(parse_switches(text))
        except RulesetError as error:
            raise forms.ValidationError(ruleset_refusal(error)) from None
        return canonical or STANDARD


class SwitchesFilter(django_filters.CharFilter):
    field_class = SwitchesField


class GameFilter(StatisticsFilter):
    """Every filter's query parameter, and the ordering."""

    player = django_filters.CharFilter(label=_("Player"), max_length=MAX_PLAYER_NAME)
    opponent = django_filters.CharFilter(label=_("Opponent"), max_length=MAX_PLAYER_NAME)
    switches = SwitchesFilter(
        label=_("House rules"), max_length=200,
        help_text=_("standard, house (any house variant), or switches such as "
                    "steal_generals=never"),
    )
    outcome = django_filters.ChoiceFilter(
        label=_("Outcome"), choices=Outcome.choices, empty_label=_("any")
    )
    match = django_filters.CharFilter(label=_("Match"), max_length=MAX_MATCH_QUERY)
    min_points = IntegerFilter(
        field_name="points", lookup_expr="gte", label=_("Minimum points"),
        min_value=0, max_value=_MAX_POINTS,
    )
    uploaded_by = django_filters.CharFilter(max_length=MAX_USERNAME, label=_("Uploaded by"))
    analysed = django_filters.ChoiceFilter(
        label=_("Analysis"),
        choices=[("true", pgettext_lazy("analysis filter", "analysed")),
                 ("false", pgettext_lazy("analysis filter", "not analysed"))],
        empty_label=_("any"),
    )
    ordering = GameOrderingFilter(label=_("Sort by"), empty_label=_("newest played first"))
