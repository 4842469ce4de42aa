"""Backup with `pg_dump -Fc`, restore with `pg_restore` into an empty database: every table
comes back row for row, the sequences where they were, the original texts byte for byte.

PostgreSQL only, and only where the client tools are installed (skipped otherwise). The
archive's own export and re-import is tested in tests/api/test_export_games.py; the whole
procedure, with player totals and ratings, is scripts/backup_restore_check.py
(docs/reliability.md)."""

from __future__ import annotations

import shutil
import subprocess
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from records.models import Game
from records.services import import_records
from tests.records.conftest import CORPUS, fcn_file, good_texts, match_texts

pytestmark = [
    pytest.mark.django_db(transaction=True),  # pg_dump reads committed data only
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump needs PostgreSQL"),
    pytest.mark.skipif(not (shutil.which("pg_dump") and shutil.which("pg_restore")),
                       reason="pg_dump and pg_restore are not installed"),
]

HOSTILE = CORPUS.parent / "hostile"


def _url(database: str) -> str:
    s = connection.settings_dict
    user = urllib.parse.quote(s.get("USER") or "")
    password = s.get("PASSWORD") or ""
    auth = f"{user}:{urllib.parse.quote(password)}@" if password else (f"{user}@" if user else "")
    host = s.get("HOST") or "localhost"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgresql://{auth}{host}{port}/{database}"


def _digests(url: str) -> dict[str, tuple[int, str]]:
    """Row count and md5 of the rows (in text order) of every table of the public schema."""
    out = {}
    with psycopg.connect(url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
        for table in tables:
            row = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), "
                f"'')) FROM \"{table}\" t"
            ).fetchone()
            assert row is not None
            out[table] = (int(row[0]), str(row[1]))
    return out


def _query(url: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(row) for row in conn.execute(sql)]  # type: ignore[arg-type]


@pytest.fixture
def restored_name() -> Iterator[str]:
    """An empty scratch database beside the test database, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restore"
    admin = _url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f"CREATE DATABASE \"{name}\" ENCODING 'UTF8' TEMPLATE template0")
    yield name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_it_restores_a_pg_dump_into_an_empty_database_row_for_row(
    restored_name: str, tmp_path: Path
) -> None:
    import_records(fcn_file(good_texts(8, start=300)))
    import_records(fcn_file(match_texts("backup-match", rounds=3, date="2026.05.01")))
    import_records((CORPUS / "valid.fcn").read_bytes())
    for name in ("mixed_line_endings.fcn", "cr_only.fcn", "html_script_names_and_comments.fcn"):
        import_records((HOSTILE / name).read_bytes())
    assert Game.objects.count() > 20
    source = _url(str(connection.settings_dict["NAME"]))
    target = _url(restored_name)
    dump = tmp_path / "archive.dump"

    subprocess.run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), source], check=True,
                   timeout=120)
    subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", target, str(dump)],
                   check=True, timeout=120)

    assert _digests(target) == _digests(source)
    sequences = "SELECT sequencename, last_value FROM pg_sequences ORDER BY 1"
    assert _query(target, sequences) == _query(source, sequences)
    texts = "SELECT id, content_hash, original_text FROM records_game ORDER BY id"
    restored = _query(target, texts)
    assert restored == _query(source, texts)
    assert {text for _, _, text in restored} == set(
        Game.objects.values_list("original_text", flat=True))
