"""The API's game filters: the web archive's (`records.filters.GameFilter`), `uploaded_by`, and
one more check.

- `uploaded_by` is a username, matched exactly as Django matches usernames at sign-in; it finds
  what a user uploaded (a script's own uploads, or a user's page built on the API).
- `since` after `until` is a 400, as it is for every statistic (api.views.stats.StatsQuery),
  rather than an empty list that looks like "no games".
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms

from records.filters import GameFilter

MAX_USERNAME = 150  # django.contrib.auth's User.username


class ApiGameFilterForm(forms.Form):
    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("since", "`since` is after `until`.")
        return data


class ApiGameFilter(GameFilter):
    uploaded_by = django_filters.CharFilter(
        field_name="uploaded_by__username", max_length=MAX_USERNAME, label="Uploaded by"
    )

    class Meta(GameFilter.Meta):
        form = ApiGameFilterForm
        fields = [*GameFilter.Meta.fields, "uploaded_by"]
