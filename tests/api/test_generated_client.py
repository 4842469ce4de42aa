"""A client generated from the served schema by openapi-python-client works as generated: no
patch, no hand-written request. It lists games by cursor, reads one, uploads a record with a
token, saves a draft and reads the export, against a live server."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from records.tokens import create_token

from records.models import Game

from .conftest import Archive, round_text
from .test_drafts import bot_round, text_of

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "fourcolor_api_client"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not GENERATOR.exists() and shutil.which("openapi-python-client") is None,
                       reason="openapi-python-client is not installed (pip install -e .[dev])"),
]


def generate(schema: bytes, where: Path) -> None:
    (where / "schema.json").write_bytes(schema)
    command = str(GENERATOR) if GENERATOR.exists() else "openapi-python-client"
    # Its own formatter (ruff) from the same environment.
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [command, "generate", "--path", str(where / "schema.json"), "--meta", "none",
         "--output-path", str(where / PACKAGE)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Every operation is generated: the generator says what it skipped on its output.
    assert "Unsupported" not in done.stdout + done.stderr, done.stdout + done.stderr


def cursor_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["cursor"][0]


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_works_as_generated(
    archive: Archive, user: Any, live_server: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import requests

    schema = requests.get(f"{live_server.url}/api/v1/schema/?format=json", timeout=60)
    assert schema.status_code == 200
    generate(schema.content, tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    client_module = importlib.import_module(PACKAGE)
    games_list = importlib.import_module(f"{PACKAGE}.api.games.games_list")
    games_retrieve = importlib.import_module(f"{PACKAGE}.api.games.games_retrieve")
    export = importlib.import_module(f"{PACKAGE}.api.games.games_export_list")
    uploads_create = importlib.import_module(f"{PACKAGE}.api.uploads.uploads_create")
    drafts_create = importlib.import_module(f"{PACKAGE}.api.drafts.drafts_create")
    drafts_save = importlib.import_module(f"{PACKAGE}.api.drafts.drafts_save_create")
    models = importlib.import_module(f"{PACKAGE}.models")

    # Anonymous reads: a client without a token.
    anonymous = client_module.Client(base_url=live_server.url)
    seen: list[int] = []
    page = games_list.sync(client=anonymous, cursor="", page_size=3)
    while True:
        seen += [game.id for game in page.results]
        if not page.next_:
            break
        page = games_list.sync(client=anonymous, cursor=cursor_of(page.next_), page_size=3)
    assert sorted(seen) == sorted(archive.all)
    game = games_retrieve.sync(str(archive.match[0]), client=anonymous)
    assert isinstance(game, models.GameDetail) and game.id == archive.match[0]

    # Writes with the user's token.
    token = create_token(user, "test")[1]
    signed_in = client_module.AuthenticatedClient(base_url=live_server.url, token=token,
                                                  prefix="Token")
    job = uploads_create.sync(client=signed_in,
                              body=models.UploadsCreateBody(text=round_text(41)))
    assert isinstance(job, models.JobDetail), job
    assert job.finished and job.import_report.created == 1
    fcn = text_of(bot_round(7), result=None)
    draft = drafts_create.sync(client=signed_in, body=models.DraftFcn(fcn=fcn))
    assert isinstance(draft, models.DraftDetailDoc), draft
    saved = drafts_save.sync(str(draft.id), client=signed_in)
    assert isinstance(saved, models.DraftSavedDoc), saved
    assert saved.status == "created"

    # The export: NDJSON text, one game per line.
    answer = export.sync_detailed(client=anonymous)
    assert answer.status_code == 200
    lines = [json.loads(line) for line in answer.content.decode().splitlines() if line]
    assert {line["id"] for line in lines} == set(Game.objects.values_list("pk", flat=True))
    assert len(lines) == len(archive.all) + 2
