"""Bulk inserts by PostgreSQL's COPY for the tables an import fills by the thousand: the
managers of `Game`, `GameSeat` and the statistics' rows are `CopyQuerySet`s."""

from __future__ import annotations

import datetime
import json
import operator
from typing import Any

from django.db import connections, models


class CopyQuerySet(models.QuerySet[Any]):
    """`copy_rows`: new rows by COPY on PostgreSQL, for the tables an import fills by the
    thousand (games, seats; the statistics' counted games and rating events); `bulk_create`
    stays the ORM's own.

    A multi-row INSERT of a few thousand rows costs far more in the ORM and the driver than in
    the database. Here the new rows' ids are taken from the table's sequence in one query and
    the rows go in with one COPY. Unique indexes decide exactly as for an INSERT (a clash
    raises Django's IntegrityError, a lost connection its OperationalError).

    It earns its place on an import's speed: 100 new rounds through the import service in
    3.4 s against 7.2 s with `bulk_create` (29 against 14 games/s, median of 20 files on a
    loaded machine; `bench/speed_layers.py copy`, docs/performance.md "Speed layers")."""

    def copy_rows(self, rows: list[dict[str, Any]]) -> list[int]:
        """New rows given as dicts of field values by attribute name (`game_id`, not `game`),
        without a model instance each (building tens of thousands of them costs an import more
        than the COPY). A field left out takes its default. Returns the new rows' ids, in
        order. COPY on PostgreSQL; elsewhere (or for a multi-table model) the ORM's
        `bulk_create`."""
        if not rows:
            return []
        conn = connections[self.db]
        meta = self.model._meta
        if conn.vendor != "postgresql" or meta.parents:
            made = self.bulk_create([self.model(**row) for row in rows])
            return [obj.pk for obj in made]
        self._for_write = True
        fields = _copy_fields(meta)
        if any(_own_pre_save(f) for f in fields):
            raise ValueError(f"{meta.label}: copy_rows does not run pre_save")
        if meta.auto_field is not None:
            ids = _new_ids(conn, meta, len(rows))
            head, fields = [meta.auto_field], fields[1:]
        else:  # the rows give their primary key (a one-to-one key, say)
            ids = [row[meta.pk.attname] for row in rows]
            head = []
        given = [f for f in fields if f.attname in rows[0]]
        missing = [f for f in fields if f.attname not in rows[0]]
        values = operator.itemgetter(*(f.attname for f in given))
        one = len(given) == 1

        def lines() -> Any:
            for pk, row in zip(ids, rows, strict=True):
                own = [values(row)] if one else list(values(row))
                if head:
                    own.insert(0, pk)
                if missing:
                    own += [f.get_default() for f in missing]
                yield own

        _copy(conn, meta, [*head, *given, *missing], lines())
        return ids


# Values COPY takes as they are; any other type goes through the field's own conversion.
_PLAIN = frozenset({int, str, bool, float, type(None), datetime.date})


def _copy_fields(meta: Any) -> list[Any]:
    """The columns a COPY writes: the auto id first (when there is one), then the others."""
    auto = meta.auto_field
    fields = [f for f in meta.concrete_fields if f is not auto and not f.generated]
    if auto is not None:
        fields.insert(0, auto)
    return fields


def _own_pre_save(field: Any) -> bool:
    """Whether the field's value is not simply the attribute (auto_now dates, ...)."""
    return type(field).pre_save is not models.Field.pre_save and (
        not isinstance(field, models.DateField) or field.auto_now or field.auto_now_add
    )


def _new_ids(conn: Any, meta: Any, count: int) -> list[int]:
    """`count` ids from the table's sequence, in one query. The sequence is looked up once
    (a MATERIALIZED CTE): in the select list, pg_get_serial_sequence ran for every id, ten
    times the cost of nextval itself."""
    with conn.cursor() as cursor:
        cursor.execute(
            "WITH s AS MATERIALIZED (SELECT pg_get_serial_sequence(%s, %s)::regclass AS seq) "
            "SELECT nextval(s.seq) FROM s, generate_series(1, %s)",
            [meta.db_table, meta.auto_field.column, count],
        )
        return sorted(pk for (pk,) in cursor.fetchall())


def _copy(conn: Any, meta: Any, fields: list[Any], rows: Any) -> None:
    """One COPY of `rows` (lists of values in `fields`' order) into the model's table."""
    qn = conn.ops.quote_name
    columns = ", ".join(qn(f.column) for f in fields)
    # JSON goes in as text, written with the field's encoder as the ORM writes it.
    json_at = [(i, f.encoder) for i, f in enumerate(fields) if f.get_internal_type() == "JSONField"]
    sql = f"COPY {qn(meta.db_table)} ({columns}) FROM STDIN"
    with conn.cursor() as cursor, conn.wrap_database_errors, cursor.cursor.copy(sql) as copy:
        write = copy.write_row
        plain = _PLAIN.issuperset
        for row in rows:
            for i, encoder in json_at:
                if row[i] is not None:
                    row[i] = json.dumps(row[i], cls=encoder)
            if not plain(map(type, row)):  # datetimes, enums, decimals...
                row = [
                    value if type(value) in _PLAIN else field.get_db_prep_save(value, conn)
                    for value, field in zip(row, fields, strict=True)
                ]
            write(row)
