"""What every API view shares: the error handler, JSON errors whatever the negotiated format,
the throttle, and the browsable API's Content-Security-Policy allowance."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from django.utils.translation import gettext as _
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.html import escape
from django.views.decorators.csrf import csrf_exempt
from rest_framework.authentication import SessionAuthentication
from rest_framework.compat import pygments_css
from rest_framework.exceptions import MethodNotAllowed, PermissionDenied, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from api.authentication import ApiTokenAuthentication
from api.caching import LIST_CACHE_CONTROL, etag_from_body
from api.negotiation import FormatFirstNegotiation
from api.renderers import TextRenderer
from api.schema import ApiAutoSchema
from api.throttling import ApiThrottle
from common.errors import error_response
from common.rates import rate_limit_headers


def _code_style_hashes() -> list[str]:
    """The CSP hash of the <style> element of Pygments rules that DRF's browsable API page
    writes (rest_framework/base.html: `<style>{{ code_style }}</style>`), if it writes one."""
    css = pygments_css(BrowsableAPIRenderer.code_style)
    if not css:
        return []  # no Pygments installed: DRF writes no <style> element
    digest = hashlib.sha256(str(escape(css)).encode("utf-8")).digest()
    return [f"'sha256-{base64.b64encode(digest).decode('ascii')}'"]


# DRF's browsable API (its HTML pages under /api/v1/, for people with a browser) has style="…"
# attributes in its templates and one <style> element, which the site's policy refuses: the
# layout falls apart. Its HTML responses, and only those, get this on top of the site's policy:
# style attributes (CSP 3's style-src-attr: no selectors, and no loads img-src or font-src would
# refuse) and that element by its hash. Scripts stay the site's own files; JSON, FCN and the
# site's own pages keep the strict policy (tests/security/test_csp_header.py).
BROWSABLE_API_CSP: dict[str, list[str]] = {
    "style-src": _code_style_hashes(),
    "style-src-attr": ["'unsafe-inline'"],
}


class BrowsableApiCspMixin:
    """Relaxes the policy for the browsable API's HTML answers (django-csp's per-response
    update, as its `csp_update` decorator sets)."""

    def finalize_response(
        self, request: Any, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        response = super().finalize_response(  # type: ignore[misc]
            request, response, *args, **kwargs)
        if isinstance(getattr(response, "accepted_renderer", None), BrowsableAPIRenderer):
            response._csp_update = BROWSABLE_API_CSP  # type: ignore[attr-defined]
        return response


def valid(serializer_class: type[Serializer[Any]], data: Any) -> dict[str, Any]:
    """`data` as the serializer validates it; a 400 names each bad field."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# Mixed into every API view (before the DRF base class). A comment, not a docstring: the
# schema takes an operation's description from its view's docstring, which a view without
# one would inherit from here (each operation has its own; tests/api/test_schema.py).
class ApiViewMixin(BrowsableApiCspMixin):

    throttle_classes = [ApiThrottle]
    schema = ApiAutoSchema()
    # For a 200 to GET without validators of its own (api.caching): lists and statistics.
    cache_control = LIST_CACHE_CONTROL
    content_negotiation_class = FormatFirstNegotiation
    # A viewset's keys: those a database column holds; other paths fall through to api.urls'
    # catch-all, a 404.
    lookup_value_regex = "[0-9]{1,18}"
    # Token first: a request without credentials to a write is answered 401 with
    # `WWW-Authenticate: Token` (DRF takes the header from the first class; the session
    # class has none, which would turn the 401 into a 403).
    authentication_classes = [ApiTokenAuthentication, SessionAuthentication]

    # The query parameters each action (viewsets) or method (plain views) takes besides a
    # list's filters and pages, as the serializer that reads them (`query`): the schema
    # documents them from here (api.schema.ApiAutoSchema). Any other parameter is refused
    # with a 400 naming it, so that a misspelt filter (`?palyer=An`) is an error instead of
    # silently returning the whole archive. `format` is always allowed.
    queries: dict[str, type[Serializer[Any]]] = {}

    @property
    def operation(self) -> str:
        """The action (viewsets) or the method (plain views, HEAD as GET)."""
        key = getattr(self, "action", None) or self.request.method.lower()  # type: ignore[attr-defined]
        return "get" if key == "head" else str(key)

    def query(self) -> dict[str, Any]:
        """This operation's query parameters, checked (a 400 names each bad one)."""
        query = self.queries[self.operation]
        return valid(query, self.request.query_params)  # type: ignore[attr-defined]

    def allowed_query(self) -> set[str]:
        """The names `queries` declares, and a list's filters (the export's too) and pages."""
        query = self.queries.get(self.operation)
        allowed = set(query().fields) if query is not None else set()
        filters = getattr(self, "filterset_class", None)
        if filters is not None and self.operation in ("list", "get", "export"):
            allowed |= set(filters.base_filters)
        paginator = getattr(self, "paginator", None)
        if paginator is not None and self.operation in ("list", "get"):
            allowed |= {paginator.page_query_param, paginator.page_size_query_param,
                        getattr(paginator, "cursor_query_param", paginator.page_query_param)}
        return allowed

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        method = request.method.lower()
        if method not in self.http_method_names or getattr(self, method, None) is None:
            # Not an operation of this endpoint: 405 for everyone, before authentication
            # (DRF would answer an anonymous PUT 401, as if signing in could help); in the
            # format asked for (the browsable API's page for a browser).
            self.format_kwarg = self.get_format_suffix(**kwargs)  # type: ignore[attr-defined]
            negotiated = self.perform_content_negotiation(request)  # type: ignore[attr-defined]
            request.accepted_renderer, request.accepted_media_type = negotiated
            raise MethodNotAllowed(request.method)
        super().initial(request, *args, **kwargs)
        unknown = sorted(set(request.query_params) - self.allowed_query() - {"format"})
        if unknown:
            raise ValidationError({name: [_("Unknown parameter.")] for name in unknown})
        # A parameter given twice (`?ordering=-points&ordering=date`) is refused rather than
        # read as its last value: no parameter takes a list that way.
        repeated = sorted(name for name, values in request.query_params.lists() if len(values) > 1)
        if repeated:
            raise ValidationError({name: [
                _("Given more than once: give it once (several values comma-separated where "
                  "it takes them, as `ordering=-points,date`).")] for name in repeated})

    def check_permissions(self, request: Any) -> None:
        # A token whose scope is "read" reads only, whatever the endpoint would allow.
        if request.method not in SAFE_METHODS and getattr(request.auth, "scope", "") == "read":
            raise PermissionDenied(
                _("This token may only read (its scope is \"read\"): use a token whose scope "
                  "is \"write\" to change anything."), code="read_only_token")
        super().check_permissions(request)  # type: ignore[misc]

    def finalize_response(
        self, request: Any, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method in ("GET", "HEAD") and isinstance(response, Response):
            response.add_post_render_callback(
                lambda rendered: etag_from_body(request, rendered, self.cache_control)
            )
        # Where the client stands in its rate limits (api.throttling), 429s included.
        for name, value in rate_limit_headers(request).items():
            response[name] = value
        return response

    def handle_exception(self, exc: Exception) -> Response:
        # An error on an FCN or NDJSON endpoint is still the JSON error body, with a JSON
        # content type: clients and the schema have one error format.
        request = getattr(self, "request", None)
        renderer = getattr(request, "accepted_renderer", None)
        if request is not None and (renderer is None or isinstance(renderer, TextRenderer)):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)


# No CSRF check: it changes nothing, and a DELETE with a session cookie to a wrong address
# must be this 404, not the site's HTML "form expired" page.
@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Every unknown address under /api/: the error body, in JSON."""
    message = _("No API endpoint at %(path)s.") % {"path": request.path}
    return error_response(404, "not_found", message)
