"""Pagination of the API's lists: page numbers for people, cursors for programs (what each
answers: docs/api.md, "Pagination").

A cursor (game lists only, `CursorPagination`) is the sort key of the page's last (or first)
game in the list's own `ordering` (any of the archive's orders: the id is always the last key,
`records.filters.GameOrderingFilter`), so a page begins exactly after the previous one ended,
whatever was added meanwhile. The numbered pages of game lists count exactly up to 10,000 games
and give the planner's estimate beyond, on PostgreSQL (records.paging).
"""

from __future__ import annotations

import base64
import binascii
import re
import datetime
import json
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.paginator import Page
from django.db.models import F, Model, OrderBy, Q, QuerySet
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from api.filters import IdsField, missing_ids
from records.paging import UncappedEstimatingPaginator

MAX_PAGE_SIZE = 200
MAX_CURSOR = 1000  # characters: a cursor holds a few sort keys
CURSOR_PATTERN = "^[A-Za-z0-9_-]*$"  # URL-safe base64 without padding


class PastTheEnd(Page):  # type: ignore[type-arg]
    """An empty page after the last one: its previous page is the last page."""

    def previous_page_number(self) -> int:
        return max(1, self.paginator.num_pages)


def link_header(links: Sequence[tuple[str | None, str]]) -> str:
    return ", ".join(f'<{url}>; rel="{rel}"' for url, rel in links if url)


class ApiPagination(PageNumberPagination):
    """`?page=N` (from 1, or `last`) and `?page_size=M` (1 to 200; default 50, or 200 with
    `ids`); a page past the end is an empty page."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int | None:
        # DRF silently replaces a bad page size by the default (and cuts a big one): here it is
        # an error that says what is allowed, as for every other parameter.
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            # Games asked by id (`ids`, at most this many): all of them on one page.
            return self.max_page_size if request.query_params.get("ids") else self.page_size
        if not (raw.isascii() and raw.isdecimal()) or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [_("A whole number from 1 to %(most)s.")
                                               % {"most": self.max_page_size}]}
            )
        return int(raw)

    def get_page_number(self, request: Request, paginator: Any) -> int:
        raw = request.query_params.get(self.page_query_param, "")
        if raw == "":
            return 1
        if raw in self.last_page_strings:
            return int(paginator.num_pages)
        if not (raw.isascii() and raw.isdecimal()) or not 1 <= int(raw) <= 2**31 - 1:
            raise ValidationError({self.page_query_param: [_("A whole number from 1, or last.")]})
        return int(raw)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: Any = None
    ) -> list[Any] | None:
        self.request = request
        page_size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, page_size)
        number = self.get_page_number(request, paginator)
        if number > max(1, paginator.num_pages):
            self.page = PastTheEnd([], number, paginator)
        else:
            self.page = paginator.page(number)
        self.display_page_controls = paginator.num_pages > 1 and self.template is not None
        return list(self.page)

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        next_url, previous = response.data["next"], response.data["previous"]
        response["Link"] = link_header([(next_url, "next"), (previous, "prev")])
        return response

    def get_schema_operation_parameters(self, view: object) -> list[dict[str, object]]:
        # DRF documents both as plain integers; say their bounds so that clients (and
        # schemathesis) know that page 0 or a page size of 10,000 is not a valid request.
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            schema = parameter["schema"]
            assert isinstance(schema, dict)
            schema["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                schema["maximum"] = self.max_page_size
            else:
                schema["maximum"] = 2**31 - 1
                parameter["description"] = (
                    "page number, from 1 (past the last page: an empty page)"
                )
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["count", "next", "previous", "results"],
            "properties": {
                "count": {"type": "integer", "minimum": 0},
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
                "results": schema,
            },
        }


# ----------------------------------------------------------------------------- cursors


def sort_keys(queryset: QuerySet[Any]) -> list[tuple[str, bool]]:
    """(field, descending) of the queryset's ordering: OrderBy(F(...)) expressions, missing
    values last (as records.filters.GameOrderingFilter orders), ending with the primary key."""
    keys = []
    for expression in queryset.query.order_by:
        if not isinstance(expression, OrderBy) or not isinstance(expression.expression, F):
            raise TypeError(f"cursor pagination cannot follow the ordering {expression!r}")
        keys.append((expression.expression.name, expression.descending))
    if not keys or keys[-1][0] not in ("pk", "id"):
        raise TypeError("cursor pagination needs the primary key as the last sort key")
    return keys


def _field(model: type[Model], name: str) -> Any:
    return model._meta.pk if name in ("pk", "id") else model._meta.get_field(name)


def _order(keys: list[tuple[str, bool]]) -> list[str]:
    return [("-" if descending else "") + name for name, descending in keys]


def cursor_of(row: Model, keys: list[tuple[str, bool]], before: bool) -> str:
    """The cursor of `row`'s sort key (`before`: of the page before it)."""
    values = [getattr(row, name) for name, _descending in keys]
    values = [value.isoformat() if isinstance(value, (datetime.date, datetime.datetime))
              else value for value in values]
    raw = json.dumps({"o": _order(keys), "k": values, "b": before}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(
    text: str, keys: list[tuple[str, bool]], model: type[Model]
) -> tuple[list[Any], bool]:
    """The sort key and direction (True: the page before it) a cursor holds; a 400 for a
    cursor that is not one of ours or was made for another ordering."""
    # A 400 like any other bad parameter (DRF's own cursor pagination answers 404): the
    # client sent something that is not a cursor of this list.
    invalid = ValidationError({"cursor": [
        _("Invalid cursor: not a cursor of this list (follow the next/previous links, with the "
          "same ordering and filters).")
    ]})
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        payload = json.loads(raw.decode("utf-8"))
        if (not isinstance(payload, dict) or payload.get("o") != _order(keys)
                or not isinstance(payload.get("k"), list) or len(payload["k"]) != len(keys)
                or not isinstance(payload.get("b"), bool)):
            raise invalid
        values = [
            None if value is None else _field(model, name).to_python(value)
            for (name, _descending), value in zip(keys, payload["k"], strict=True)
        ]
    except (ValueError, TypeError, binascii.Error, DjangoValidationError) as exc:
        raise invalid from exc
    if values[-1] is None:
        raise invalid
    return values, payload["b"]


def _beyond(name: str, value: Any, descending: bool, before: bool) -> Q | None:
    """Rows strictly after (or before) `value` in this key's order, missing values last."""
    if before:
        if value is None:
            return Q(**{f"{name}__isnull": False})
        return Q(**{f"{name}__gt" if descending else f"{name}__lt": value})
    if value is None:
        return None  # nothing comes after the missing values
    return Q(**{f"{name}__lt" if descending else f"{name}__gt": value}) | Q(
        **{f"{name}__isnull": True}
    )


def beyond(keys: list[tuple[str, bool]], values: list[Any], before: bool) -> Q:
    """Rows strictly after (before) the sort key `values`, in the lexicographic order."""
    condition = Q(pk__in=[])
    prefix = Q()
    for (name, descending), value in zip(keys, values, strict=True):
        step = _beyond(name, value, descending, before)
        if step is not None:
            condition |= prefix & step
        prefix &= Q(**{f"{name}__isnull": True} if value is None else {name: value})
    return condition


def reversed_order(queryset: QuerySet[Any]) -> QuerySet[Any]:
    flipped = []
    for expression in queryset.query.order_by:
        field = expression.expression
        flipped.append(field.asc(nulls_first=True) if expression.descending
                       else field.desc(nulls_first=True))
    return queryset.order_by(*flipped)


def forward_from(games: QuerySet[Any], cursor: str | None) -> QuerySet[Any]:
    """`games` after an export's `cursor` (an export only goes forward, by its Link header)."""
    if not cursor:
        return games
    keys = sort_keys(games)
    values, before = decode_cursor(cursor, keys, games.model)
    if before:
        raise NotFound(_("Invalid cursor: an export only goes forward (its Link header)."))
    return games.filter(beyond(keys, values, before=False))


def next_batch(games: QuerySet[Any], size: int, url: str) -> str | None:
    """`url` with the cursor of the batch after the first `size` of `games`, when another game
    follows them: known before streaming, from the sort key of the batch's last game."""
    keys = sort_keys(games)
    plain = games.select_related(None).prefetch_related(None)
    edge = list(plain.only(*{name for name, _descending in keys} - {"pk"})[size - 1:size + 1])
    if len(edge) < 2:
        return None
    return replace_query_param(url, "cursor", cursor_of(edge[0], keys, before=False))


class CursorPagination(ApiPagination):
    """Page numbers, or cursors when `?cursor=` is given (see the module doc)."""

    cursor_query_param = "cursor"
    django_paginator_class = UncappedEstimatingPaginator

    def paginate_queryset(
        self, queryset: Any, request: Request, view: Any = None
    ) -> list[Any] | None:
        if self.cursor_query_param not in request.query_params:
            self.cursor_mode = False
            return super().paginate_queryset(queryset, request, view)
        self.cursor_mode = True
        self.request = request
        if request.query_params.get(self.page_query_param) not in self.last_page_strings:
            self.get_page_number(request, None)  # checked as on every list, though unused
        size = self.get_page_size(request) or 1
        keys = sort_keys(queryset)
        text = request.query_params[self.cursor_query_param]
        if len(text) > MAX_CURSOR or not re.fullmatch(CURSOR_PATTERN, text):
            raise ValidationError({"cursor": [
                _("At most %(most)s characters: letters, digits, - and _.")
                % {"most": MAX_CURSOR}]})
        start = not text
        before = False
        if not start:
            values, before = decode_cursor(text, keys, queryset.model)
            queryset = queryset.filter(beyond(keys, values, before))
        rows = list((reversed_order(queryset) if before else queryset)[: size + 1])
        more = len(rows) > size
        rows = rows[:size][::-1] if before else rows[:size]
        url = request.build_absolute_uri()

        def link(row: Model, before: bool) -> str:
            cursor = cursor_of(row, keys, before)
            return replace_query_param(url, self.cursor_query_param, cursor)

        # A next page after a page that has more, or before the one a `previous` link left;
        # a previous page before a page with more before it, or after the first page.
        self.cursor_next = link(rows[-1], False) if rows and (more or before) else None
        self.cursor_previous = (link(rows[0], True) if rows and (more if before else not start)
                                else None)
        return rows

    def get_paginated_response(self, data: Any) -> Response:
        if not getattr(self, "cursor_mode", False):
            response = super().get_paginated_response(data)
            if self.page.paginator.estimated:
                response.data["count_estimated"] = True
        else:
            response = Response(
                {"next": self.cursor_next, "previous": self.cursor_previous, "results": data}
            )
            response["Link"] = link_header(
                [(self.cursor_next, "next"), (self.cursor_previous, "prev")]
            )
        # Games asked by id (the filter has validated the list): those not there are named.
        asked = IdsField(required=False).clean(self.request.query_params.get("ids", ""))
        if asked:
            response.data["missing"] = missing_ids(asked)
        return response

    def get_schema_operation_parameters(self, view: object) -> list[dict[str, object]]:
        parameters = super().get_schema_operation_parameters(view)
        parameters.append({
            "name": self.cursor_query_param,
            "required": False,
            "in": "query",
            "description": "cursor pagination: empty for the first page, then the cursor of a "
            "`next`/`previous` link (pages that do not drift; no `count`)",
            "schema": {"type": "string", "maxLength": MAX_CURSOR, "pattern": CURSOR_PATTERN},
        })
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged = super().get_paginated_response_schema(schema)
        paged["required"] = ["next", "previous", "results"]
        paged["properties"]["count"]["description"] = (
            "page numbers only (not with a cursor); beyond 10,000 games the database's estimate"
        )
        paged["properties"]["count_estimated"] = {
            "type": "boolean",
            "description": "present (true) when `count` is an estimate",
        }
        paged["properties"]["missing"] = {
            "type": "array", "items": {"type": "integer"},
            "description": "present with `ids`: the ids asked for that no stored game has "
            "(never stored, or deleted: see `/games/deleted/`), in the order asked",
        }
        return paged

