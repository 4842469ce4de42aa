"""Fault test: the database restarted during an import loses no record and stores no partial one.

    .venv/bin/python scripts/fault_db_restart.py [--records 4000] [--port 5441]

Runs as root with PostgreSQL's server binaries and the `postgres` OS user: a throwaway
instance (`initdb` in a temporary directory, the first free port of 5441-5444), removed at the
end whatever happens; the shared server is never touched. The database is restarted when a
quarter of the records are stored and stopped past the import's retries at 60 %; the import is
then resumed with the command it printed. Steps and checks: docs/reliability.md. Exit status
1 when a check fails.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.served import (  # noqa: E402
    PYTHON, Instance, free_port, manage, production_env, records_file, run_manage, start,
    throwaway_instance, verdict)

PORTS = range(5441, 5445)
BAD_EVERY = 250
REPEAT_EVERY = 400
# Longer than records.services.DB_RETRY_DELAYS (7.5 s in all) plus the attempts themselves.
LONG_OUTAGE_S = 12.0


def write_file(path: Path, records: int) -> tuple[int, int, int]:
    """The test file: `records` valid records, a refused one (an unknown ruleset) after every
    BAD_EVERY-th and a repeat after every REPEAT_EVERY-th; returns (records in it, refused
    ones, repeated ones)."""
    _, texts = records_file(records, "fault-db-restart")
    out: list[str] = []
    refused = repeated = 0
    for i, text in enumerate(texts, start=1):
        out.append(text)
        if i % BAD_EVERY == 0:
            out.append(text.replace('[Ruleset "', '[Ruleset "no-such-', 1))
            refused += 1
        if i % REPEAT_EVERY == 0:
            out.append(texts[i // 2])
            repeated += 1
    path.write_text("\n".join(out), encoding="utf-8", newline="\n")
    return len(out), refused, repeated


def wait_for_games(db: Instance, count: int, process: subprocess.Popen[bytes], log: Path) -> int:
    while process.poll() is None:
        stored = db.query("SELECT count(*) FROM records_game") or 0
        if stored >= count:
            return int(stored)
        time.sleep(0.05)  # an idle machine stores about 500 records in 0.7 s
    tail = log.read_text(errors="replace").splitlines()[-5:]
    raise SystemExit(f"the import ended (exit {process.returncode}) before {count} games were "
                     "stored: use more --records. Its last lines:\n" + "\n".join(tail))


def stored_counts(output: str) -> dict[str, int]:
    m = re.search(r": (\d+) stored, (\d+) duplicates, (\d+) refused"
                  r"(?:, (\d+) not stored \(database unavailable\))?", output)
    if m is None:
        raise SystemExit(f"no summary in the import's output:\n{output}")
    return {"stored": int(m[1]), "duplicates": int(m[2]), "refused": int(m[3]),
            "unavailable": int(m[4] or 0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=4000)
    parser.add_argument("--port", type=int, default=None, help="default: first free of 5441-4")
    args = parser.parse_args()
    with throwaway_instance(args.port or free_port(PORTS), "fourcolor_fault") as db:
        return run(db, args.records)


def run(db: Instance, records: int) -> int:
    env = production_env(db.url)
    manage(env, "migrate", "--verbosity", "0")
    path = db.base / "fault.fcn"
    total, refused, repeated = write_file(path, records)
    valid = total - refused - repeated
    print(f"file: {total} records ({refused} refused, {repeated} repeats, {valid} to store)")

    t0 = time.monotonic()
    # One process: a parallel import's chunks past the resume point may be stored already, and
    # the resumed run then reports them as duplicates too, which the duplicate count below
    # does not expect. (The resumed run is parallel; the Celery fault script cuts parts.)
    log = db.base / "import.log"
    process = start([PYTHON, "manage.py", "import_games", str(path), "--jobs", "1"], env, log)
    at = wait_for_games(db, valid // 4, process, log)
    db.stop()
    db.start()
    print(f"a. {time.monotonic() - t0:5.1f} s: restarted at once at {at} games stored", flush=True)
    at = wait_for_games(db, valid * 6 // 10, process, log)
    db.stop()
    down = time.monotonic()
    print(f"b. {down - t0:5.1f} s: stopped at {at} games stored", flush=True)
    time.sleep(LONG_OUTAGE_S)
    db.start()
    print(f"   {time.monotonic() - t0:5.1f} s: started again after {time.monotonic() - down:.1f}"
          " s down", flush=True)
    process.wait()
    output = log.read_text()
    first = stored_counts(output)
    hint = re.search(r"Resume with: manage\.py import_games (--start-at (\d+) \S+)", output)
    print(f"first run: exit {process.returncode}, {first}")
    for line in output.strip().splitlines():
        if "Traceback" in line or line.startswith("CommandError") or "WARNING" in line:
            print(f"  {line[:300]}")
    checks: list[tuple[str, bool]] = [
        ("the first run stopped with exit status 1", process.returncode == 1),
        ("it reported records not stored", first["unavailable"] > 0),
        ("it printed the resume command", hint is not None),
        ("no traceback", "Traceback" not in output),
    ]
    second: dict[str, int] = {"stored": 0, "duplicates": 0, "refused": 0, "unavailable": 0}
    if hint is not None:
        resumed = run_manage(env, "import_games", *hint[1].split())
        second = stored_counts(resumed.stdout)
        print(f"resumed from record {int(hint[2])}: exit {resumed.returncode}, {second}")
        checks.append(("the resumed run ended normally", resumed.returncode == 0))
    # What the first run could not count in the statistics while the database was down.
    missing = run_manage(env, "recompute_stats", "--missing", "--no-progress")
    checks.append(("recompute_stats --missing ran", missing.returncode == 0))
    games = db.query("SELECT count(*) FROM records_game")
    counted = db.query("SELECT count(*) FROM ratings_countedgame")
    hashes = db.query("SELECT count(DISTINCT content_hash) FROM records_game")
    partial = db.query(
        "SELECT count(*) FROM records_game g WHERE g.players <> "
        "(SELECT count(*) FROM records_gameseat s WHERE s.game_id = g.id)"
    )
    print(f"database: {games} games, {hashes} distinct content hashes, {partial} games whose "
          f"seats are not all stored, {counted} games counted in the statistics")
    checks += [
        ("every game stored once", games == hashes),
        ("no game partially stored", partial == 0),
        (f"games stored = records to store ({valid})", games == valid),
        ("records reported stored (both runs) = games stored",
         first["stored"] + second["stored"] == games),
        ("every game counted in the statistics", counted == games),
        ("repeats reported as duplicates", first["duplicates"] + second["duplicates"]
         == repeated),
    ]
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
