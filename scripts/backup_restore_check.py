"""Backup and restore, checked end to end on PostgreSQL.

    .venv/bin/python scripts/backup_restore_check.py [--server postgres://postgres@127.0.0.1:5432]
        [--games 300] [--prefix fourcolor_h6] [--keep]

`<prefix>_backup` (migrated, copied empty to `<prefix>_empty`, then seeded with demo games
and the corpora's awkward records) is dumped with `pg_dump -Fc` and restored into
`<prefix>_restore`: every table's rows and every sequence compared; its `export_games` (FCN
and NDJSON) is imported into `<prefix>_reimport`, a copy of `<prefix>_empty`: texts, hashes,
derived columns, seats, totals and ratings compared by content (docs/reliability.md). Exits
non-zero on the first difference; the four databases are dropped at the end unless --keep.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts import served  # noqa: E402
from scripts.served import ROOT, create_database, drop_database, rows  # noqa: E402

CORPUS_FILES = [
    "tests/data/corpus/valid.fcn",
    "tests/data/hostile/mixed_line_endings.fcn",
    "tests/data/hostile/cr_only.fcn",
    "tests/data/hostile/bom_utf8.fcn",
    "tests/data/hostile/html_script_names_and_comments.fcn",
    "tests/data/hostile/bidi_and_zero_width_names.fcn",
]
# Columns that a re-import sets anew (ids, times, uploader): everything else must be equal.
GAME_NEW = ("id", "match_id", "uploaded_by_id", "uploaded_at", "validated_at", "updated_at")


class Mismatch(Exception):
    pass


def url_of(server: str, name: str) -> str:
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(server)._replace(path=f"/{name}"))


def manage(database_url: str, *args: str) -> str:
    return served.manage(served.production_env(database_url), *args)


def table_digests(database_url: str) -> dict[str, tuple[int, str]]:
    """Every table of the public schema: (row count, md5 of its rows in text order)."""
    tables = [r[0] for r in rows(database_url, "SELECT tablename FROM pg_tables "
                                               "WHERE schemaname = 'public' ORDER BY 1")]
    out = {}
    for table in tables:
        (count, digest), = rows(
            database_url,
            f'SELECT count(*), md5(coalesce(string_agg(t::text, E\'\\n\' ORDER BY t::text), \'\')) '
            f'FROM "{table}" t',
        )
        out[table] = (int(count), str(digest))
    return out


def sequences(database_url: str) -> dict[str, Any]:
    return dict(rows(database_url, "SELECT sequencename, last_value FROM pg_sequences "
                                   "WHERE schemaname = 'public' ORDER BY 1"))


def originals(database_url: str) -> list[tuple[str, str]]:
    """(content hash, original text) of every game, by content hash."""
    return [(str(h), str(t)) for h, t in rows(
        database_url, "SELECT content_hash, original_text FROM records_game ORDER BY 1")]


def derived_games(database_url: str) -> list[tuple[str, str]]:
    drop_keys = " - ".join(f"'{c}'" for c in GAME_NEW)
    return [(str(h), str(j)) for h, j in rows(
        database_url,
        f"SELECT g.content_hash, ((to_jsonb(g) - {drop_keys}) "
        "|| jsonb_build_object('match', m.key))::text "
        "FROM records_game g LEFT JOIN records_match m ON m.id = g.match_id ORDER BY 1",
    )]


def seats(database_url: str) -> list[tuple[str, int, str, str]]:
    return [(str(h), int(s), str(k), str(j)) for h, s, k, j in rows(
        database_url,
        "SELECT g.content_hash, s.seat, p.name_key, "
        "(to_jsonb(s) - 'id' - 'game_id' - 'player_id')::text "
        "FROM records_gameseat s JOIN records_game g ON g.id = s.game_id "
        "JOIN records_player p ON p.id = s.player_id ORDER BY 1, 2",
    )]


def player_totals(database_url: str) -> list[tuple[str, str]]:
    return [(str(k), str(j)) for k, j in rows(
        database_url,
        "SELECT p.name_key, (to_jsonb(t) - 'id' - 'player_id')::text "
        "FROM ratings_playertotals t JOIN records_player p ON p.id = t.player_id ORDER BY 1, 2",
    )]


def ratings(database_url: str) -> list[tuple[str, str]]:
    return [(str(k), str(j)) for k, j in rows(
        database_url,
        "SELECT p.name_key, (to_jsonb(r) - 'id' - 'player_id' - 'updated_at')::text "
        "FROM ratings_playerrating r JOIN records_player p ON p.id = r.player_id ORDER BY 1, 2",
    )]


def same(what: str, left: Any, right: Any) -> None:
    if left != right:
        if isinstance(left, dict) and isinstance(right, dict):
            keys = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
            raise Mismatch(f"{what} differ: {keys[:10]}")
        if isinstance(left, list) and isinstance(right, list):
            at = next((i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
                      min(len(left), len(right)))
            raise Mismatch(f"{what} differ ({len(left)} vs {len(right)} rows), first at {at}: "
                           f"{str(left[at:at + 1])[:300]} vs {str(right[at:at + 1])[:300]}")
        raise Mismatch(f"{what} differ")
    size = len(left) if hasattr(left, "__len__") else 1
    print(f"  same {what} ({size})")


def seed(source: str, games: int) -> None:
    manage(source, "seed_demo", "--games", str(games))
    manage(source, "import_games", *[str(ROOT / f) for f in CORPUS_FILES])


def check_dump_restore(server: str, source: str, target_name: str, workdir: Path) -> None:
    target = url_of(server, target_name)
    create_database(target)
    dump = workdir / "archive.dump"
    subprocess.run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), source], check=True)
    subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "-d", target, str(dump)],
                   check=True)
    print(f"  pg_dump -Fc: {dump.stat().st_size} bytes")
    same("tables (row counts and md5 of all rows)", table_digests(source), table_digests(target))
    same("sequence positions", sequences(source), sequences(target))
    same("original texts", originals(source), originals(target))


def check_reimport(server: str, source: str, target_name: str, workdir: Path, fmt: str,
                   empty: str) -> None:
    target = url_of(server, target_name)
    create_database(target, template=empty)
    export = workdir / f"archive.{fmt}"
    manage(source, "export_games", "--format", fmt, "--output", str(export))
    print(f"  export_games --format {fmt}: {export.stat().st_size} bytes")
    out = manage(target, "import_games", str(export))
    print(f"  import_games: {out.strip().splitlines()[-1] if out.strip() else ''}")
    checks: list[tuple[str, Callable[[str], Any]]] = [
        ("original texts, byte for byte, with their content hashes", originals),
        ("derived game columns", derived_games),
        ("seats (player and every per-seat fact)", seats),
        ("player totals", player_totals),
        ("ratings", ratings),
    ]
    for what, snapshot in checks:
        same(what, snapshot(source), snapshot(target))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--prefix", default="fourcolor_h6")
    parser.add_argument("--keep", action="store_true", help="keep the four databases")
    args = parser.parse_args(argv)
    names = [f"{args.prefix}_{n}" for n in ("backup", "restore", "reimport", "empty")]
    source = url_of(args.server, names[0])
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="fourcolor-backup-") as tmp:
            print(f"seeding {names[0]} ({args.games} demo games and the corpora)...", flush=True)
            # Migrated once: the re-imports' empty databases are copies of it.
            create_database(source)
            manage(source, "migrate", "--noinput")
            create_database(url_of(args.server, names[3]), template=names[0])
            seed(source, args.games)
            (count,), = rows(source, "SELECT count(*) FROM records_game")
            print(f"  {count} games")
            print(f"pg_dump -Fc {names[0]} | pg_restore into {names[1]}", flush=True)
            check_dump_restore(args.server, source, names[1], Path(tmp))
            for fmt in ("fcn", "ndjson"):
                print(f"export_games --format {fmt} | import_games into an empty {names[2]}",
                      flush=True)
                check_reimport(args.server, source, names[2], Path(tmp), fmt, names[3])
    except (Mismatch, subprocess.CalledProcessError) as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            for name in names:
                drop_database(url_of(args.server, name))
    print(f"backup and restore: all equal ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
