"""Python's cyclic garbage collector in a web worker: after the answer, not in the middle of it.

Measured on a million-round archive (docs/performance.md, "A million rounds on a quiet
machine, and the garbage collector"): a page or an
API list leaves a few thousand objects in reference cycles (Django's and DRF's objects point at
each other: a serializer and its fields, a form and its widgets, a template and its nodes). The
collector runs whenever allocations pass its threshold, in the middle of the next requests, and
promotes what is alive at that moment; the request's garbage then piles up in the oldest
generation until a full collection frees it: 50-190 ms inside one unlucky request, every few
dozen requests, which made every read's p99 at 40 requests. Two standard measures:

- `gc.freeze()` once the application is loaded: the modules, settings, URL patterns and
  tables of the engine (about 130,000 objects) move to a permanent generation that no
  collection walks again (with GUNICORN_PRELOAD, before the fork, as Python's documentation
  advises: the workers then also share those pages).
- The automatic collector paused while a request runs (`request_started`) and a collection of
  the young generation when the answer has been sent (`request_finished`, which fires when the
  server closes the response): the request's garbage is freed there, at the cost of one young
  collection a request, outside the time the client waits. A streaming response (the export)
  turns the collector back on as soon as it starts (`StreamingCollectionMiddleware`), so a long
  download never runs without it.

Installed by config/wsgi.py (sync workers: one request at a time per process; with threads, the
first request to finish turns the collector back on, which is only less effective). Off with
COLLECT_AFTER_RESPONSE=false.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished, request_started
from django.http import HttpRequest, HttpResponseBase

from config.env import env_bool


def _pause(**kwargs: Any) -> None:
    gc.disable()


def _collect(**kwargs: Any) -> None:
    gc.enable()
    gc.collect(0)


def install() -> None:
    """Freeze what is loaded so far and collect between requests, not during them."""
    gc.collect()
    gc.freeze()
    request_started.connect(_pause, dispatch_uid="config.collector.pause")
    request_finished.connect(_collect, dispatch_uid="config.collector.collect")


def install_if_enabled() -> bool:
    """`install` unless COLLECT_AFTER_RESPONSE is false (the WSGI entry point, the benchmarks)."""
    if not env_bool("COLLECT_AFTER_RESPONSE", True):
        return False
    install()
    return True


def uninstall() -> None:
    """Undo `install` (tests): the collector runs as Python's default again."""
    request_started.disconnect(dispatch_uid="config.collector.pause")
    request_finished.disconnect(dispatch_uid="config.collector.collect")
    gc.unfreeze()
    gc.enable()


class StreamingCollectionMiddleware:
    """A streaming response runs as long as the download: the collector back on for it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.streaming:
            gc.enable()
        return response
