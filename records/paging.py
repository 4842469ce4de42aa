"""Pages of games without counting a million rows: exact counts for small results, the
planner's estimate beyond (PostgreSQL), and a cap on how deep page numbers go.

`COUNT(*)` over a million games reads every row, and a deep page number is an OFFSET that reads
as many. So a count is exact up to EXACT_UP_TO games; beyond, on PostgreSQL, it is the
planner's estimate for the same query (`EXPLAIN`: the table statistics, not the rows) and the
page says "≈" (the API: `count_estimated`). Page numbers stop at MAX_PAGES: the filters and the
sort orders reach any game sooner. On SQLite the count above the threshold is exact.

The estimate is only as good as the table's statistics, which autovacuum does not refresh at
once after a bulk import (a table never ANALYZEd said 173,500 for 76,041 games): an import that
stored more than ANALYZE_AFTER_ROWS games, and a tenth of the table, ANALYZEs the games' tables
at its end (`analyze_if_grown`). After `pg_restore`, run `ANALYZE` (docs/deploy.md).
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db import connections, router

EXACT_UP_TO = 10_000
# When the planner expects more rows than this many times EXACT_UP_TO, even the capped count is
# skipped: reading 10,001 matching rows costs hundreds of ms when the filter is a join (a name
# matched in the seats) or its rows are spread over the table.
TRUST_ESTIMATE_ABOVE = 5
MAX_PAGES = 200
# Games an import must store (and a tenth of the table) for its end to ANALYZE the tables.
ANALYZE_AFTER_ROWS = 1000
_stored_since_analyze = 0


def planned_rows(queryset: Any) -> int:
    """The PostgreSQL planner's estimate of the rows `queryset` returns (no row is read)."""
    plan = json.loads(queryset.order_by().explain(format="json"))
    return int(plan[0]["Plan"]["Plan Rows"])


class EstimatingPaginator(Paginator):
    """A Paginator whose `count` is exact up to EXACT_UP_TO, estimated beyond on PostgreSQL
    (`estimated` says so), and whose pages stop at MAX_PAGES (unless `capped` is False: the
    API's numbered pages, whose clients ask for the page they want).

    `counted`: rows as many as the listed ones that are cheaper to count (a player's seats for
    the games they sat in: one index)."""

    estimated = False
    capped = True

    def __init__(self, object_list: Any, per_page: int, *, counted: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(object_list, per_page, **kwargs)
        self.counted = counted

    @cached_property
    def count(self) -> int:
        queryset = self.object_list if self.counted is None else self.counted
        postgresql = connections[queryset.db].vendor == "postgresql"
        planned = planned_rows(queryset) if postgresql else 0
        if planned > TRUST_ESTIMATE_ABOVE * EXACT_UP_TO:
            self.estimated = True
            return planned
        capped = queryset.order_by()[: EXACT_UP_TO + 1].count()
        if capped <= EXACT_UP_TO:
            return int(capped)
        if not postgresql:
            return int(queryset.count())
        self.estimated = True
        return max(planned, capped)

    @cached_property
    def num_pages(self) -> int:
        pages = int(super().num_pages)
        return min(pages, MAX_PAGES) if self.capped else pages


class UncappedEstimatingPaginator(EstimatingPaginator):
    capped = False


def analyze_after_import(sender: Any, game_ids: list[int], final: bool, **kwargs: Any) -> None:
    """`games_stored_batch` receiver: counts the games stored by this process's imports and, at
    an import's end, ANALYZEs the games' tables when they grew enough (`analyze_if_grown`)."""
    global _stored_since_analyze
    _stored_since_analyze += len(game_ids)
    if final and analyze_if_grown(_stored_since_analyze):
        _stored_since_analyze = 0


def analyze_if_grown(stored: int) -> bool:
    """At the end of an import that stored `stored` games (a background job's, which announces
    none, calls this itself): ANALYZE the games' tables when that is over ANALYZE_AFTER_ROWS
    and a tenth of the rows the statistics knew (PostgreSQL only: SQLite's counts are exact).
    Whether it did."""
    if stored < ANALYZE_AFTER_ROWS:
        return False
    from records.models import Game, GameSeat

    connection = connections[router.db_for_write(Game)]
    if connection.vendor != "postgresql":
        return False
    tables = [Game._meta.db_table, GameSeat._meta.db_table]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [tables[0]])
        known = max(float(cursor.fetchone()[0]), 0.0)  # -1: never analysed
        if stored < known / 10:
            return False
        cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(t) for t in tables))
    return True
