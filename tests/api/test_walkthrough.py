"""docs/api.md's walk-through, run as written against a live server: the Python (requests)
version and the curl version, each on a fresh archive."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from records.models import Game, Player, player_key

from .conftest import round_text

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
DOC_SERVER = "http://127.0.0.1:8000"
PASSWORD = "correct horse battery staple"
NAMES = ("Bình", "An", "Chi", "Dũng")


def block(kind: str) -> str:
    """The code block after `<!-- walkthrough:KIND -->` in docs/api.md."""
    match = re.search(rf"<!-- walkthrough:{kind} -->\n```\w+\n(.*?)```", DOC.read_text(), re.S)
    assert match, f"docs/api.md has no {kind} walk-through"
    return match.group(1)


@pytest.fixture
def table(tmp_path: Path, django_user_model: Any, live_server: Any,
          monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user alice with a password, and games.fcn (five rounds, four with Bình) in the
    working directory."""
    django_user_model.objects.create_user("alice", password=PASSWORD)
    texts = [round_text(seed, "classic", 4, NAMES, "2026.03.01") for seed in (1, 2, 3, 4)]
    texts.append(round_text(5, "classic", 3, ("An", "Chi", "Eve"), "2026.03.02"))
    (tmp_path / "games.fcn").write_text("\n".join(texts), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def binh_games() -> set[int]:
    binh = Player.objects.get(name_key=player_key("Bình"))
    return set(Game.objects.filter(seats__player=binh).values_list("pk", flat=True))


@pytest.mark.django_db(transaction=True)
def test_the_python_walkthrough_runs_as_written(table: Path, live_server: Any) -> None:
    code = block("python").replace(DOC_SERVER, live_server.url)
    out = io.StringIO()

    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/api.md (python walk-through)", "exec"), {})

    assert Game.objects.count() == 5
    assert out.getvalue().splitlines() == [
        "5 stored, 0 already there, 0 refused",
        f"Bình played {len(binh_games())} games",
        f"{len(binh_games())} games exported",
    ]
    assert len(binh_games()) == 4


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_curl_walkthrough_runs_as_written(table: Path, live_server: Any) -> None:
    script = "set -xeuo pipefail\n" + block("curl").replace(DOC_SERVER, live_server.url)

    done = subprocess.run(["bash", "-c", script], cwd=table, capture_output=True, text=True,
                          timeout=120, env=os.environ | {"LC_ALL": "C.UTF-8"})

    assert done.returncode == 0, done.stderr
    assert Game.objects.count() == 5
    last_page = json.loads((table / "page.json").read_text())
    assert last_page["next"] is None
    exported = [json.loads(line) for line in (table / "binh.ndjson").read_text().splitlines()]
    assert {game["id"] for game in exported} == binh_games()
    assert json.loads((table / "upload.json").read_text())
