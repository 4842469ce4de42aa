"""The engine's replay of a stored game, kept for a few recent games per process.

A replay costs one parse and one pass of the engine over the record (about 2 ms for a round
of 40 plies); stepping through a game asks for its plies one after another, so the last few
replays are kept, keyed by the canonical text's hash (a revalidated game that changed is a
different key and is never served stale).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import fourcolor
from fourcolor.replay import Replay

from records.models import Game

CACHE_SIZE = 32
_cache: OrderedDict[str, Replay] = OrderedDict()
_lock = threading.Lock()


def load_replay(game: Game) -> Replay:
    """The replay of `game`'s canonical text; raises `fourcolor.FcnError` when the current
    engine refuses it (the API answers 422 with the position, see api.exceptions)."""
    key = game.content_hash
    with _lock:
        replay = _cache.get(key)
        if replay is not None:
            _cache.move_to_end(key)
            return replay
    record = fourcolor.parse_record(game.canonical_text)
    replay = Replay(record)
    with _lock:
        _cache[key] = replay
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return replay


def clear_cache() -> None:
    with _lock:
        _cache.clear()
