"""Page-number pagination for every list of the API.

Pages rather than cursors: the archive's lists are sorted by user-chosen keys (the same
`ordering` as the web archive), which a cursor cannot follow, and a page number is what a
shared URL of the web archive carries too. The id is always the last sort key (see
`records.filters.GameOrderingFilter`), so pages never repeat or skip a game.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

MAX_PAGE_SIZE = 200


class ApiPagination(PageNumberPagination):
    """`?page=N` (from 1) and `?page_size=M` (1..200; default API_PAGE_SIZE)."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int | None:
        # DRF silently replaces a bad page size by the default (and cuts a big one): here it is
        # an error that says what is allowed, as for every other parameter.
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            return self.page_size
        if not (raw.isascii() and raw.isdecimal()) or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [f"A whole number from 1 to {self.max_page_size}."]}
            )
        return int(raw)

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
        return parameters
