"""The one cache of what the archive derives from a stored game: its replay's pages and answers,
kept in Django's cache (`CACHES`: Redis when REDIS_URL is set, the database's cache table
otherwise), shared by every worker and machine, for CACHE_SECONDS:

- `cached`: one value (the web page's payload, the API's answer to one address);
- `cached_pieces`: a list kept a piece an entry (the API's ply states), so that a request
  reads and decodes only its pieces.

One key scheme (`game_key`): the game's id, its content hash, when it was last validated (and
with which engine, whether stale), its uploader, the running engine's version and a hash of the
engine's code, then what the entry is (its `part`, which names its own version). A
revalidation (`manage.py revalidate --update`), a new engine or a rewritten record is a new
key, so nothing stale is ever served; old entries expire. The web's and the API's ETags of a
game's reads are built on the same key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from django.core.cache import cache

import fourcolor
from fourcolor.replay import Replay

from records.models import Game

T = TypeVar("T")

CACHE_SECONDS = 24 * 3600


def files_fingerprint(folders: Iterable[str | Path], pattern: str) -> str:
    """A hash of the files matching `pattern` under `folders`: a deploy that changes them (the
    engine's source without a new version, the site's templates) is a new key."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob(pattern)):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


ENGINE_FINGERPRINT = files_fingerprint([Path(fourcolor.__file__).parent], "*.py")


def game_key(game: Game) -> str:
    """What a game's derived answers depend on (the module doc); `game` needs its content_hash,
    engine_version, validated_at, stale and uploaded_by_id."""
    validated = game.validated_at.isoformat() if game.validated_at else ""
    return (f"fourcolor:game:{fourcolor.__version__}:{ENGINE_FINGERPRINT}:{game.pk}:"
            f"{game.content_hash}:{validated}:{game.engine_version}:{game.stale:d}:"
            f"{game.uploaded_by_id or ''}")


def strong_etag(parts: Iterable[object]) -> str:
    """An HTTP ETag (strong, quoted) of what an answer is made of: the web's and the API's."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode("utf-8"))
    return f'"{digest.hexdigest()[:40]}"'


def load_replay(game: Game) -> Replay:
    """The replay of `game`'s canonical text (not kept: what is made of it is); raises
    `fourcolor.FcnError` when the running engine refuses it (the caller says so: a page, or
    the API's 422)."""
    return Replay(fourcolor.parse_record(game.canonical_text))


def cached(game: Game, part: str, build: Callable[[], T],
           seconds: int = CACHE_SECONDS) -> T:
    """What `build()` makes of the game, kept under the game's key and `part` (which names
    what it is and its version). (Not `cache.get_or_set`: its miss goes through `add`,
    several round trips on the database cache where `set` is one, common.cache.)"""
    key = f"{game_key(game)}:{part}"
    hit = cache.get(key)
    if hit is not None:
        value: T = hit
        return value
    value = build()
    cache.set(key, value, seconds)
    return value


def cached_pieces(game: Game, part: str, wanted: Sequence[int],
                  build: Callable[[], Sequence[T]]) -> list[T]:
    """Pieces `wanted` (indexes) of what `build()` makes of the game, a list kept a piece a
    cache entry under the game's key, `part` and the piece's index: a request reads the
    entries it asks for, not the whole list (a game's 134 API ply states are 281 KiB). When
    any of them is missing (never built, or culled), the list is built again and every piece
    kept in one write (`set_many`)."""
    prefix = f"{game_key(game)}:{part}:"
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
