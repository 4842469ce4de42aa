"""API tokens (DRF's authtoken): one per user, rotated or revoked by its owner.

The account page (`web.views.account`), the API (`api.views.auth`) and `manage.py
issue_token` all change tokens through these two functions; staff revoke anyone's token in the
admin (DRF's token admin).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token


def rotate_token(user: Any) -> Token:
    """A new key for `user`, replacing any previous one (which stops working at once)."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def revoke_token(user: Any) -> bool:
    """Delete `user`'s token (it stops working at once); whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0
