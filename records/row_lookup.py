"""One model row by primary key, a few of its columns, with the query compiled once.

A game's cached API reads (its detail and ply states when the answer is kept) read a handful
of the game's columns (the validators: content hash, validation time, engine...) and nothing
else from the database. Django compiles `Game.objects.only(...).get(pk=...)` anew for every
request, and that compilation cost more CPU than the query and the rest of the view together
(bench/api_read_cpu.py, docs/performance.md "One row by primary key"). `RowByPk` builds the
same query's SQL once per database alias and process, then only runs it: the same row, the
same values (the ORM's converters, e.g. SQLite's booleans and datetimes), the same deferred
fields, an out-of-range key found as nothing (as the ORM's `IntegerFieldExact` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)
_KEY = 1  # any key: only the SQL text of the compiled query is kept, its parameter replaced


class RowByPk(Generic[M]):
    """`model.objects.only(*fields).filter(pk=pk).first()`, compiled once per alias."""

    def __init__(self, model: type[M], fields: Sequence[str]) -> None:
        meta = model._meta
        pk = meta.pk
        assert pk is not None
        names = {meta.get_field(name).attname for name in fields if name != "pk"}
        names.add(pk.attname)
        self.model = model
        self.fields = tuple(fields)
        # In the model's field order: `Model.from_db` pairs values with the loaded fields so.
        self.attnames = tuple(f.attname for f in meta.concrete_fields if f.attname in names)
        self._pk_type = pk.get_internal_type()
        self._compiled: dict[str, tuple[str, list[Any]]] = {}

    def get(self, pk: int, using: str = DEFAULT_DB_ALIAS) -> M | None:
        """The row, or None when there is none (a key the column cannot hold included)."""
        connection = connections[using]
        low, high = connection.ops.integer_field_range(self._pk_type)
        if (low is not None and pk < low) or (high is not None and pk > high):
            return None
        compiled = self._compiled.get(using)
        if compiled is None:
            compiled = self._compiled[using] = self._compile(using)
        sql, columns = compiled
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        values = list(row)
        # The ORM's converters (compiler.apply_converters), taken from this thread's
        # connection: a connection belongs to one thread, the compiled SQL to all.
        for position, column in enumerate(columns):
            functions = (connection.ops.get_db_converters(column)
                         + column.get_db_converters(connection))
            for function in functions:
                values[position] = function(values[position], column, connection)
        return self.model.from_db(using, self.attnames, values)

    def _compile(self, using: str) -> tuple[str, list[Any]]:
        query = (self.model._default_manager.using(using).filter(pk=_KEY)
                 .values_list(*self.attnames).query)
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if list(params) != [_KEY]:  # a default manager that filters would add parameters
            raise ValueError(f"RowByPk: {self.model.__name__}'s query takes {params!r}")
        return sql, [column for column, _, _ in compiler.select]
