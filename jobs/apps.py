from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JobsConfig(AppConfig):
    name = "jobs"
    verbose_name = _("Background jobs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # With ANALYSIS_ON_UPLOAD, every newly stored game gets an analysis job.
        from jobs.batches import on_games_stored
        from records.signals import games_stored_batch

        games_stored_batch.connect(on_games_stored, dispatch_uid="jobs.analyse_stored")
