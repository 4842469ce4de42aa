"""A game's replay page and its downloads.

`?ply=N` and `?seat=S` make every view of every ply a permalink that the server draws on its
own; replay.js then steps between plies from the embedded data without reloading.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe

from fourcolor.errors import FcnError
from jobs.analysis import active_job
from records import replay_cache
from records.deletion import can_delete
from records.models import Game, GameAnalysis
from records.refusal_text import refusal_text
from records.variants import describe
from web.outcomes import round_sentence
from web.views.labels import js_labels
from web.views.evaluation_chart import evaluation_chart
from web.views.replay_analysis import decisions_html, failed_job, replay_analysis
from web.templatetags.fourcolor_web import event_line
from web.views.replay_data import PAYLOAD_VERSION, StoredPayload, cached_payload


def _seat_param(request: HttpRequest, players: int, notices: list[str]) -> int | None:
    raw = request.GET.get("seat", "").strip()
    if raw in ("", "all"):
        return None
    if raw.isdecimal() and raw.isascii() and 1 <= int(raw) <= players:
        return int(raw)
    notices.append(
        _("There is no seat “%(seat)s” in this game (seats 1 to %(players)s): showing all "
          "hands.") % {"seat": raw[:20], "players": players}
    )
    return None


def _ply_param(request: HttpRequest, plies: int, notices: list[str]) -> int:
    raw = request.GET.get("ply", "").strip()
    if raw == "":
        return 0
    if raw.lstrip("-").isdecimal() and raw.isascii():
        ply = int(raw)
        if 0 <= ply <= plies:
            return ply
        clamped = min(max(ply, 0), plies)
        notices.append(
            _("Ply %(ply)s is outside this game (0 to %(plies)s): showing ply %(shown)s.")
            % {"ply": raw[:20], "plies": plies, "shown": clamped}
        )
        return clamped
    notices.append(_("“%(ply)s” is not a ply number: showing the deal.") % {"ply": raw[:20]})
    return 0


# A deploy that changes the page's templates is a new ETag.
TEMPLATES_FINGERPRINT = replay_cache.files_fingerprint(settings.TEMPLATES[0]["DIRS"], "*.html")


def replay_page_etag(request: HttpRequest, pk: int) -> str | None:
    """The replay page's validator, built from what the page is made of, not from its body
    (which carries a fresh CSRF token each time): the game's stored facts and validation, the
    running engine and templates, the address (ply, seat, the chart's options), the language,
    the viewer (who they are and whether staff: the page's controls and header differ), and
    the game's analysis. None when the page must be drawn: a message is waiting to be shown
    once, or an analysis job is queued or running (the page shows its progress); or no such
    game (the view answers 404)."""
    game = Game.objects.filter(pk=pk).only(
        "content_hash", "engine_version", "validated_at", "stale", "uploaded_by_id").first()
    if game is None or active_job(pk) is not None or len(get_messages(request)):
        return None
    analysis = (GameAnalysis.objects.filter(game_id=pk)
                .values_list("pk", "analysed_at", "stale", "engine_version").first())
    failed = failed_job(pk) if analysis is None else None
    user = request.user
    parts = (
        "replay-page", TEMPLATES_FINGERPRINT, replay_cache.game_key(game),
        request.get_full_path(), get_language(),
        user.pk if user.is_authenticated else "", user.is_staff, user.is_superuser,
        analysis, failed and failed.pk,
    )
    return replay_cache.strong_etag(parts)


# The embedded replay of a long round is a few hundred KB of repetitive JSON and markup: gzip
# makes it a tenth (Django's GZipMiddleware, with its BREACH mitigation). A browser may keep
# the page but asks each time whether it is still current (a 304 draws nothing): it is the
# viewer's own (their name, what they may delete, the CSRF token of the page's forms).
@gzip_page
@require_safe
@cache_control(private=True, no_cache=True)
@condition(etag_func=replay_page_etag)
def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("match").defer("original_text"), pk=pk)
    return _replay_page(request, game)


def _replay_page(request: HttpRequest, game: Game) -> HttpResponse:
    seat_rows = list(game.seats.select_related("player").order_by("seat"))
    notices: list[str] = []
    view = _seat_param(request, game.players, notices)
    try:
        payload = cached_payload(game, view)
    except FcnError as error:
        return render(
            request, "records/replay_unavailable.html",
            {"game": game,
             "error": refusal_text(error.as_dict(), [row.player.name for row in seat_rows]),
             "can_delete": can_delete(request.user, game)},
        )
    ply = _ply_param(request, payload.plies, notices)
    players = {row.seat: row.player for row in seat_rows}
    context: dict[str, Any] = {
        **board_context(payload, ply, view, players, move_lines(game, payload)),
        "game": game,
        "variant": describe(game.ruleset, game.switches, game.players),
        "can_delete": can_delete(request.user, game),  # the "Delete this game" control
        "notices": notices,
        "tags": sorted(
            (name, value) for name, value in game.tags.items() if name != "Pile"
        ),
    }
    context.update(_analysis_context(request, game.pk, payload, view, ply))
    return render(request, "records/replay.html", context)


def move_lines(game: Game, payload: StoredPayload) -> list[str]:
    """Each ply's line of the move list (`event_line`) in the reader's language, kept beside
    the game's replay: they are the same at every ply and for every seat's view, and drawing
    a long round's hundreds of events is most of the page's time otherwise."""
    return replay_cache.cached(
        game, f"move-lines:{PAYLOAD_VERSION}:{get_language()}",
        lambda: [str(event_line(event, payload.seats)) for event in payload.events],
    )


def board_context(payload: StoredPayload, ply: int, view: int | None,
                  players: dict[int, Any], lines: list[str] | None = None) -> dict[str, Any]:
    """What templates/records/_replay.html draws of a round at `ply` as `view` sees it
    (None: every hand), for a stored game or a record checked without storing (the check
    page); `players`: seat -> the archive's Player, for links (empty when not stored);
    `lines`: the move list's lines when the cache has them already (`move_lines`)."""
    state = payload.state(ply)
    return {
        # Built by replay_data._script_tag, escaped like json_script.
        "payload_script": mark_safe(payload.script),
        "labels_json": js_labels(),
        "state": state,
        "table": [
            {**info, **state["seats"][index], "player": players.get(info["seat"])}
            for index, info in enumerate(payload.seats)
        ],
        "ply": ply,
        "plies": payload.plies,
        "view": view,
        "seats": payload.seats,
        "finish": payload.finish,
        "finish_sentence": finish_sentence(payload.finish, payload.seats),
        "discards": [discard["card"] for discard in state["discards"]],
        "missed": payload.missed,
        "moves": payload.moves(),
        "move_lines": lines,
        "waits": [
            {"seat": info, "waits": state["waits"].get(info["seat"], [])}
            for info in payload.seats
            if view is None or info["seat"] == view
        ],
        "players": players,
        "settlement": [
            {"seat": info, "player": players.get(info["seat"]),
             "delta": (payload.finish or {}).get("settlement", {}).get(str(info["seat"]), 0)}
            for info in payload.seats
        ],
    }


def _analysis_context(request: HttpRequest, game_id: int, payload: Any, view: int | None,
                      ply: int) -> dict[str, Any]:
    """The game's analysis for this view: marks, chart, decisions by ply, seat accuracy."""
    analysis = replay_analysis(game_id, view, payload)
    by_ply = analysis.by_ply
    return {
        "analysis": analysis,
        "analysis_decisions": decisions_html(by_ply, ply),
        "analysis_plies": set(by_ply),
        "analysis_marks": analysis.marks,
        "analysis_chart": (
            evaluation_chart(analysis, payload.plies, view, request.GET, ply)
            if analysis.stored is not None else ""
        ),
        "analysis_current": analysis.up_to_date,
    }


def finish_sentence(finish: dict[str, Any] | None, seats: list[dict[str, Any]]) -> str:
    """How the round ended, in one translated sentence."""
    if finish is None:
        return round_sentence("unfinished", "", None)
    names = {seat["seat"]: seat["name"] for seat in seats}
    return round_sentence(
        finish["outcome"], names.get(finish["seat"], ""), finish["points"],
        finish.get("taken"), names.get(finish.get("owner"), ""),
    )


def _download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def download_original(request: HttpRequest, pk: int) -> HttpResponse:
    """The record exactly as it was uploaded."""
    game = get_object_or_404(Game.objects.only("original_text"), pk=pk)
    return _download(game.original_text, f"game-{pk}.fcn", "text/plain")


@require_safe
def download_canonical(request: HttpRequest, pk: int) -> HttpResponse:
    """The record rewritten by the engine in canonical FCN."""
    game = get_object_or_404(Game.objects.only("canonical_text"), pk=pk)
    return _download(game.canonical_text, f"game-{pk}.canonical.fcn", "text/plain")
