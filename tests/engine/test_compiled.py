"""The compiled engine (fourcolor/compiled.py, scripts/build_native.py): used only when built
from the sources as they are, and it analyses exactly as the pure-Python engine does."""

from __future__ import annotations

import copy
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fourcolor
from fourcolor.cards import parse_card
from fourcolor.claims import Claim, ClaimRight
from fourcolor.compiled import FOLDER, STAMP, digest, use
from fourcolor.melds import classify
from fourcolor.moves import WinOption
from fourcolor.rulesets import get_ruleset

PACKAGE = Path(fourcolor.__file__).parent
RECORDS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "missed_wins.fcn"


def test_a_build_is_used_only_while_the_sources_are_the_ones_it_was_built_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FOURCOLOR_PURE", raising=False)
    package = tmp_path / "fourcolor"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", FOLDER))
    path = [str(package)]
    assert not use(path, package) and path == [str(package)]  # nothing built
    (package / FOLDER).mkdir()
    (package / FOLDER / STAMP).write_text(digest(package))
    assert use(path, package) and path == [str(package / FOLDER), str(package)]
    monkeypatch.setenv("FOURCOLOR_PURE", "1")
    assert not use([str(package)], package)
    monkeypatch.delenv("FOURCOLOR_PURE")
    # Any source edited after the build, not only a compiled one: compiled code reads the
    # others' types and constants.
    rules = package / "rulesets.py"
    rules.write_text(rules.read_text() + "\n")
    assert not use([str(package)], package)


def _analyse(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "FOURCOLOR_PURE"}
    if pure:
        env["FOURCOLOR_PURE"] = "1"
    code = (
        "import sys, fourcolor.playout as p; from fourcolor.__main__ import main; "
        "print(p.__file__); main(['analyse', '--json', '--seed', '3', '--samples', '8', "
        f"'--index', '2', {str(RECORDS)!r}])"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    module, output = done.stdout.split("\n", 1)
    return module, output


@pytest.mark.skipif(not fourcolor.COMPILED, reason="no compiled engine built (make native)")
def test_the_compiled_engine_analyses_exactly_as_the_pure_python_one() -> None:
    compiled_module, compiled = _analyse(pure=False)
    pure_module, pure = _analyse(pure=True)
    assert compiled_module.endswith(".so") and pure_module.endswith(".py")
    assert compiled == pure and '"decisions"' in pure


def test_the_engine_values_pickle_and_copy_whether_compiled_or_not() -> None:
    meld = classify([parse_card(t) for t in ("rK", "rA", "rE")], get_ruleset("classic"))
    assert meld is not None
    for value in (meld, Claim(2, ClaimRight.PONG, "triple"), WinOption(meld, 12)):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value
