"""Upload: signed-in users paste or send FCN records; each one is stored, a duplicate or refused.

The engine validates every record (records.services.import_records); the result page lists
each record with its verdict: a link to the stored game, to the game it duplicates, or the
refusal's line, column, ply and message with the offending line quoted. An upload of
BACKGROUND_IMPORT_MIN_BYTES or more becomes a background job (jobs/): the answer sends the
uploader to the job's page, which follows its progress and then lists the same verdicts.

As the API: an upload holds at most UPLOAD_MAX_RECORDS records (the next one is refused, the
rest not read), and an import the database stopped is a 503 whose page counts the records not
stored, says which they are, from which record on, and to upload the file again later.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import InterfaceError, OperationalError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from jobs.models import Job
from jobs.queue import background_min_bytes, is_large, submit_import
from web.forms import UploadForm
from records.models import Game, GameSeat
from records.services import ImportReport, RecordResult, import_records

# As the API's: after a 503 the uploader may send the file again after this many seconds.
UNAVAILABLE_RETRY_SECONDS = 30


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
    try:
        games = {
            g.pk: g
            for g in Game.objects.filter(pk__in=ids)
            .only("pk", "ruleset", "players", "result_tag", "date")
            .prefetch_related(seats)
        }
    except (OperationalError, InterfaceError):
        # The database that stopped the import is still down: list the verdicts without the
        # games' details (each still links to its game) rather than fail the whole page.
        games = {}
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


def _resume(report: ImportReport) -> dict[str, int | None] | None:
    """Where the import the database stopped would go on: the first record not stored (its
    number and first line), for the summary; None when nothing was left unstored."""
    if not report.unavailable:
        return None
    line = next((r.line for r in (*report.results, *report.problems)
                 if r.status == "unavailable" and r.index == report.next_index), None)
    return {"record": report.next_index + 1, "line": line}


def _form_page(request: HttpRequest, form: UploadForm, status: int = 200) -> HttpResponse:
    jobs = (
        Job.objects.filter(created_by=request.user, kind=Job.Kind.IMPORT)
        .defer("payload", "report")[:5]
    )
    context = {"form": form, "jobs": jobs, "background_min_bytes": background_min_bytes()}
    return render(request, "records/upload.html", context, status=status)


def _size(source: Any) -> int:
    """The upload's size in bytes (a file's, or the pasted text's in UTF-8)."""
    if isinstance(source, str):
        return len(source.encode("utf-8", "surrogatepass"))
    return int(source.size)


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
    if is_large(_size(source)):
        job = submit_import(source, request.user, getattr(source, "name", "") or "")
        return redirect("job", pk=job.pk)  # 302 after a POST: the browser GETs the job page
    report = import_records(source, request.user, max_records=settings.UPLOAD_MAX_RECORDS)
    response = render(
        request,
        "records/upload_result.html",
        {"report": report, "rows": _rows(report), "resume": _resume(report), "form": UploadForm()},
        status=_status(report),
    )
    if report.unavailable:
        response["Retry-After"] = str(UNAVAILABLE_RETRY_SECONDS)
    return response


def _status(report: ImportReport) -> int:
    """As the API: 503 when the database stopped the import, 400 when every record was
    refused (nothing stored), else 200."""
    if report.unavailable:
        return 503
    return 400 if report.refused == report.total else 200
