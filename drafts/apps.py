from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DraftsConfig(AppConfig):
    name = "drafts"
    verbose_name = _("Record drafts")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # records cannot import drafts: seed_demo announces the demo, drafts adds its part.
        from drafts.demo import seed_demo_drafts
        from records.signals import demo_seeded

        demo_seeded.connect(seed_demo_drafts, dispatch_uid="drafts.seed_demo_drafts")
