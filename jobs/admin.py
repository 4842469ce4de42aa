"""Jobs in the admin: read-only (they are written by their runs), for staff to look into."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from jobs.models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "kind", "status", "created_by", "created_at", "resume_at", "total",
                    "stored", "duplicates", "refused", "not_stored", "attempts")
    list_filter = ("kind", "status")
    exclude = ("runner",)
    readonly_fields = [f.name for f in Job._meta.fields if f.name != "runner"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
