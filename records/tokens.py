"""API tokens: several per user, each named and scoped (read, or read and write).

A key is 40 random hexadecimal characters, shown once, when it is made; only its SHA-256 (and
its last four characters, to tell keys apart) is stored, so a copy of the database holds no
usable key. A fast hash is enough: a key is random, not a password to guess. The account page
(`web.views.account`), the API (`api.views.auth`) and `manage.py issue_token` make and revoke
tokens through the functions below; staff revoke anyone's in the admin.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

MAX_TOKENS = 50  # per user: revoke one to make another
MAX_NAME = 100


class Scope(models.TextChoices):
    READ = "read", _("read")
    WRITE = "write", _("read and write")


class TooManyTokens(Exception):
    """The user already has MAX_TOKENS tokens."""


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=MAX_NAME)
    scope = models.CharField(_("scope"), max_length=5, choices=Scope.choices,
                             default=Scope.WRITE)
    key_digest = models.CharField(_("key (SHA-256)"), max_length=64, unique=True)
    last_four = models.CharField(_("last four characters"), max_length=4)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        app_label = "records"
        ordering = ["-created", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} (…{self.last_four})"


def create_token(user: Any, name: str, scope: str = Scope.WRITE) -> tuple[ApiToken, str]:
    """A new token for `user` (the others keep working) and its key, which is not stored."""
    with transaction.atomic():
        # The user's row locked: two requests at once cannot both take the last place.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise TooManyTokens(_("You have %(most)s tokens, the most one may have: revoke "
                                  "one first.") % {"most": MAX_TOKENS})
        key = secrets.token_hex(20)
        token = ApiToken.objects.create(user=user, name=name, scope=scope,
                                        key_digest=digest(key), last_four=key[-4:])
    return token, key


def rotate_token(token: ApiToken) -> str:
    """A new key for `token` (same name and scope); the old key stops working at once."""
    key = secrets.token_hex(20)
    token.key_digest, token.last_four = digest(key), key[-4:]
    token.save(update_fields=["key_digest", "last_four"])
    return key


def find_token(key: str) -> ApiToken | None:
    """The token whose key is `key`, with its user."""
    return ApiToken.objects.select_related("user").filter(key_digest=digest(key)).first()


def revoke_token(user: Any, token_id: int) -> bool:
    """Delete one of `user`'s tokens (it stops working at once); whether it was theirs."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0
