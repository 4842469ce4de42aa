from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Game records")

    def ready(self) -> None:
        from django.db.models import Field, ForeignObject

        from records.lookups import AnyOf

        # Relations keep lookups of their own (Django does not pass Field's on to them).
        Field.register_lookup(AnyOf)
        ForeignObject.register_lookup(AnyOf)
