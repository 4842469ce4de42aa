"""Pages of games without counting a million rows: exact counts for small results, the
planner's estimate beyond (PostgreSQL), and a cap on how deep page numbers go.

`COUNT(*)` over a million games reads every row (hundreds of ms), and a page number deep in
them is an OFFSET that reads as many; a listing needs neither. So a result's count is exact up
to EXACT_UP_TO games (a count of at most that many rows, cheap whatever the archive's size);
beyond, on PostgreSQL, it is the planner's estimate for the same query (`EXPLAIN`, which reads
the table statistics, not the rows), and the page says "≈". Page numbers stop at MAX_PAGES:
the filters and the sort orders reach any game sooner than paging through tens of thousands.
On SQLite (the small default set-up) the count above the threshold is exact.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db import connections

EXACT_UP_TO = 10_000
MAX_PAGES = 200


def planned_rows(queryset: Any) -> int:
    """The PostgreSQL planner's estimate of the rows `queryset` returns (no row is read)."""
    sql, params = queryset.order_by().query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


class EstimatingPaginator(Paginator):
    """A Paginator whose `count` is exact up to EXACT_UP_TO, estimated beyond on PostgreSQL
    (`estimated` says so), and whose pages stop at MAX_PAGES."""

    estimated = False

    @cached_property
    def count(self) -> int:
        queryset = self.object_list
        capped = queryset.order_by()[: EXACT_UP_TO + 1].count()
        if capped <= EXACT_UP_TO:
            return int(capped)
        if connections[queryset.db].vendor != "postgresql":
            return int(queryset.count())
        self.estimated = True
        return max(planned_rows(queryset), capped)

    @cached_property
    def num_pages(self) -> int:
        return min(int(super().num_pages), MAX_PAGES)
