"""The API's game filters: the web archive's (`records.filters.GameFilter`) and `uploaded_by`.

`uploaded_by` is a username, matched exactly as Django matches usernames at sign-in; it finds
what a user uploaded (a script's own uploads, or a user's page built on the API).

`since` after `until` is an empty range, here as in every statistic (ratings.stats.Filters).
"""

from __future__ import annotations

import django_filters

from records.filters import GameFilter

MAX_USERNAME = 150  # django.contrib.auth's User.username


class ApiGameFilter(GameFilter):
    uploaded_by = django_filters.CharFilter(
        field_name="uploaded_by__username", max_length=MAX_USERNAME, label="Uploaded by"
    )

    class Meta(GameFilter.Meta):
        fields = [*GameFilter.Meta.fields, "uploaded_by"]
