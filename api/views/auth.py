"""Tokens for scripts: get one with a password, see, rotate and revoke one's own.

- `POST` with `username` and `password` (JSON or form), no other credentials needed: a new
  token for that user (any previous one stops working). The password is checked by
  `django.contrib.auth.authenticate(request=...)`, so the sign-in lockout of the site's login
  pages (django-axes, when installed) counts and blocks these attempts too.
- `POST` with no body, signed in (session with CSRF, or a token): a new token for oneself.
- `GET`: one's token, its key's last four characters only; `DELETE`: revoke it.

The key itself is shown once, in the answer that creates it (as the account page does), never
again. `manage.py issue_token USERNAME` does the same from the command line. Send the key as
`Authorization: Token <key>`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.caching import NO_STORE
from api.exceptions import error_body
from api.serializers.errors import ErrorDoc
from api.serializers.tokens import NewTokenSerializer, PasswordSerializer, TokenSerializer
from api.views.base import ApiViewMixin
from records.tokens import revoke_token, rotate_token



def token_json(token: Token, *, with_key: bool = False) -> dict[str, Any]:
    shown = {"username": token.user.get_username(), "last_four": token.key[-4:],
             "created": token.created}
    return {"token": token.key, **shown} if with_key else shown


class SignedInOrPasswordPost(BasePermission):
    """Anyone may POST (a password exchange checks its own credentials); everything else, and
    a POST without a password (rotating one's own token), needs a signed-in user."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        return request.method == "POST"


class InvalidCredentials(exceptions.AuthenticationFailed):
    default_detail = "Invalid username or password."
    default_code = "invalid_credentials"


class LockedOut(exceptions.Throttled):
    default_detail = "Too many failed sign-ins for this account or address: try again later."
    default_code = "locked_out"


def _cool_off() -> float | None:
    """Seconds until a lockout ends at the latest (django-axes' AXES_COOLOFF_TIME), if set."""
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    return cool_off.total_seconds() if isinstance(cool_off, timedelta) else None


NOT_SIGNED_IN = OpenApiResponse(ErrorDoc, "Not signed in.")


@extend_schema(tags=["auth"])
class TokenView(ApiViewMixin, APIView):
    permission_classes = [SignedInOrPasswordPost]
    # A POST without a body rotates one's own token (signed in): the body is optional.
    request_body_required = False
    cache_control = NO_STORE  # the answer names the account (and, once, holds the key)

    @extend_schema(
        summary="My API token (its last four characters)",
        description="The key itself is shown only once, by the POST that creates it.",
        responses={200: TokenSerializer, 401: NOT_SIGNED_IN,
                   404: OpenApiResponse(ErrorDoc, "No token yet: POST to create one.")},
    )
    def get(self, request: Request) -> Response:
        token = Token.objects.filter(user=request.user).select_related("user").first()
        if token is None:
            message = "You have no token yet: POST to this URL to create one."
            return Response(error_body(404, "not_found", message), status=404)
        return Response(token_json(token))

    @extend_schema(
        summary="Get a new API token (with a password, or signed in)",
        description=(
            "With `username` and `password` (JSON or form): a new token for that user. "
            "Without a body, signed in (a session with its CSRF token, or a token): a new "
            "token for oneself. Either way any previous token of the user stops working, and "
            "the answer is the only one that shows the key. Failed passwords count towards "
            "the sign-in lockout of the site's login page (429 once locked out)."
        ),
        # Usable without credentials (a password exchange): `{}` among the alternatives.
        auth=[{"tokenAuth": []}, {"cookieAuth": []}, {}],
        request={"application/json": PasswordSerializer,
                 "application/x-www-form-urlencoded": PasswordSerializer,
                 "multipart/form-data": PasswordSerializer},
        examples=[OpenApiExample(
            "A password", value={"username": "ana", "password": "correct horse battery"},
            request_only=True,
        )],
        responses={
            201: NewTokenSerializer,
            400: OpenApiResponse(ErrorDoc, "A missing or invalid username or password field."),
            401: OpenApiResponse(ErrorDoc, "Wrong username or password, or an inactive user "
                                           "(or no body and not signed in)."),
            403: OpenApiResponse(ErrorDoc, "CSRF check failed (session)."),
            429: OpenApiResponse(ErrorDoc, "Throttled, or locked out after failed sign-ins."),
        },
    )
    def post(self, request: Request) -> Response:
        # A body, even `{}`, is a password exchange (and `{}` a 400 for its missing fields);
        # only a request without one rotates the signed-in user's token, as documented.
        if request.data or self._has_body(request):
            user = self._check_password(request)
        elif request.user and request.user.is_authenticated:
            user = request.user
        else:
            raise exceptions.NotAuthenticated(
                "Send a username and password, or sign in, to get a token."
            )
        # The only answer holding the key: no cache may keep it.
        return Response(token_json(rotate_token(user), with_key=True), status=201,
                        headers={"Cache-Control": NO_STORE})

    @staticmethod
    def _has_body(request: Request) -> bool:
        try:
            return int(request.META.get("CONTENT_LENGTH") or 0) > 0
        except ValueError:
            return True

    def _check_password(self, request: Request) -> Any:
        form = PasswordSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            # The Django request: django-axes reads the address and records the attempt on it.
            user = authenticate(request._request, **form.validated_data)
        except PermissionDenied as exc:  # a lockout (django-axes' backend raises it)
            raise LockedOut(wait=_cool_off()) from exc
        if getattr(request._request, "axes_locked_out", False):
            raise LockedOut(wait=_cool_off())
        if user is None or not user.is_active:
            raise InvalidCredentials()
        return user

    @extend_schema(
        summary="Revoke my API token",
        description="The key stops working at once; 204 also when there was none.",
        request=None,
        responses={204: None, 401: NOT_SIGNED_IN,
                   403: OpenApiResponse(ErrorDoc, "CSRF check failed (session).")},
    )
    def delete(self, request: Request) -> Response:
        revoke_token(request.user)
        return Response(status=204)
