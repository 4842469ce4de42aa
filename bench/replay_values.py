"""CPU time of a replay written out (issue 16 item 6): every ply state as the API writes it,
the API's review, and the web replay page's payload, for the longest of 60 bot-played rounds
(bench/api_reads.py's). CPU time (process_time), best of 5 runs of 20 repetitions, so the
figures survive a loaded machine. Run it in two trees to compare:

    .venv/bin/python bench/replay_values.py
    PYTHONPATH=/path/to/older/tree .venv/bin/python bench/replay_values.py

It says whether the tree's replay returns values (PlyState...) or dicts (before issue 16).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-used-anywhere-else-0123456789")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

import fourcolor  # noqa: E402
from api.serializers.replays import PlyReviewDoc, PlyStateDoc  # noqa: E402

try:
    from api.serializers.replays import engine_ply_states, ply_state_answer
except ImportError:  # a tree from before the values (issue 16)
    pass
from fourcolor.generate import generate_record  # noqa: E402
from fourcolor.replay import Replay  # noqa: E402
from web.views.replay_data import replay_payload  # noqa: E402


def main() -> int:
    texts = [fourcolor.write_fcn(generate_record("classic", 3 + n % 2, n, bot="random"))
             for n in range(60)]
    record = max((fourcolor.parse_record(t) for t in texts), key=lambda r: len(r.events))
    replay = Replay(record)
    plies = range(replay.plies + 1)
    states: Callable[[], Any]
    review: Callable[[], Any]
    if "to_representation" in PlyStateDoc.__dict__:
        kind = "values"
        ply_review = PlyReviewDoc().to_representation

        def states() -> Any:
            # As the API's game views build them (api.views.games._ply_states), with the
            # answer's `game` and `links` added as PlyStateDoc does.
            written = engine_ply_states((replay.state(n) for n in plies), lambda n: None)
            return [ply_state_answer(1, state, {}) for state in written]

        def review() -> Any:
            return [ply_review(p) for p in replay.review()]
    else:
        kind = "dicts"

        def states() -> Any:
            return [{"game": 1, **replay.state(n), "says": None, "links": {}} for n in plies]

        def review() -> Any:
            return replay.review()

    def best(fn: Callable[[], Any]) -> float:
        runs = []
        for _ in range(5):
            start = time.process_time()
            for _ in range(20):
                fn()
            runs.append((time.process_time() - start) / 20 * 1000)
        return min(runs)

    print(f"{kind}: {replay.plies} plies; API states {best(states):.2f} ms, API review "
          f"{best(review):.2f} ms, web payload {best(lambda: replay_payload(replay, None)):.2f} "
          "ms (CPU, best of 5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
