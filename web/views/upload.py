"""Upload: signed-in users paste or send FCN records; each one is stored, a duplicate or refused.

As the API, every upload is a job (jobs.queue.submit_upload, the one entry point): one under
BACKGROUND_IMPORT_MIN_BYTES runs in the request, a larger one (or one the database stopped
half-way, which the worker resumes) on the job worker. Either way the answer is a 303 to the
upload's result page (web/views/upload_result.py). An upload holds at most UPLOAD_MAX_RECORDS
records (the next one is refused, the rest not read).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from jobs.models import Job
from jobs.queue import background_min_bytes, submit_upload, upload_size
from web.forms import UploadForm
from web.limits import rate_limited


def _form_page(request: HttpRequest, form: UploadForm, status: int = 200) -> HttpResponse:
    jobs = (
        Job.objects.filter(created_by=request.user, kind=Job.Kind.IMPORT)
        .defer("report")[:5]
    )
    context = {"form": form, "jobs": jobs, "background_min_bytes": background_min_bytes()}
    return render(request, "records/upload.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("upload")  # one allowance with the API upload
def upload(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, UploadForm())
    # Pasted text over DATA_UPLOAD_MAX_MEMORY_SIZE never gets here: the CSRF check reading
    # the form raises RequestDataTooBig first, and templates/400.html says what to do.
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _form_page(request, form, status=400)
    source = form.cleaned_data["file"] or form.cleaned_data["text"]
    submitted = submit_upload(source, request.user, getattr(source, "name", "") or "",
                              size=upload_size(source), given=form.given_tags())
    # Post/Redirect/Get, whatever the verdicts and wherever the job runs: the result has an
    # address of its own (a reload shows it again, never re-submits the file), and a wholly
    # refused upload is not a 400 document the browser logs as an error.
    response = HttpResponseRedirect(reverse("upload-result", args=[submitted.job.pk]))
    response.status_code = 303
    return response
