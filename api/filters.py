"""The API's game filters: the web archive's (`records.filters.GameFilter`), `uploaded_by` too.

`uploaded_by` is who uploaded, matched as names are typed (records.search); a whole
username selects that account alone (a script's own uploads, or a user's page built on the API).

`since` after `until` is an empty range, here as in every statistic (records.filters.GameFilters).
"""

from __future__ import annotations

from records.filters import GameFilter


class ApiGameFilter(GameFilter):
    """The archive's filters, `uploaded_by` included (records.filters); the API's own
    additions go here."""
