"""Every engine error carries a code from one table (fourcolor/messages.py) and the parameters
its English template needs: the codes are unique, each has a template that renders, every raise
site in the code names a known code and gives the template's placeholders, and every refusal of
the corpora renders from its code and parameters alone."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import fourcolor
from fourcolor.errors import FcnError
from fourcolor.messages import MESSAGES, render
from tests.engine.helpers import placeholders

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
# Where errors are raised: the engine, and the archive's and the editor's own refusals.
SOURCES = [ROOT / "fourcolor", ROOT / "records", ROOT / "drafts"]
# The callables that take a code first: the error classes and the helpers that build them.
MAKERS = {"FcnError", "FcnSyntaxError", "LimitError", "IllegalRecordError", "IllegalMoveError",
          "ClaimRefused", "SwitchesError", "fail", "_fail", "cls"}
SAMPLE = {"cards": ["rK", "rA"], "card": "rK", "card2": "gP", "seat": 1, "seat2": 2,
          "meld": "field", "where": "draw", "n": 3, "m": 4}


def test_the_codes_are_unique() -> None:
    """A repeated key in the table's literal would silently replace the first template."""
    tree = ast.parse((ROOT / "fourcolor" / "messages.py").read_text(encoding="utf-8"))
    table = next(
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "MESSAGES"
    )
    assert isinstance(table, ast.Dict)
    keys = [key.value for key in table.keys if isinstance(key, ast.Constant)]
    assert len(keys) == len(set(keys)) == len(MESSAGES)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_has_a_template_that_renders(code: str) -> None:
    category, template = MESSAGES[code]
    assert category and template
    params = {name: SAMPLE.get(name, f"<{name}>") for name in placeholders(template)}
    message = render(code, params)
    named = [v for k, v in params.items() if isinstance(v, (int, str)) and k != "where"]
    assert all(str(value) in message for value in named)
    assert FcnError(code, **params).message == message


def raise_sites() -> Iterator[tuple[str, int, str, set[str], bool]]:
    """(file, line, code, keyword names, whether `**params` passes more) for every call of an
    error maker with a literal code."""
    for folder in SOURCES:
        for path in folder.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                first = node.args[0]
                if name not in MAKERS or not isinstance(first, ast.Constant):
                    continue
                if not isinstance(first.value, str) or "." not in first.value and (
                    first.value != "stored"
                ):
                    continue
                given = {k.arg for k in node.keywords if k.arg is not None}
                spread = any(k.arg is None for k in node.keywords)
                yield str(path.relative_to(ROOT)), node.lineno, first.value, given, spread


def test_every_raise_site_names_a_code_and_gives_its_placeholders() -> None:
    sites = list(raise_sites())
    assert len(sites) > 100
    wrong = []
    for path, line, code, given, spread in sites:
        if code not in MESSAGES:
            wrong.append(f"{path}:{line}: unknown code {code}")
        elif not spread and not placeholders(MESSAGES[code][1]) <= given:
            missing = placeholders(MESSAGES[code][1]) - given
            wrong.append(f"{path}:{line}: {code} lacks {sorted(missing)}")
    assert wrong == []


def test_every_code_is_raised_somewhere() -> None:
    raised = {code for _, _, code, _, _ in raise_sites()}
    # Codes chosen at run time rather than written at a raise site.
    chosen = {"tags.name_empty", "tags.name_control", "tags.name_bidi", "tags.name_invisible",
              "claim.general_for_win", "claim.general_for_gan", "event.comment",
              "event.second", "import.unavailable"}
    text = (ROOT / "fourcolor" / "notation" / "names.py").read_text(encoding="utf-8")
    text += (ROOT / "fourcolor" / "claims.py").read_text(encoding="utf-8")
    text += (ROOT / "fourcolor" / "notation" / "event.py").read_text(encoding="utf-8")
    text += (ROOT / "records" / "services" / "report.py").read_text(encoding="utf-8")
    assert all(f'"{code}"' in text for code in chosen)
    assert set(MESSAGES) - raised - chosen == set()


def corpus_texts() -> Iterator[tuple[str, str]]:
    for path in sorted((DATA / "corpus" / "invalid").glob("*.fcn")):
        yield path.name, path.read_text(encoding="utf-8")
    for path in sorted((DATA / "hostile").iterdir()):
        if path.suffix != ".json":
            for record in fourcolor.iter_records(
                path.read_bytes().decode("utf-8", "replace").splitlines(keepends=True)
            ):
                yield f"{path.name}#{record.index}", record.text


def test_every_refusal_of_the_corpora_renders_from_its_code_and_parameters() -> None:
    seen: set[str] = set()
    for name, text in corpus_texts():
        error = fourcolor.check_record(text, oversize=len(text) > 300_000).error
        if error is None:
            continue
        seen.add(error.code)
        assert set(error.params) >= placeholders(MESSAGES[error.code][1]), name
        # The parameters are data: JSON as they are, and the message comes back from them.
        params = json.loads(json.dumps(error.params))
        assert render(error.code, params) == error.message, name
        assert error.category == MESSAGES[error.code][0], name
    assert len(seen) >= 40
