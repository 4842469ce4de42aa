"""The game object of `/games/{id}/`, and the export lines made of it: one implementation for
`GET /games/export/` and `manage.py export_games`, so an NDJSON line is the same object
wherever it comes from (plus `text`, the record as uploaded, when asked), and an FCN export is
the original texts separated by blank lines, importable as they are."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe
from rest_framework.renderers import JSONRenderer

import fourcolor
from api.serializers.games import GameDetailSerializer
from fourcolor.replay import round_end
from records.models import Game, GameSeat

# Games read from the database at a time by a streamed export.
EXPORT_CHUNK = 500


def games_queryset(detail: bool = False) -> QuerySet[Game]:
    seats = Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))
    games = Game.objects.select_related("uploaded_by").prefetch_related(seats)
    if not detail:
        # A list never shows the texts: leave them in the database.
        games = games.defer("original_text", "canonical_text", "tags", "settlement")
    return games


def game_json(game: Game, context: dict[str, Any]) -> dict[str, Any]:
    """The game object of `/games/{id}/` (and of each export line): one engine pass (the
    detail's answer is kept, api.caching.cached_answer)."""
    check = fourcolor.check_record(game.canonical_text)
    record, played = check.record, check.game
    # A game the current engine refuses (stale) still shows what was stored.
    record_json = (
        fourcolor.record_to_json(record) if record is not None else {"deal": {}, "events": []}
    )
    finish = (
        round_end(played) if played is not None and played.finish.outcome != "unfinished"
        else None
    )
    context = context | {"record_json": record_json, "finish": finish}
    return dict(GameDetailSerializer(game, context=context).data)


@require_safe
def download_game_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The game object of `/api/v1/games/{id}/` as a file (`/api/v1/games/{id}/game.json`),
    which the replay page's JSON link (web's `/games/{id}/game.json`) leads to."""
    game = get_object_or_404(games_queryset(detail=True), pk=pk)
    body = game_json(game, {"request": request})
    text = json.dumps(body, ensure_ascii=False, indent=2, cls=JSONRenderer.encoder_class) + "\n"
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{pk}.json"'
    return response


def ndjson_lines(
    games: QuerySet[Game], context: dict[str, Any], with_text: bool
) -> Iterator[str]:
    """Each game as one line of JSON, read a chunk of rows at a time: the game object, plus
    `text` (the record as uploaded) when asked."""
    encoder = JSONRenderer.encoder_class
    for game in games.iterator(chunk_size=EXPORT_CHUNK):
        line = game_json(game, context)
        if with_text:
            line["text"] = game.original_text
        yield json.dumps(line, ensure_ascii=False, cls=encoder) + "\n"


def fcn_separator(text: str) -> str:
    """What ends a record's text and leaves one blank line after it, in its own line-ending
    style (a bare \\r stays a bare \\r: a \\n after it would turn it into \\r\\n); a last line
    without an ending (it closed its upload file) gets one first."""
    return next((end for end in ("\r\n", "\r", "\n") if text.endswith(end)), "\n\n")


def fcn_lines(games: QuerySet[Game]) -> Iterator[str]:
    """Each game's original text, verbatim, with what separates it from the next."""
    plain = games.select_related(None).prefetch_related(None)
    for game in plain.only("pk", "original_text").iterator(chunk_size=EXPORT_CHUNK):
        yield game.original_text + fcn_separator(game.original_text)


def export_response(games: QuerySet[Game], renderer: Any, context: dict[str, Any],
                    with_text: bool) -> StreamingHttpResponse:
    """The streamed export of `games` in the renderer's format: FCN or NDJSON."""
    if renderer.format == "fcn":
        body = fcn_lines(games)
    else:
        body = ndjson_lines(games, context, with_text)
    response = StreamingHttpResponse((piece.encode("utf-8") for piece in body),
                                     content_type=f"{renderer.media_type}; charset=utf-8")
    # Ask proxies not to buffer: the point is that the first game leaves at once.
    response["X-Accel-Buffering"] = "no"
    return response
