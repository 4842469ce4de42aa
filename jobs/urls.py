"""URLs of the jobs' web pages (mounted at /jobs/ by config.urls)."""

from __future__ import annotations

from django.urls import URLPattern, path

from jobs.views import job_detail

urlpatterns: list[URLPattern] = [
    path("<int:pk>/", job_detail, name="job"),
]
