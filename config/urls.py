"""Root URL configuration.

The apps' URL modules are included only once they exist, so that the project starts (and
`/healthz` answers) while they are still being written.
"""

from __future__ import annotations

from importlib.util import find_spec

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from config.views import healthz


def _module_exists(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ModuleNotFoundError:  # the parent package itself is missing
        return False


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # login / logout / password views named "login", "logout", ... (templates: registration/).
    path("accounts/", include("django.contrib.auth.urls")),
    # set_language, for the language selector.
    path("i18n/", include("django.conf.urls.i18n")),
]

if _module_exists("api.urls"):
    urlpatterns.append(path("api/", include("api.urls")))
if _module_exists("jobs.urls"):
    urlpatterns.append(path("jobs/", include("jobs.urls")))
if _module_exists("records.urls"):
    urlpatterns.append(path("", include("records.urls")))
