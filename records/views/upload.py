"""Upload: signed-in users paste or send FCN records; each one is stored, a duplicate or refused.

The engine validates every record (records.services.import_records); the result page lists
each record with its verdict: a link to the stored game, to the game it duplicates, or the
refusal's line, column, ply and message with the offending line quoted.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from records.forms import UploadForm
from records.models import Game, GameSeat
from records.services import ImportReport, RecordResult, import_records


def _marked_line(error: dict[str, Any]) -> dict[str, str] | None:
    """The offending line split around the column at fault, for a visible marker."""
    text = error.get("text") or ""
    if not text:
        return None
    col = int(error.get("col") or 0)
    index = max(col - 1, 0)
    if col <= 0 or index >= len(text):
        return {"before": text, "at": "", "after": ""}
    return {"before": text[:index], "at": text[index], "after": text[index + 1:]}


def _rows(report: ImportReport) -> list[dict[str, Any]]:
    ids = {r.game_id for r in report.results if r.game_id is not None}
    seats = Prefetch("seats", queryset=GameSeat.objects.order_by("seat"))
    games = {
        g.pk: g
        for g in Game.objects.filter(pk__in=ids)
        .only("pk", "ruleset", "players", "result_tag", "date")
        .prefetch_related(seats)
    }
    rows = []
    for result in report.results:
        rows.append(_row(result, games))
    return rows


def _row(result: RecordResult, games: dict[int, Game]) -> dict[str, Any]:
    return {
        "number": result.index + 1,
        "line": result.line,
        "status": result.status,
        "game": games.get(result.game_id) if result.game_id is not None else None,
        "game_id": result.game_id,
        "error": result.error,
        "marked": _marked_line(result.error) if result.error else None,
    }


def _form_page(request: HttpRequest, form: UploadForm, status: int = 200) -> HttpResponse:
    return render(request, "records/upload.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, UploadForm())
    # Pasted text over DATA_UPLOAD_MAX_MEMORY_SIZE never gets here: the CSRF check reading
    # the form raises RequestDataTooBig first, and templates/400.html says what to do.
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _form_page(request, form, status=400)
    source = form.cleaned_data["file"] or form.cleaned_data["text"]
    report = import_records(source, request.user)
    return render(
        request,
        "records/upload_result.html",
        {"report": report, "rows": _rows(report), "form": UploadForm()},
    )
