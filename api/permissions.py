"""Who may do what: reads are public, writes need a signed-in user, and a stored game can be
deleted only by the user who uploaded it or by staff (`records.deletion.can_delete`, the one
rule the web pages, the API and the admin share)."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from records.deletion import can_delete


class IsUploaderOrStaffOrReadOnly(BasePermission):
    """Object level: anyone reads; the uploader and staff change or delete."""

    message = "Only the user who uploaded this game, or staff, may change or delete it."

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return can_delete(request.user, obj)
