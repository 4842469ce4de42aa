"""Every address the project serves, enumerated from its URLconf and its OpenAPI schema, with
real ids filled in, so that the security tests cover routes added later without being told."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from tests.web.conftest import Archive

UNSAFE = ("post", "put", "patch", "delete")
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>|\{(\w+)\}")


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + route)
        else:
            yield prefix + route


def web_routes() -> list[str]:
    """The site's own routes (path() syntax): not the API's (DRF's views are CSRF-exempt and
    check it themselves, see `api_operations`) and not the admin's hundred regexes."""
    return sorted({
        route for route in _routes(get_resolver().url_patterns)
        if not route.startswith(("api/", "admin/")) and "^" not in route
    })


def api_operations() -> list[tuple[str, str]]:
    """(path, method) of every unsafe operation in the API's OpenAPI schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (path, method) for path, item in schema["paths"].items()
        for method in item if method in UNSAFE
    )


def fill(route: str, archive: Archive) -> str:
    """The route with its parameters replaced by ids of stored objects."""
    assert archive.match is not None

    def value(match: re.Match[str]) -> str:
        name = match.group(2) or match.group(3)
        if "player" in route or name == "player_id":
            return str(archive.player("Ann").pk)
        if "match" in route:
            return str(archive.match.pk)
        if "job" in route:
            return "1"
        return str(archive.four.pk)

    path = _PARAM.sub(value, route)
    return path if path.startswith("/") else "/" + path
