"""config/collector.py: the garbage collector paused during a request and run after it."""

from __future__ import annotations

import gc
import importlib
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.test import Client, override_settings
from django.urls import path

from config import collector

seen: dict[str, Any] = {}


class _Node:
    other: _Node


def _cycle(request: HttpRequest) -> JsonResponse:
    seen["enabled"] = gc.isenabled()
    node = _Node()
    node.other = node  # garbage that only the cyclic collector frees
    seen["garbage"] = weakref.ref(node)
    return JsonResponse({})


def _stream(request: HttpRequest) -> StreamingHttpResponse:
    def rows() -> Iterator[bytes]:
        seen["enabled while streaming"] = gc.isenabled()
        yield b"row\n"

    return StreamingHttpResponse(rows())


urlpatterns = [path("cycle/", _cycle), path("stream/", _stream)]


@pytest.fixture
def installed() -> Iterator[None]:
    seen.clear()
    collector.install()
    try:
        yield
    finally:
        collector.uninstall()


def _connected(signal: Any, uid: str) -> bool:
    return any(key[0] == uid for key, _receiver, *_rest in signal.receivers)


@override_settings(ROOT_URLCONF=__name__)
def test_it_pauses_the_collector_during_a_request_and_frees_its_cycles_after(
    installed: None,
) -> None:
    Client().get("/cycle/")

    assert seen["enabled"] is False
    assert gc.isenabled()
    assert seen["garbage"]() is None  # freed when the response was closed, not later


@override_settings(ROOT_URLCONF=__name__)
def test_it_leaves_the_collector_alone_when_not_installed() -> None:
    seen.clear()
    Client().get("/cycle/")

    assert seen["enabled"] is True


@override_settings(ROOT_URLCONF=__name__)
def test_it_turns_the_collector_on_for_a_streaming_response(installed: None) -> None:
    response = Client().get("/stream/")
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]

    assert body == b"row\n"
    assert seen["enabled while streaming"] is True


def test_it_freezes_what_is_loaded(installed: None) -> None:
    assert gc.get_freeze_count() > 0


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("false", False)])
def test_it_is_installed_by_the_wsgi_entry_point_unless_turned_off(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: bool
) -> None:
    monkeypatch.setenv("COLLECT_AFTER_RESPONSE", value)
    try:
        import config.wsgi

        importlib.reload(config.wsgi)
        assert _connected(request_started, "config.collector.pause") is expected
        assert _connected(request_finished, "config.collector.collect") is expected
        assert (gc.get_freeze_count() > 0) is expected
    finally:
        collector.uninstall()
