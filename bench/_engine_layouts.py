"""The layouts beside python-chess for bench/engine.py --layouts: parse and
validate per event in every layout of `_layouts` and in the corpus files, each read from a
file as `fourcolor validate FILE` reads it, beside python-chess's PGN reader in the same run."""

from __future__ import annotations

import io
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _engine_figures import (
    CORPUS,
    CORPUS_FILES,
    REF_CHESS_US_PER_PLY,
    RULESETS,
    TARGET_CHESS_RATIO,
    Row,
    Sizes,
    _median_pass,
    _min_pass,
    _per,
    verdict,
)
from _layouts import LAYOUTS, eager_records, layout_text

from fourcolor import check_record
from fourcolor.notation import iter_records


# --------------------------------------------------------------------------- layouts


def _check_file(path: Path) -> int:
    """What `fourcolor validate FILE` does: the file opened as the CLI opens it (newline="",
    so CRLF reaches the reader), `iter_records` and `check_record`; the events checked."""
    events = 0
    with open(path, encoding="utf-8-sig", newline="") as stream:
        for rt in iter_records(stream):
            check = check_record(rt.text, rt.line, oversize=rt.oversize)
            if check.record is None or check.error is not None:
                where = f"{path}: record {rt.index} (line {rt.line})"
                raise SystemExit(f"{where} refused: {check.error}")
            events += len(check.record.events)
    return events


@dataclass
class LayoutFigure:
    measure: str
    sample: str
    seconds: float
    wall: float
    events: int


def bench_layouts(sizes: Sizes, folder: Path) -> list[LayoutFigure]:
    """Each layout of `_layouts` over the same 4-seat eager rounds (both rulesets), and the
    corpus files as they are, each read from a file; the fastest of the repeats."""
    records = [r for name in RULESETS for r in eager_records(name, sizes.layout_rounds)]
    warm = [r for name in RULESETS for r in eager_records(name, 20, salt="layouts-warm")]
    events = sum(len(r.events) for r in records)
    melds = sum(e.verb in "mw" for r in records for e in r.events)
    out: list[LayoutFigure] = []
    for layout in LAYOUTS:
        path = folder / f"{len(out)}.fcn"
        path.write_bytes(layout_text(layout, records, "timed").encode("utf-8"))
        warm_path = folder / f"{len(out)}-warm.fcn"
        warm_path.write_bytes(layout_text(layout, warm, "warm").encode("utf-8"))
        _check_file(warm_path)
        seconds, wall, read = _min_pass(lambda p=path: _check_file(p), max(3, sizes.repeats))
        if read != events:
            raise SystemExit(f"{layout}: read {read} events, {events} were written")
        sample = f"{len(records):,} 4-seat rounds, {events:,} events ({melds / events:.0%} m/w)"
        out.append(LayoutFigure(f"layout: {layout}", sample, seconds, wall, events))
    for name in CORPUS_FILES:
        path = CORPUS / name
        if not path.exists():
            continue
        _check_file(path)  # a small file: its own warm-up
        seconds, wall, read = _min_pass(lambda p=path: _check_file(p), 5 * max(3, sizes.repeats))
        records_in = sum(1 for _ in iter_records(path.read_text(encoding="utf-8").splitlines(True)))
        sample = f"{records_in} records, {read:,} events"
        out.append(LayoutFigure(f"corpus: {name} as it is", sample, seconds, wall, read))
    return out


def layout_rows(figures: Sequence[LayoutFigure], chess_us: float) -> list[Row]:
    rows = []
    for f in figures:
        us = f.seconds / f.events * 1e6
        ratio = us / chess_us
        rows.append(
            Row(
                f.measure,
                f.sample,
                f"{us:.2f} µs/event (wall {f.wall / f.events * 1e6:.2f}) = {ratio:.3f}×",
                f"≤ {TARGET_CHESS_RATIO}× python-chess",
                verdict(ratio, TARGET_CHESS_RATIO),
            )
        )
    return rows


# --------------------------------------------------------------------------- chess reference


def chess_pgn(count: int, seed: str) -> tuple[str, int]:
    """`count` random legal games (uniform random moves, at most 80 plies) as PGN text."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    games = []
    plies = 0
    for _ in range(count):
        board = chess.Board()
        while len(board.move_stack) < 80 and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        plies += len(board.move_stack)
        games.append(str(chess.pgn.Game.from_board(board)))
    return "\n\n".join(games) + "\n", plies


def _read_pgn(text: str) -> int:
    import chess.pgn

    handle = io.StringIO(text)
    plies = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        if game.errors:
            raise SystemExit(f"python-chess refused a generated game: {game.errors[0]}")
        plies += game.end().ply()
    return plies


def bench_chess(sizes: Sizes) -> list[Row]:
    warm, _ = chess_pgn(sizes.warmup_games, "chess:warm")
    text, plies = chess_pgn(sizes.chess_games, "chess:timed")
    _read_pgn(warm)
    seconds, wall, read = _median_pass(lambda: _read_pgn(text), sizes.repeats)
    if read != plies:
        raise SystemExit(f"python-chess read {read} plies, {plies} were written")
    return [
        Row(
            "ref: python-chess chess.pgn.read_game (SAN vs legal moves)",
            f"{sizes.chess_games} random games, {plies:,} plies",
            _per(seconds, wall, plies, "ply"),
            "≈ 29 µs/ply",
            "ref",
            seconds / plies * 1e6,
            REF_CHESS_US_PER_PLY,
        )
    ]


def bench_layouts_vs_chess(sizes: Sizes) -> list[Row]:
    """The layouts beside python-chess, in the same run: the chess pass is repeated before
    and after the layouts and its fastest pass is the reference."""
    warm, _ = chess_pgn(sizes.warmup_games, "chess:warm")
    text, plies = chess_pgn(sizes.chess_games, "chess:timed")
    _read_pgn(warm)
    repeats = max(3, sizes.repeats)
    before = _min_pass(lambda: _read_pgn(text), repeats)
    with tempfile.TemporaryDirectory(prefix="fourcolor-layouts-") as folder:
        figures = bench_layouts(sizes, Path(folder))
    after = _min_pass(lambda: _read_pgn(text), repeats)
    seconds, wall, _ = min(before, after)
    chess_us = seconds / plies * 1e6
    ref = Row(
        "ref: python-chess read_game, fastest pass before/after",
        f"{sizes.chess_games} random games, {plies:,} plies",
        _per(seconds, wall, plies, "ply")
        + f"; before {before[0] / plies * 1e6:.2f}, after {after[0] / plies * 1e6:.2f}",
        "",
        "ref",
    )
    return [*layout_rows(figures, chess_us), ref]
