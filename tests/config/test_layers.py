"""The packages depend on each other one way (docs/architecture.md):

    fourcolor <- records <- ratings, jobs <- drafts <- web, api
    common (what every app's requests share) <- records ... api
    config (settings, URLs, WSGI: the wiring) imports the apps; no app imports it

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
                  "config", "common"),
    # What every app's requests share (client address, hit counters, the 503): no app.
    "common": ("fourcolor", "records", "ratings", "jobs", "drafts", "web", "api", "config"),
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


# --- config is wiring only; no circles inside an app ------------------------------------------

APPS = ("fourcolor", "common", "records", "ratings", "jobs", "drafts", "web", "api")


@pytest.mark.parametrize("package", APPS)
def test_it_keeps_config_out_of_the_apps(package: str) -> None:
    """config/ wires the apps together (settings, URLs, WSGI, Celery): it imports them, never
    the other way round."""
    assert [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in imported_modules(path)
        if name.split(".")[0] == "config"
    ] == []


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` -> the modules of `package` it imports (at any level, in
    functions too). `from a.b import c` counts as importing `a.b.c` when that is a module,
    else `a.b`; a package's `__init__` is left out as an importer's target (importing
    `a.b.c` runs `a.b` first, which is not a circle of the modules' own code), and so are
    the imports under `if TYPE_CHECKING:`, which never run."""
    modules = {module_name(path): path for path in (ROOT / package).rglob("*.py")
               if "migrations" not in path.parts}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(inner) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                       for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module is not None or (
                    isinstance(node, ast.ImportFrom) and node.level):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".")
                    if path.name != "__init__.py":
                        anchor = anchor[:-1]
                    anchor = anchor[:len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                found = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                         for alias in node.names]
            else:
                continue
            targets |= {target for target in found
                        if target in modules and target != name
                        and modules[target].name != "__init__.py"}
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


# Circles still being taken apart, each held by one function-level import: none may be added.
KNOWN_CIRCLES: list[list[str]] = []


@pytest.mark.parametrize("package", APPS)
def test_it_has_no_import_circle_inside_an_app(package: str) -> None:
    assert [group for group in circles(import_graph(package))
            if group not in KNOWN_CIRCLES] == []


def test_it_finds_a_circle_held_apart_by_a_function_level_import() -> None:
    graph = {"jobs.a": {"jobs.b"}, "jobs.b": {"jobs.c"}, "jobs.c": {"jobs.a"}, "jobs.d": set()}
    assert circles(graph) == [["jobs.a", "jobs.b", "jobs.c"]]


@pytest.mark.parametrize("package", ["jobs"])
def test_it_imports_no_private_name_from_another_module(package: str) -> None:
    private = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{alias.name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__"
        for alias in node.names if alias.name.startswith("_")
    ]
    assert private == []
