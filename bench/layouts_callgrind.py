"""Issue 18 goal 1 in instructions: parse + validate per event in every layout beside
python-chess's PGN reader per ply, both counted by callgrind (which does not move with the
machine's load, unlike CPU time on a shared 2-core machine).

    .venv/bin/python bench/layouts_callgrind.py            # 30 rounds per ruleset, 40 games
    .venv/bin/python bench/layouts_callgrind.py --rounds 60 --games 80 --jobs 2

Each measurement is one child process under `valgrind --tool=callgrind`: it first makes an
uncounted warm-up pass over other inputs (other seeds: the caches and tables warm, no timed input
seen), then one pass over the timed file inside `functools.reduce`, and callgrind counts only
what runs inside that call (`--toggle-collect=functools_reduce`). The pass is what `fourcolor
validate FILE` does (the file opened with newline="", `iter_records`, `check_record`), or
`chess.pgn.read_game` over the games. Needs valgrind; a few minutes (valgrind runs Python about
50 times slower).
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# The checkout first, as bench/_common.py does: the child processes import its fourcolor.
_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

TARGET_CHESS_RATIO = 0.2
RULESETS = ("classic", "bga")


def _fcn_pass(path: str) -> int:
    from fourcolor import check_record
    from fourcolor.notation import iter_records

    events = 0
    with open(path, encoding="utf-8-sig", newline="") as stream:
        for rt in iter_records(stream):
            check = check_record(rt.text, rt.line, oversize=rt.oversize)
            if check.record is None or check.error is not None:
                raise SystemExit(f"{path}: record {rt.index} refused: {check.error}")
            events += len(check.record.events)
    return events


def _chess_pass(path: str) -> int:
    import chess.pgn

    handle = io.StringIO(Path(path).read_text())
    plies = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        plies += game.end().ply()
    return plies


def child(kind: str, timed: str, warm: str) -> None:
    """Under callgrind: the warm-up pass, then the counted pass inside functools.reduce."""
    one = _fcn_pass if kind == "fcn" else _chess_pass
    one(warm)
    units = functools.reduce(lambda total, path: total + one(path), [timed], 0)
    print(f"units {units}")


def count(kind: str, timed: Path, warm: Path) -> tuple[int, int]:
    """(instructions, events or plies) of one counted pass."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=functools_reduce",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--child",
            kind,
            str(timed),
            str(warm),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", out.stderr)
    units = re.search(r"units (\d+)", out.stdout)
    if collected is None or units is None:
        raise SystemExit(f"no count from valgrind for {timed}:\n{out.stderr[-2000:]}")
    return int(collected.group(1)), int(units.group(1))


def write_inputs(folder: Path, rounds: int, games: int) -> list[tuple[str, str, Path, Path]]:
    """(label, kind, timed file, warm-up file) for every layout, the corpus files and chess."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _layouts import LAYOUTS, eager_records, layout_text
    from _engine_figures import CORPUS, CORPUS_FILES
    from _engine_layouts import chess_pgn

    timed = [r for name in RULESETS for r in eager_records(name, rounds)]
    warm = [r for name in RULESETS for r in eager_records(name, 10, salt="layouts-warm")]
    jobs = []
    for n, layout in enumerate(LAYOUTS):
        t, w = folder / f"{n}.fcn", folder / f"{n}-warm.fcn"
        t.write_bytes(layout_text(layout, timed, "timed").encode("utf-8"))
        w.write_bytes(layout_text(layout, warm, "warm").encode("utf-8"))
        jobs.append((f"layout: {layout}", "fcn", t, w))
    for name in CORPUS_FILES:
        path = CORPUS / name
        if path.exists():  # a small file: its own warm-up, as in engine.py
            jobs.append((f"corpus: {name} as it is", "fcn", path, path))
    text, _ = chess_pgn(games, "chess:timed")
    warm_text, _ = chess_pgn(max(5, games // 4), "chess:warm")
    (folder / "chess.pgn").write_text(text)
    (folder / "chess-warm.pgn").write_text(warm_text)
    jobs.append(
        ("ref: python-chess read_game", "chess", folder / "chess.pgn", folder / "chess-warm.pgn")
    )
    return jobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="4-seat rounds per ruleset")
    parser.add_argument("--games", type=int, default=40, help="random chess games")
    parser.add_argument("--jobs", type=int, default=2, help="valgrind processes at once")
    parser.add_argument(
        "--child", nargs=3, metavar=("KIND", "TIMED", "WARM"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0
    with tempfile.TemporaryDirectory(prefix="fourcolor-callgrind-") as tmp:
        jobs = write_inputs(Path(tmp), args.rounds, args.games)
        with ThreadPoolExecutor(args.jobs) as pool:
            counts = list(pool.map(lambda job: count(job[1], job[2], job[3]), jobs))
    chess_ir, plies = counts[-1]
    per_ply = chess_ir / plies
    print(f"python-chess: {per_ply:,.0f} instructions per ply ({plies:,} plies)")
    print(f"{'measure':45s} {'events':>7s} {'instr/event':>12s} {'x chess':>8s}  result")
    missed = 0
    for (label, *_), (ir, events) in zip(jobs[:-1], counts[:-1], strict=True):
        ratio = ir / events / per_ply
        verdict = "PASS" if ratio <= TARGET_CHESS_RATIO else "FAIL"
        missed += verdict == "FAIL"
        print(f"{label:45s} {events:7,d} {ir / events:12,.0f} {ratio:8.3f}  {verdict}")
    print(f"target: ≤ {TARGET_CHESS_RATIO}× python-chess per ply; {missed} missed")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
