"""API tokens for scripts: several per user, each named and scoped (read, or read and write);
`/auth/token/` is the token a request is made with, `/auth/tokens/` one's tokens. What each
operation does is said once, in api/schema/tokens.py (and docs/api.md, "Authentication"). A
key is shown once, in the answer that makes it, never again."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from rest_framework import exceptions
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.caching import NO_STORE
from api.exceptions import Conflict
from api.parsers import content_length
from api.schema.tokens import TOKEN, TOKEN_DETAIL, TOKENS
from api.serializers.tokens import (
    PasswordSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from api.views.base import ApiViewMixin, valid
from records.models import MAX_ID
from records.tokens import ApiToken, TooManyTokens, create_token, revoke_token, rotate_token


def token_json(token: ApiToken, key: str | None = None) -> dict[str, Any]:
    shown = TokenSerializer(token).data
    return {"token": key, **shown} if key is not None else dict(shown)


def created(token: ApiToken, key: str) -> Response:
    # The only answer holding the key: no cache may keep it.
    return Response(token_json(token, key), status=201, headers={"Cache-Control": NO_STORE})


def new_token(user: Any, name: str, scope: str) -> Response:
    try:
        return created(*create_token(user, name, scope))
    except TooManyTokens as exc:
        raise Conflict(str(exc), "too_many_tokens") from exc


def the_token(request: Request) -> ApiToken:
    """The token the request is made with (404 when signed in with a session)."""
    if not isinstance(request.auth, ApiToken):
        raise exceptions.NotFound(_(
            "Signed in without a token: your tokens are listed at /api/v1/auth/tokens/, each "
            "revocable at /api/v1/auth/tokens/{id}/."))
    return request.auth


class SignedInOrPasswordPost(BasePermission):
    """Anyone may POST (a password exchange checks its own credentials); everything else, and
    a POST without a password (a new key for one's token), needs a signed-in user."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        return request.method == "POST"


class InvalidCredentials(exceptions.AuthenticationFailed):
    default_detail = gettext_lazy("Invalid username or password.")
    default_code = "invalid_credentials"


class LockedOut(exceptions.Throttled):
    default_detail = gettext_lazy(
        "Too many failed sign-ins for this account or address: try again later.")
    default_code = "locked_out"


def _cool_off() -> float:
    """Seconds until a lockout ends at the latest (django-axes' AXES_COOLOFF_TIME)."""
    return float(settings.AXES_COOLOFF_TIME.total_seconds())


def check_password(request: Request) -> tuple[Any, dict[str, Any]]:
    """The user a password exchange names, and the fields of its request."""
    fields = valid(PasswordSerializer, request.data)
    credentials = {"username": fields.pop("username"), "password": fields.pop("password")}
    try:
        # The Django request: django-axes reads the address and records the attempt on it.
        user = authenticate(request._request, **credentials)
    except PermissionDenied as exc:  # a lockout (django-axes' backend raises it)
        raise LockedOut(wait=_cool_off()) from exc
    if getattr(request._request, "axes_locked_out", False):
        raise LockedOut(wait=_cool_off())
    if user is None or not user.is_active:
        raise InvalidCredentials()
    return user, fields


@TOKEN
class TokenView(ApiViewMixin, APIView):
    permission_classes = [SignedInOrPasswordPost]
    # A POST without a body gives a new key to one's token (signed in): the body is optional.
    request_body_required = False
    cache_control = NO_STORE  # the answer names the account (and, once, holds the key)

    def get(self, request: Request) -> Response:
        return Response(token_json(the_token(request)))

    def post(self, request: Request) -> Response:
        # A body, even `{}`, is a password exchange (and `{}` a 400 for its missing fields).
        if request.data or content_length(request):
            user, fields = check_password(request)
            return new_token(user, **fields)
        if isinstance(request.auth, ApiToken):
            return created(request.auth, rotate_token(request.auth))
        if request.user and request.user.is_authenticated:
            return new_token(request.user, "script", "write")
        raise exceptions.NotAuthenticated(
            _("Send a username and password, or sign in, to get a token.")
        )

    def delete(self, request: Request) -> Response:
        the_token(request).delete()
        return Response(status=204)


@TOKENS
class TokenListView(ApiViewMixin, APIView):
    permission_classes = [IsAuthenticated]
    cache_control = NO_STORE

    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.filter(user=request.user).select_related("user")
        return Response(TokenSerializer(tokens, many=True).data)

    def post(self, request: Request) -> Response:
        return new_token(request.user, **valid(TokenRequestSerializer, request.data))


@TOKEN_DETAIL
class TokenDetailView(ApiViewMixin, APIView):
    permission_classes = [IsAuthenticated]
    cache_control = NO_STORE

    def token(self, request: Request, id: int) -> ApiToken:
        found = ApiToken.objects.select_related("user").filter(user=request.user, pk=id)
        token = found.first() if id <= MAX_ID else None  # a larger one fits no database column
        if token is None:
            raise exceptions.NotFound(_("You have no token %(id)s.") % {"id": id})
        return token

    def get(self, request: Request, id: int) -> Response:
        return Response(token_json(self.token(request, id)))

    def delete(self, request: Request, id: int) -> Response:
        revoke_token(request.user, self.token(request, id).pk)
        return Response(status=204)
