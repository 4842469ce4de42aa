from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings and statistics")

    def ready(self) -> None:
        # ratings depends on records, never the reverse: records announces stored games, and
        # games about to be deleted or rewritten.
        from django.db.models.signals import post_save

        from ratings import deletion, services
        from ratings.models import DerivedState
        from records.signals import game_deleting, game_rewritten, games_stored_batch

        games_stored_batch.connect(services.count_stored, dispatch_uid="ratings.count_stored")
        game_deleting.connect(deletion.forget_game, dispatch_uid="ratings.forget_deleted")
        game_rewritten.connect(deletion.mark_due, dispatch_uid="ratings.recount_rewritten")
        # Every change of what is counted or pending saves the one DerivedState row: the
        # "ratings updating" look (ratings.services.ratings_updating) is forgotten there.
        post_save.connect(services.updating_changed, sender=DerivedState,
                          dispatch_uid="ratings.state_saved")
