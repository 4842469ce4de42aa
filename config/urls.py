"""Root URL configuration: the project's own views, the admin, accounts, the API under /api/
and the web pages at the root."""

from __future__ import annotations

from allauth.account import views as account_views
from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.generic.base import RedirectView

from config import signin
from config.views import healthz

FAVICON = "img/favicon.svg"
# A 503 when the error is the database's absence (common/unavailable.py).
handler500 = "common.unavailable.server_error"
handler400 = "config.views.bad_request"


@require_safe
@cache_control(max_age=24 * 3600, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """/favicon.ico, which browsers ask for on pages without `<link rel="icon">` (the admin, the
    API's pages): a temporary redirect to the static SVG that base.html links, its address
    looked up per request (hashed after collectstatic, so it changes with each release)."""
    return HttpResponseRedirect(static(FAVICON))


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # Accounts (django-allauth; templates/account/, web/accounts/): sign-up, sign-in,
    # sign-out, e-mail confirmation, password reset and change. Sign-in and sign-out keep the
    # names "login" and "logout" that LOGIN_URL and the pages use.
    path("accounts/login/", signin.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    # Django's own address for a password reset, from before allauth: links to it still work.
    path("accounts/password_reset/",
         RedirectView.as_view(pattern_name="account_reset_password", permanent=True)),
    path("accounts/", include("allauth.urls")),
    # set_language, for the language selector.
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("api.urls")),
    path("", include("web.urls")),
]
