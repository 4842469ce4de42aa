"""Jobs in the admin: read-only (they are written by their runs), for staff to look into."""

from __future__ import annotations

from django.contrib import admin

from jobs.models import Job
from records.admin import ReadOnly


@admin.register(Job)
class JobAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "kind", "status", "created_by", "created_at", "resume_at", "total",
                    "stored", "duplicates", "refused", "not_stored", "attempts")
    list_filter = ("kind", "status")
    exclude = ("runner",)
    readonly_fields = [f.name for f in Job._meta.fields if f.name != "runner"]
