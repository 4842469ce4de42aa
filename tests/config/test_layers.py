"""The packages depend on each other one way (BRIEF's architecture, issue 15):

    fourcolor <- records <- ratings, jobs <- drafts <- web, api

Every import statement of every module is read (including the lazy ones inside functions), so
a page helper slipping back into records/ or a service importing the web app fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What each package may not import (the layers above it, and its siblings at the top).
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "fourcolor": ("django", "rest_framework", "records", "ratings", "jobs", "drafts", "web", "api",
                  "config"),
    "records": ("ratings", "jobs", "drafts", "web", "api"),
    "ratings": ("drafts", "web", "api"),
    "jobs": ("drafts", "web", "api"),
    # The record editor's drafts: saved through the uploads' entry point (jobs.queue).
    "drafts": ("web", "api"),
    "web": ("api",),
    "api": ("web",),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of each module a file imports, absolute imports only."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def violations(package: str) -> list[str]:
    banned = FORBIDDEN[package]
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in imported_modules(path)
        if name.split(".")[0] in banned
    ]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_it_imports_only_the_layers_below(package: str) -> None:
    assert violations(package) == []


def test_it_finds_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from web.views import upload\n    import api.urls\n")
    assert imported_modules(module) == [(2, "web.views"), (3, "api.urls")]


def test_it_keeps_no_html_view_in_records() -> None:
    assert not (ROOT / "records" / "views").exists()
    assert not (ROOT / "records" / "templatetags").exists()
    assert not (ROOT / "records" / "forms.py").exists()
