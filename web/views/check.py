"""The check page (/check/): paste or drop FCN and see every record's verdict, as an upload
would give it, and the replay of a valid one, without an account and without storing
anything (no game, no job, no session: the answer to the POST is the result itself, since
a result page of its own, as uploads have, would have to be stored somewhere).

The check runs in the request, so it is bounded like the uploads that run there: at most
BACKGROUND_IMPORT_MIN_BYTES (and UPLOAD_MAX_RECORDS records). Larger files are refused with a
message that says to split them, or to upload them (uploads that large run on the worker).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from fourcolor.notation import parse_record
from fourcolor.replay import Replay
from jobs.queue import background_min_bytes, upload_size
from records.services.checking import CheckReport, check_records
from web.forms import UploadForm
from web.limits import rate_limited
from web.views.replay import board_context
from web.views.replay_data import replay_payload
from records.services.validating import given_tag_lines
from web.views.verdicts import verdict_rows


def check_max_bytes() -> int:
    return min(background_min_bytes(), int(settings.UPLOAD_MAX_BYTES))


class CheckForm(UploadForm):
    """The upload form's text or file, at most `check_max_bytes()`, and which valid record's
    replay to show."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        size = upload_size(data.get("file") or data.get("text") or "")
        if size > check_max_bytes():
            raise forms.ValidationError(
                _("This is %(size)s; the check page checks at most %(max)s at a time, in the "
                  "request. Split the file, or upload it: uploads that large are checked on "
                  "the job worker."),
                params={"size": filesizeformat(size), "max": filesizeformat(check_max_bytes())},
                code="too_big",
            )
        return data


@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("check")
def check(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, CheckForm())
    form = CheckForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form, status=400)
    upload = form.cleaned_data["file"]
    text = form.cleaned_data["text"] if upload is None else upload.read()
    given = form.given_tags()
    report = check_records(text, max_records=settings.UPLOAD_MAX_RECORDS, given=given)
    if isinstance(text, bytes):
        # The file's text goes back into the box, so that "Show its replay" sends it again.
        text = text.decode("utf-8", "replace")
        form = CheckForm({"text": text, **{key: form.cleaned_data[key]
                                           for key in ("ruleset", "switches")}})
    chosen = _chosen(request, report)
    context: dict[str, Any] = {"report": report, "rows": verdict_rows(report),
                               "text": text, "given": given_tag_lines(given)}
    if chosen is not None:
        payload = replay_payload(Replay(parse_record(report.canonical[chosen])), None)
        context.update(board_context(payload, 0, None, {}))
        context["chosen_number"] = chosen + 1
    return _page(request, form, context)


def _chosen(request: HttpRequest, report: CheckReport) -> int | None:
    """The record whose replay is shown: the one asked for, if legal, else the first legal."""
    asked = request.POST.get("replay", "")
    if asked.isdecimal() and asked.isascii() and int(asked) - 1 in report.canonical:
        return int(asked) - 1
    return min(report.canonical, default=None)


def _page(request: HttpRequest, form: CheckForm, context: dict[str, Any] | None = None,
          status: int = 200) -> HttpResponse:
    return render(request, "records/check.html",
                  {"form": form, "max_bytes": check_max_bytes(), **(context or {})},
                  status=status)
