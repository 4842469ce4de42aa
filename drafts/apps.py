from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DraftsConfig(AppConfig):
    name = "drafts"
    verbose_name = _("Record drafts")
    default_auto_field = "django.db.models.BigAutoField"
