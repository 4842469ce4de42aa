"""Tokens for scripts: see, create or rotate, and revoke one's own API token.

A signed-in user (session in the browser, or an existing token) manages their token here;
`manage.py issue_token USERNAME` does the same from the command line. Send it as
`Authorization: Token <key>`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import error_body
from api.serializers import ErrorDoc, TokenSerializer
from api.views.base import ApiViewMixin
from records.tokens import revoke_token, rotate_token


def token_json(token: Token) -> dict[str, Any]:
    return {"username": token.user.get_username(), "token": token.key, "created": token.created}


NOT_SIGNED_IN = OpenApiResponse(ErrorDoc, "Not signed in.")


@extend_schema(tags=["auth"])
class TokenView(ApiViewMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="My API token",
        responses={200: TokenSerializer, 401: NOT_SIGNED_IN,
                   404: OpenApiResponse(ErrorDoc, "No token yet: POST to create one."),
                   429: ErrorDoc},
    )
    def get(self, request: Request) -> Response:
        token = Token.objects.filter(user=request.user).select_related("user").first()
        if token is None:
            message = "You have no token yet: POST to this URL to create one."
            return Response(error_body(404, "not_found", message), status=404)
        return Response(token_json(token))

    @extend_schema(
        summary="Create or rotate my API token",
        request=None,
        responses={201: TokenSerializer, 401: NOT_SIGNED_IN,
                   403: OpenApiResponse(ErrorDoc, "CSRF check failed (session)."), 429: ErrorDoc},
    )
    def post(self, request: Request) -> Response:
        return Response(token_json(rotate_token(request.user)), status=201)

    @extend_schema(
        summary="Revoke my API token",
        description="The key stops working at once; 204 also when there was none.",
        request=None,
        responses={204: None, 401: NOT_SIGNED_IN,
                   403: OpenApiResponse(ErrorDoc, "CSRF check failed (session)."), 429: ErrorDoc},
    )
    def delete(self, request: Request) -> Response:
        revoke_token(request.user)
        return Response(status=204)
