from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Game records")

    def ready(self) -> None:
        from records.paging import analyze_after_import
        from records.signals import games_stored_batch

        games_stored_batch.connect(analyze_after_import, dispatch_uid="records-analyze")

        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save, pre_delete

        # "Uploaded by" searches usernames as player names are searched (records.search).
        user_model = get_user_model()
        post_save.connect(_index_username, sender=user_model, dispatch_uid="records-username")
        post_delete.connect(_unindex_username, sender=user_model,
                            dispatch_uid="records-username-gone")
        pre_delete.connect(_touch_uploads, sender=user_model, dispatch_uid="records-uploader-gone")


def _index_username(sender: type, instance: object, **kwargs: object) -> None:
    from records.search import NameWord, index_names

    fields = kwargs.get("update_fields")
    if fields is not None and "username" not in fields:  # e.g. last_login at each sign-in
        return
    index_names(NameWord.Kind.USER, {instance.pk: instance.username})  # type: ignore[attr-defined]


def _touch_uploads(sender: type, instance: object, **kwargs: object) -> None:
    """The account's games lose their `uploaded_by` (the relation's SET_NULL, in the same
    transaction): stamped as changed, so that clients syncing by `updated_since` see it."""
    from django.utils import timezone

    from records.models import Game

    Game.objects.filter(uploaded_by=instance).update(updated_at=timezone.now())


def _unindex_username(sender: type, instance: object, **kwargs: object) -> None:
    from records.search import NameWord

    NameWord.objects.filter(kind=NameWord.Kind.USER, ref=instance.pk).delete()  # type: ignore[attr-defined]
