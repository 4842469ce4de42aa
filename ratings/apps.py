from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings and statistics")

    def ready(self) -> None:
        # ratings depends on records, never the reverse: records announces stored games, and
        # games about to be deleted.
        from records.signals import game_deleting, games_stored_batch

        games_stored_batch.connect(_count_stored, dispatch_uid="ratings.count_stored")
        game_deleting.connect(_forget_deleted, dispatch_uid="ratings.forget_deleted")


def _count_stored(
    sender: object, game_ids: list[int], final: bool = True, **kwargs: object
) -> None:
    from ratings.services import on_games_stored

    # An import's batches before its last only mark the ratings pending: one replay at its end.
    on_games_stored(game_ids, rate=final)


def _forget_deleted(sender: object, game_id: int, **kwargs: object) -> None:
    from ratings.deletion import forget_game

    forget_game(game_id)
