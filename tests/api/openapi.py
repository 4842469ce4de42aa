"""Checking responses against the generated OpenAPI document (OpenAPI 3.0 -> JSON Schema).

OpenAPI 3.0 says `nullable: true` where JSON Schema says `"null"` is allowed; everything else
the schema uses (`$ref` to components, types, enums, formats, required, items) is JSON Schema
already. Responses are validated with jsonschema (a schemathesis dependency).
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema
from drf_spectacular.generators import SchemaGenerator


def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return document


def _json_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if "$ref" in node:
        node["$ref"] = node["$ref"].replace("#/components/schemas/", "#/$defs/")
    if node.pop("nullable", False):
        if "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        node = {"anyOf": [node, {"type": "null"}]}
    return node


class ResponseChecker:
    """Validates (path, method, status, JSON body) against the document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.defs = _json_schema(document["components"]["schemas"])
        self._schema_checked = False
        self.paths = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path)
            # Literal segments before placeholders: /games/export/ is not /games/{id}/.
            for path in sorted(document["paths"], key=lambda p: p.count("{"))
        ]

    def operation_path(self, url_path: str) -> str:
        for pattern, path in self.paths:
            if pattern.match(url_path):
                return path
        raise AssertionError(f"{url_path} is not in the schema")

    def schema_for(self, url_path: str, method: str, status: int, media: str) -> Any:
        operation = self.document["paths"][self.operation_path(url_path)][method.lower()]
        response = operation["responses"].get(str(status))
        assert response is not None, f"{method} {url_path}: status {status} is not documented"
        content = response.get("content", {})
        assert media in content, f"{method} {url_path} {status}: {media} is not documented"
        return content[media]["schema"]

    def check(self, url_path: str, method: str, status: int, media: str, body: Any) -> None:
        schema = {**_json_schema(self.schema_for(url_path, method, status, media)),
                  "$defs": self.defs}
        if not self._schema_checked:
            jsonschema.Draft202012Validator.check_schema(schema)  # once: it is slow
            self._schema_checked = True
        validator = jsonschema.Draft202012Validator(
            schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
        )
        validator.validate(body)
