"""Content negotiation where `?format=` wins outright over the Accept header.

DRF's default narrows the renderers by `?format=` and then still requires the Accept header to
match one of them; a renderer whose media type has a parameter (the canonical FCN's
`text/x-fcn; variant=canonical`) never matches a browser's or curl's `*/*`. Here a known
`?format=` simply picks its renderer; without it, Accept decides as usual (JSON first).
"""

from __future__ import annotations

from collections.abc import Sequence
from django.utils.translation import gettext as _
from django.http import Http404
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings


class FormatFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Sequence[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        fmt = format_suffix or request.query_params.get(api_settings.URL_FORMAT_OVERRIDE or "")
        if fmt:
            for renderer in renderers:
                if renderer.format == fmt:
                    return renderer, renderer.media_type
            formats = ", ".join(str(r.format) for r in renderers)
            raise Http404(_("Unknown format %(format)r: use one of %(formats)s.")
                          % {"format": fmt[:20], "formats": formats})
        return super().select_renderer(request, renderers, format_suffix)
