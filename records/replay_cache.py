"""The one cache of the engine's replays of stored games, for the web pages and the API.

A replay costs a parse and a pass of the engine over the record (a few ms for a long round),
its review several times that; a replay page, a client stepping through the plies, and every
gunicorn worker ask for the same game again and again. So:

- the replay is kept in Django's cache (`CACHES`: Redis when
  REDIS_URL is set, the database's cache table otherwise), shared by every worker and
  machine, for CACHE_SECONDS;
- the last LOCAL_SIZE replays are also kept in this process, so that consecutive plies of one
  game do not even read the shared cache;
- what a view builds from a replay (the web page's payload) is kept beside it (`cached`);
  what is read a piece at a time (the API's ply states) is kept a piece an entry beside it
  (`cached_pieces`), so that a request reads and decodes only its pieces.

Every key holds the game's id, its content hash, when it was last validated, the running
engine's version and a hash of the engine's code (`replay_key`): a revalidation
(`manage.py revalidate --update`), a new engine or a rewritten record is a new key, so
nothing stale is ever served; old entries expire.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from django.core.cache import cache

import fourcolor
from fourcolor.replay import Replay

from records.models import Game

T = TypeVar("T")

CACHE_SECONDS = 24 * 3600
LOCAL_SIZE = 32


def _engine_fingerprint() -> str:
    """A hash of the engine's source: a cached replay is a pickled `Replay`, which only the
    code that made it reads back, and a deploy may change that code without a new version."""
    digest = hashlib.sha256()
    for path in sorted(Path(fourcolor.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


ENGINE_FINGERPRINT = _engine_fingerprint()
_local: OrderedDict[str, Replay] = OrderedDict()
_lock = threading.Lock()


def replay_key(game: Game) -> str:
    validated = game.validated_at.isoformat() if game.validated_at else ""
    return (f"fourcolor:replay:{fourcolor.__version__}:{ENGINE_FINGERPRINT}:{game.pk}:"
            f"{game.content_hash}:{validated}")


def load_replay(game: Game) -> Replay:
    """The replay of `game`'s canonical text; raises `fourcolor.FcnError` when the running
    engine refuses it (the caller says so: a page, or the API's 422)."""
    key = replay_key(game)
    with _lock:
        replay = _local.get(key)
        if replay is not None:
            _local.move_to_end(key)
            return replay
    replay = cache.get(key)
    if replay is None:
        replay = Replay(fourcolor.parse_record(game.canonical_text))
        cache.set(key, replay, CACHE_SECONDS)
    _remember(key, replay)
    return replay


def cached(game: Game, part: str, build: Callable[[], T]) -> T:
    """What `build()` makes of the game's replay, kept under the replay's key and `part`
    (which names what it is and its version)."""
    return kept(f"{replay_key(game)}:{part}", build, CACHE_SECONDS)


def cached_pieces(game: Game, part: str, wanted: Sequence[int],
                  build: Callable[[], Sequence[T]]) -> list[T]:
    """Pieces `wanted` (indexes) of what `build()` makes of the game's replay, a list kept a
    piece a cache entry under the replay's key, `part` (which names what it is and its
    version) and the piece's index: a request reads the entries it asks for, not the whole
    list (a game's 134 API ply states, 281 KiB, were one entry read and unpickled whole for
    every ply). When any of them is missing (never built, or culled), the list is built again
    and every piece kept in one write (`set_many`). A revalidation or a new engine is a new
    replay key, as for `cached`."""
    prefix = f"{replay_key(game)}:{part}:"
    keys = [f"{prefix}{n}" for n in wanted]
    if len(keys) == 1:  # a ply's request: `get` is the cheaper read on every cache
        hit = cache.get(keys[0])
        found = {keys[0]: hit} if hit is not None else {}
    else:
        found = cache.get_many(keys)
    if len(found) == len(keys):
        return [found[key] for key in keys]
    pieces = build()
    cache.set_many({f"{prefix}{n}": piece for n, piece in enumerate(pieces)}, CACHE_SECONDS)
    return [pieces[n] for n in wanted]


def kept(key: str, build: Callable[[], T], seconds: int) -> T:
    """The value kept under `key` in Django's cache (Redis with REDIS_URL, the database's
    otherwise) when some request built it before, else `build()`, kept for `seconds`. (Not
    `cache.get_or_set`: its miss goes through `add`, several round trips on the database
    cache where `set` is one upsert, config.cache.DatabaseCache.)"""
    hit = cache.get(key)
    if hit is not None:
        value: T = hit
        return value
    value = build()
    cache.set(key, value, seconds)
    return value


def _remember(key: str, replay: Replay) -> None:
    with _lock:
        _local[key] = replay
        while len(_local) > LOCAL_SIZE:
            _local.popitem(last=False)


def clear_local() -> None:
    """Forget this process's replays (tests; the shared cache is Django's to clear)."""
    with _lock:
        _local.clear()
