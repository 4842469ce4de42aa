"""Fuzz the FCN reader and validator for a fixed time; print inputs tried and crashes found.

    .venv/bin/python scripts/fuzz_notation.py --seconds 60

Inputs: arbitrary Unicode, text over FCN's alphabet, and mutated valid records. A crash is
anything `check_record` raises or a verdict without position and category; crashing inputs are
written to var/fuzz-crashes/.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fourcolor  # noqa: E402
from fourcolor.generate import generate_record  # noqa: E402

FCN_ALPHABET = '[]{}()"\\: .\n\r\t0123456789xdmwrchrygwKAERHCP-*z\x00é四²'
TOKENS = ["rK", "yP", "gE", "wC", "1x", "2d", "3m", "4w", "1r", "(", ")", "{", "}", "12.", "\n",
          '[Result "*"]', '[Pile "rK"]', "5q", "zz", "\r\n", " "]


def random_text(rng: random.Random) -> str:
    n = rng.randrange(0, 400)
    return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(n))


def alphabet_text(rng: random.Random) -> str:
    return "".join(rng.choice(FCN_ALPHABET) for _ in range(rng.randrange(0, 600)))


def mutated_record(rng: random.Random, corpus: list[str]) -> str:
    text = list(rng.choice(corpus))
    for _ in range(rng.randrange(1, 6)):
        op = rng.randrange(4)
        pos = rng.randrange(len(text) + 1)
        if op == 0 and text:
            del text[min(pos, len(text) - 1)]
        elif op == 1:
            text.insert(pos, rng.choice(FCN_ALPHABET))
        elif op == 2:
            text[pos:pos] = list(rng.choice(TOKENS))
        elif text:
            a, b = sorted((rng.randrange(len(text)), rng.randrange(len(text))))
            text[a:b] = text[a:b][::-1]
    return "".join(text)


def check(text: str) -> str | None:
    """None when the verdict is well-formed, else a description of the crash."""
    try:
        result = fourcolor.check_record(text)
    except Exception:  # a crash is exactly what we look for
        return traceback.format_exc()
    if result.error is not None:
        err = result.error
        if not err.category or err.ply < 0 or err.line < 0 or err.col < 0:
            return f"malformed error: {err!r}"
        str(err)
    elif result.game is None:
        return "neither a game nor an error"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    corpus = [
        fourcolor.write_fcn(generate_record(rs, n, s, bot=b))
        for s in range(20)
        for rs in ("classic", "bga")
        for n in (2, 3, 4)
        for b in ("greedy", "random")
    ]
    out = Path(__file__).resolve().parent.parent / "var" / "fuzz-crashes"
    makers = (random_text, alphabet_text, lambda r: mutated_record(r, corpus))
    tried = crashes = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        text = makers[tried % 3](rng)
        tried += 1
        problem = check(text)
        if problem is not None:
            crashes += 1
            out.mkdir(parents=True, exist_ok=True)
            (out / f"crash-{crashes}.fcn").write_text(text, encoding="utf-8", errors="replace")
            print(problem, file=sys.stderr)
    print(f"fuzz: {tried} inputs in {args.seconds:.0f} s, {crashes} crashes (seed {args.seed})")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
