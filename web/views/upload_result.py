"""An upload's result page (/upload/<job>/): where the upload form's POST sends the uploader
(303), so the result has an address of its own that can be reloaded and shared with no
re-submission. While the upload's job runs it is the job's page (static/js/job.js follows the
job and reloads); once the job is over, every record's verdict: stored, a duplicate or refused
with its line, column, ply and message. Only the uploader and staff see it (uploads need an
account; anyone else gets the 404 page, as for the job page). A result page is always a 200:
a wholly refused upload is a right answer to a GET, not a browser error."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from jobs.batches import upload_analyses
from jobs.models import Job
from records.services import ImportReport
from web.forms import UploadForm
from web.views.job import job_page, visible_job
from records.services.validating import given_tag_lines
from web.views.verdicts import verdict_rows


@login_required
@require_http_methods(["GET", "HEAD"])
def upload_result(request: HttpRequest, pk: int) -> HttpResponse:
    job = visible_job(request, pk)
    if job.kind != Job.Kind.IMPORT:
        raise Http404("No such upload.")
    if not job.finished:
        return job_page(request, job)
    report = ImportReport.from_dict(job.report or {})
    return render(
        request,
        "records/upload_result.html",
        {"report": report, "rows": verdict_rows(report), "form": UploadForm(), "job": job,
         "analyses": upload_analyses(job), "given": given_tag_lines(job.options.get("given"))},
    )
