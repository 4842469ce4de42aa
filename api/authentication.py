"""`Authorization: Token <key>`: the key looked up by its hash (records.tokens), the token kept
as `request.auth` so that its scope can be checked (api.views.base: `check_permissions`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from records.tokens import find_token


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = find_token(key)
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
