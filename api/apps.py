from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("REST API")

    def ready(self) -> None:
        from corsheaders.signals import check_request_enabled

        from api.cors import cors_enabled

        check_request_enabled.connect(cors_enabled, dispatch_uid="api-cors")
