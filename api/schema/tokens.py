"""The tokens' operations as the OpenAPI schema documents them (api.views.auth)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema

from api.schema import errors, resource
from api.serializers.tokens import (
    NewTokenSerializer,
    PasswordSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)

INVALID = "A missing or invalid field."
TOO_MANY = "Already the most tokens one may have (50): revoke one first (`too_many_tokens`)."
NO_TOKEN = "Signed in without a token."

TOKEN = resource(
    "auth",
    get=extend_schema(
        summary="The token this request is made with",
        description="Its name, scope and last four characters; never the key. Signed in with "
                    "a session (no token): 404, see `/auth/tokens/`.",
        responses={200: TokenSerializer, **errors({404: NO_TOKEN})},
    ),
    post=extend_schema(
        summary="Get a new API token (with a password, or signed in)",
        description=(
            "With `username` and `password` (JSON or form; optionally the new token's `name`, "
            "default `script`, and `scope`, default `write`): a new token for that user, "
            "whose other tokens keep working. Without a body and with a token: a new key for "
            "that token (same name and scope; the old key stops working). Without a body and "
            "signed in with a session (with its CSRF token): a new token named `script`. The "
            "answer is the only one that shows the key. Failed passwords count towards the "
            "sign-in lockout of the site's login page (429 once locked out)."
        ),
        # Usable without credentials (a password exchange): `{}` among the alternatives.
        auth=[{"tokenAuth": []}, {"cookieAuth": []}, {}],
        request={"application/json": PasswordSerializer,
                 "application/x-www-form-urlencoded": PasswordSerializer,
                 "multipart/form-data": PasswordSerializer},
        examples=[OpenApiExample(
            "A password", request_only=True,
            value={"username": "ana", "password": "correct horse battery", "name": "nightly "
                   "backup", "scope": "read"},
        )],
        responses={
            201: NewTokenSerializer,
            **errors({400: INVALID, 401: "Wrong username or password, or an inactive user "
                                         "(or no body and not signed in).",
                      409: TOO_MANY,
                      429: "Throttled, or locked out after failed sign-ins."}),
        },
    ),
    delete=extend_schema(
        summary="Revoke the token this request is made with",
        description="The key stops working at once. Signed in with a session (no token): 404, "
                    "revoke one at `/auth/tokens/{id}/`.",
        request=None,
        responses={204: None, **errors({404: NO_TOKEN})},
    ),
)

TOKENS = resource(
    "auth",
    get=extend_schema(
        summary="My API tokens",
        description="Newest first, at most 50; never their keys.",
        responses={200: TokenSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Make a named API token",
        description="Signed in (a token that writes, or a session with its CSRF token). The "
                    "user's other tokens keep working; the answer is the only one that shows "
                    "the key.",
        request=TokenRequestSerializer,
        examples=[OpenApiExample("Read only", value={"name": "dashboard", "scope": "read"},
                                 request_only=True)],
        responses={201: NewTokenSerializer, **errors({400: INVALID, 409: TOO_MANY})},
    ),
)

NOT_YOURS = errors({404: "Not one of your tokens."})
TOKEN_DETAIL = resource(
    "auth",
    get=extend_schema(summary="One of my API tokens",
                      description="Its name, scope and last four characters; never the key.",
                      responses={200: TokenSerializer, **NOT_YOURS}),
    delete=extend_schema(summary="Revoke one of my API tokens",
                         description="Its key stops working at once.",
                         responses={204: None, **NOT_YOURS}),
)
