from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings and statistics")

    def ready(self) -> None:
        # ratings depends on records, never the reverse: records announces stored games.
        from records.signals import games_stored_batch

        games_stored_batch.connect(_count_stored, dispatch_uid="ratings.count_stored")


def _count_stored(sender: object, game_ids: list[int], **kwargs: object) -> None:
    from ratings.services import on_games_stored

    on_games_stored(game_ids)
