"""HTTP caching of the API's reads: strong ETags, Last-Modified, Cache-Control, and 304s.

Two kinds of validator, both strong (the same bytes, the same ETag):

- **A game's own reads** (its detail, record, plies, review: what never changes once stored,
  until a revalidation): the ETag is computed *before* any work, from what the answer is made
  of: the game's key in the archive's cache (records.replay_cache.game_key: its content,
  validation, uploader and the running engine), and the request's address, negotiated format
  and language (the body holds absolute links and depends on `?seat=` etc.).
  A matching `If-None-Match` (or, without one, an `If-Modified-Since` not older than the last
  validation) is answered 304 without replaying anything (`not_modified`).
- **Everything else that answers 200 to GET** (lists, statistics, players, jobs): the ETag is
  the hash of the body, set after rendering (`etag_from_body`): the client saves the transfer,
  the server still computes the answer.

A game's answer is also kept on the server (`cached_answer`, in records.replay_cache under the
game's key and its ETag): a client without one, or another client asking for the same address,
is answered without the serializers.

Cache-Control says how long a cache may reuse an answer without asking: a game's reads a
minute (`GAME_CACHE_CONTROL`: a revalidation or a deletion shows within a minute), lists and
statistics never without revalidating (`LIST_CACHE_CONTROL`), one's own token and jobs are
private. Streamed exports carry no ETag (their body is not known in advance).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils import translation
from django.utils.http import http_date
from rest_framework.request import Request
from rest_framework.response import Response

from records.replay_cache import cached, game_key, strong_etag

T = TypeVar("T")

GAME_CACHE_CONTROL = "public, max-age=60"
LIST_CACHE_CONTROL = "public, no-cache"
PRIVATE_CACHE_CONTROL = "private, no-cache"
NO_STORE = "no-store"


def game_etag(request: Request, game: Any, kind: str) -> str:
    """The ETag of one of a game's reads (see the module doc)."""
    return strong_etag((
        kind, game_key(game), request.build_absolute_uri(),
        getattr(request, "accepted_media_type", ""),
        translation.get_language(),  # a ply state says its event in the request's language
    ))


# How long a game's answer is kept on the server under its ETag. The ETag already stands for
# the answer's bytes (see game_etag), so the kept answer is as current as a client's copy;
# what the validators do not see (a player or user renamed by staff in the admin) shows within
# this time, beside GAME_CACHE_CONTROL's minute in shared caches outside.
ANSWER_CACHE_SECONDS = 600
# Part of every kept answer's key: a deploy that changes how an answer is written (this
# number, the serializers' code) does not read the answers an older one kept.
ANSWER_VERSION = 2


def cached_answer(game: Any, etag: str, build: Callable[[], T]) -> T:
    """The answer that `etag` (game_etag) names: kept beside the game's other derived answers
    (records.replay_cache) when some request built it before, else `build()`, kept."""
    part = f"api-answer:{ANSWER_VERSION}:{etag.strip(chr(34))}"
    return cached(game, part, build, ANSWER_CACHE_SECONDS)


def validators(response: HttpResponseBase, etag: str, last_modified: float | None,
               cache_control: str) -> HttpResponseBase:
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    response["Cache-Control"] = cache_control
    return response


def not_modified(request: HttpRequest, etag: str, last_modified: float | None,
                 cache_control: str) -> Response | None:
    """304 when the client's copy is current: If-None-Match when sent, else If-Modified-Since
    (Django's conditional GET, RFC 9110's order); no body, the validators and Cache-Control
    again (RFC 9110, 15.4.5). None otherwise."""
    modified = int(last_modified) if last_modified is not None else None
    answer = get_conditional_response(request, etag, modified)
    if answer is None or answer.status_code != 304:
        return None
    response = Response(status=304)
    validators(response, etag, last_modified, cache_control)
    patch_vary_headers(response, ("Accept",))
    return response


def game_last_modified(game: Any) -> float | None:
    moment = game.validated_at or getattr(game, "uploaded_at", None)
    return moment.timestamp() if moment is not None else None


def etag_from_body(request: HttpRequest, response: HttpResponseBase,
                   cache_control: str) -> HttpResponseBase:
    """After rendering: an ETag from the body's bytes, and 304 when the client has them."""
    if response.status_code != 200 or response.streaming or response.has_header("ETag"):
        return response
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = cache_control
    response["ETag"] = strong_etag((hashlib.sha256(response.content).hexdigest(),))
    fresh = get_conditional_response(request, response["ETag"], response=response)
    # A 304 with the answer's ETag, Cache-Control and Vary (RFC 9110, 15.4.5).
    return fresh if fresh is not None and fresh.status_code == 304 else response
