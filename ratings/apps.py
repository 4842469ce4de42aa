from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings and statistics")

    def ready(self) -> None:
        # ratings depends on records, never the reverse: records announces stored games, and
        # games about to be deleted.
        from records.signals import game_deleting, game_rewritten, games_stored_batch

        games_stored_batch.connect(_count_stored, dispatch_uid="ratings.count_stored")
        game_deleting.connect(_forget_deleted, dispatch_uid="ratings.forget_deleted")
        game_rewritten.connect(_recount_rewritten, dispatch_uid="ratings.recount_rewritten")
        # Every change of what is counted or pending saves the one DerivedState row: the
        # "ratings updating" look (ratings.services.ratings_updating) is forgotten there.
        from django.db.models.signals import post_save

        from ratings.models import DerivedState

        post_save.connect(_state_saved, sender=DerivedState, dispatch_uid="ratings.state_saved")


def _count_stored(
    sender: object, game_ids: list[int], final: bool = True, **kwargs: object
) -> None:
    from ratings.services import on_games_stored, updating_changed

    updating_changed()  # stored and not counted yet, whatever the counting below does
    # An import's batches before its last only mark the ratings pending: one replay at its end.
    on_games_stored(game_ids, rate=final)


def _forget_deleted(sender: object, game_id: int, **kwargs: object) -> None:
    from ratings.deletion import forget_game

    forget_game(game_id)


def _recount_rewritten(
    sender: object, game_id: int, former_player_ids: list[int] | None = None, **kwargs: object
) -> None:
    from ratings.deletion import mark_due

    # Due again: the statistics job's catch-up counts it with its new data.
    mark_due(game_id, former_player_ids or ())


def _state_saved(sender: object, **kwargs: object) -> None:
    from ratings.services import updating_changed

    updating_changed()
