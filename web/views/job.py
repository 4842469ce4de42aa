"""A job's web page: status, counters and progress bar, refreshed by static/js/job.js from
the API while the job runs; once it is done, every record's verdict as on the upload result
page. Only the job's creator and staff see it (anyone else gets the 404 page). The page carries
every status's translated label for the script, which gets only the status code."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from jobs.batches import upload_analyses
from jobs.models import Job
from records.services import ImportReport
from web.views.verdicts import verdict_rows


def visible_job(request: HttpRequest, pk: int) -> Job:
    """The job numbered `pk` if the signed-in user may see it (its creator or staff); for
    anyone else the 404 page, as for a job that does not exist."""
    job = Job.objects.select_related("created_by").filter(pk=pk).first()
    if job is None or not job.visible_to(request.user):
        raise Http404("No such job.")
    return job


@login_required
@require_http_methods(["GET", "HEAD"])
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return job_page(request, visible_job(request, pk))


def job_page(request: HttpRequest, job: Job) -> HttpResponse:
    """The job's page (also what an upload's result address shows while its job runs)."""
    context: dict[str, object] = {
        "job": job,
        "api_url": reverse("api:job-detail", args=[job.pk]),
        # The API answers the status code (`running`); job.js shows these labels instead, in
        # the page's language, as the server-drawn page does.
        "status_labels": {value: str(label) for value, label in Job.Status.choices},
    }
    if job.kind == Job.Kind.IMPORT:
        report = ImportReport.from_dict(job.report or {})
        context["report"] = report
        # Verdicts link to games: listed once the job is over (the page then stops polling).
        context["rows"] = verdict_rows(report) if job.finished else []
        context["analyses"] = upload_analyses(job) if job.finished else None
    else:
        context["revalidation"] = job.report or {}
    return render(request, "jobs/job.html", context)
