"""The API's game filters: the web archive's (`records.filters.GameFilter`), and two for
scripts that keep a copy of the archive, `ids` and `updated_since` (docs/api.md, "List" and
"Keeping a copy in sync").
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import django_filters
from django.utils.translation import gettext as _
from django import forms
from django.db.models import QuerySet

from records.filters import GameFilter
from records.models import Game

MAX_IDS = 200  # the largest page (api.pagination.MAX_PAGE_SIZE): every game asked, one page
# A game id from 1, up to 18 digits (below the database's largest key).
ID = r"[1-9][0-9]{0,17}"
IDS_PATTERN = rf"^{ID}(,{ID}){{0,{MAX_IDS - 1}}}$"
API_ONLY = ("ids", "updated_since")


class IdsField(forms.CharField):
    def clean(self, value: Any) -> list[int]:
        text = str(super().clean(value) or "")
        if not text:
            return []
        if not re.fullmatch(IDS_PATTERN, text):
            raise forms.ValidationError(
                _("Game ids from 1, comma-separated without spaces (`ids=12,40,7`), at most "
                  "%(most)s.") % {"most": MAX_IDS})
        return list(dict.fromkeys(int(part) for part in text.split(",")))


class UtcDateTimeField(forms.DateTimeField):
    """An ISO 8601 time (a zone or `Z`; without one, UTC) that UTC can hold."""

    input_formats = ["iso-8601"]

    def clean(self, value: Any) -> datetime.datetime | None:
        when = super().clean(value)
        if when is None:
            return None
        try:
            return when.astimezone(datetime.timezone.utc)
        except (OverflowError, ValueError):
            raise forms.ValidationError(_("A time within the years 1 to 9999 in UTC.")) from None


class IdsFilter(django_filters.Filter):
    field_class = IdsField


class UtcDateTimeFilter(django_filters.Filter):
    field_class = UtcDateTimeField


class ApiGameFilter(GameFilter):
    """The archive's filters, `uploaded_by` included (records.filters), and `ids` and
    `updated_since` (see the module doc), which the archive's filter value (`GameFilters`)
    does not hold: each filters the games on its own."""

    ids = IdsFilter(field_name="id", lookup_expr="in", max_length=4096)
    updated_since = UtcDateTimeFilter(field_name="updated_at", lookup_expr="gte")

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        extra = {name: self.form.cleaned_data.pop(name, None) for name in API_ONLY}
        games = super().filter_queryset(queryset)
        for name, value in extra.items():
            games = self.filters[name].filter(games, value)
        return games


class DeletedFilter(django_filters.FilterSet):
    since = UtcDateTimeFilter(field_name="at", lookup_expr="gte", help_text="deleted at or "
                              "after this time, ISO 8601 (`Z` or an offset; without one, UTC)")


def missing_ids(ids: list[int]) -> list[int]:
    """The ids among `ids` that no stored game has (never stored, or deleted)."""
    stored = set(Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
    return [pk for pk in ids if pk not in stored]
