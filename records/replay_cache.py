"""The one cache of the engine's replays of stored games, for the web pages and the API.

A replay costs a parse and a pass of the engine over the record (a few ms for a long round),
its review several times that; a replay page, a client stepping through the plies, and every
gunicorn worker ask for the same game again and again. So:

- the replay is kept in Django's cache (`CACHES`: Redis when
  REDIS_URL is set, the database's cache table otherwise), shared by every worker and
  machine, for CACHE_SECONDS;
- the last LOCAL_SIZE replays are also kept in this process, so that consecutive plies of one
  game do not even read the shared cache; and so are the last LOCAL_ENTRIES of what is kept
  beside them (`kept`, `cached`, `cached_pieces`; an entry at most LOCAL_ENTRY_CHARS long,
  LOCAL_CHARS in all), so that a worker asked again for an answer or a ply state it read or
  built makes no query of the cache (on the database cache, one query fewer per API read);
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
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from django.core.cache import cache

import fourcolor
from fourcolor.replay import Replay

from records.models import Game

T = TypeVar("T")

CACHE_SECONDS = 24 * 3600
LOCAL_SIZE = 32
LOCAL_ENTRIES = 2000
LOCAL_ENTRY_CHARS = 64 * 1024  # a larger entry is read from the shared cache each time
LOCAL_CHARS = 16 * 1024 * 1024  # all the copies together: ~16 MiB a worker at most


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
# This process's copies of the shared cache's entries, by key. A key names its content (the
# replay key, or an ETag, and the part's version), so a copy is never stale: a changed game is
# a new key. Text is kept as it is; anything else pickled, as the shared cache keeps it, so
# that every caller gets its own copy to change. A copy lasts no longer than the entry it
# copies was written for (the monotonic clock's deadline beside it).
_entries: OrderedDict[str, tuple[float, str | bytes]] = OrderedDict()
_entries_chars = 0  # their lengths' sum
_PICKLED = b"p"  # the first byte of a pickled copy (text is kept as str)


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
    found: dict[str, T] = {}
    for key in keys:
        here = _copy_of(key)
        if here is not _MISSING:
            found[key] = here
    missing = [key for key in keys if key not in found]
    if len(missing) == 1:  # a ply's request: `get` is the cheaper read on every cache
        hit = cache.get(missing[0])
        shared = {missing[0]: hit} if hit is not None else {}
    else:
        shared = cache.get_many(missing) if missing else {}
    if len(shared) == len(missing):
        for key, piece in shared.items():
            _keep_copy(key, piece, CACHE_SECONDS)
        found.update(shared)
        return [found[key] for key in keys]
    pieces = build()
    cache.set_many({f"{prefix}{n}": piece for n, piece in enumerate(pieces)}, CACHE_SECONDS)
    for key, n in zip(keys, wanted, strict=True):
        _keep_copy(key, pieces[n], CACHE_SECONDS)
    return [pieces[n] for n in wanted]


def kept(key: str, build: Callable[[], T], seconds: int) -> T:
    """The value kept under `key` in Django's cache (Redis with REDIS_URL, the database's
    otherwise) when some request built it before, else `build()`, kept for `seconds`; a copy
    is kept in this process too (see `_entries`). (Not `cache.get_or_set`: its miss goes
    through `add`, several round trips on the database cache where `set` is one upsert,
    common.cache.DatabaseCache.)"""
    here = _copy_of(key)
    if here is not _MISSING:
        return here  # type: ignore[no-any-return]
    hit = cache.get(key)
    if hit is not None:
        _keep_copy(key, hit, seconds)
        value: T = hit
        return value
    value = build()
    cache.set(key, value, seconds)
    _keep_copy(key, value, seconds)
    return value


_MISSING: object = object()


def _copy_of(key: str) -> Any:
    """This process's copy of the shared cache's entry `key`, or _MISSING."""
    global _entries_chars
    with _lock:
        entry = _entries.get(key)
        if entry is None:
            return _MISSING
        deadline, copy = entry
        if time.monotonic() >= deadline:
            del _entries[key]
            _entries_chars -= len(copy)
            return _MISSING
        _entries.move_to_end(key)
    if isinstance(copy, str):
        return copy
    return pickle.loads(copy[1:])


def _keep_copy(key: str, value: object, seconds: int) -> None:
    global _entries_chars
    copy: str | bytes = (value if isinstance(value, str)
                         else _PICKLED + pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    if len(copy) > LOCAL_ENTRY_CHARS:
        return
    with _lock:
        former = _entries.pop(key, None)
        if former is not None:
            _entries_chars -= len(former[1])
        _entries[key] = (time.monotonic() + seconds, copy)
        _entries_chars += len(copy)
        while len(_entries) > LOCAL_ENTRIES or _entries_chars > LOCAL_CHARS:
            _, (_, oldest) = _entries.popitem(last=False)
            _entries_chars -= len(oldest)


def _remember(key: str, replay: Replay) -> None:
    with _lock:
        _local[key] = replay
        while len(_local) > LOCAL_SIZE:
            _local.popitem(last=False)


def clear_local() -> None:
    """Forget this process's replays and copies (tests; the shared cache is Django's to
    clear)."""
    global _entries_chars
    with _lock:
        _local.clear()
        _entries.clear()
        _entries_chars = 0
