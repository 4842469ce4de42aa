"""Deleting a game, with an audit trail from which it can be restored.

Games are immutable, so the one change a user can make to what they uploaded is to delete it,
and only its uploader or staff may (`can_delete`: the web page, the API and the admin ask it).
`delete_game`, in one transaction:

1. sends `records.signals.game_deleting`, so that apps keeping derived data drop the game
   under their own lock, taken before the game's rows (the order imports take them in: no
   deadlock);
2. writes an `AuditEntry`: who, when, why, and the original text, verbatim;
3. deletes the game and its seats, then its match and players if no game names them any more.

`restore_game` re-imports an entry's text (a new upload by the original uploader: the same
content hash, under a new id).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from records.models import AuditAction, AuditEntry, Game, Match, NameWord, Player
from records.services import RecordResult, RecordStatus, import_texts
from records.signals import game_deleting

MAX_REASON = 1000


def can_delete(user: Any, game: Game) -> bool:
    """Whether `user` may delete `game`: its uploader (a game without one: nobody) or staff."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return False
    if user.is_staff:
        return True
    return game.uploaded_by_id is not None and game.uploaded_by_id == user.pk


def _name(user: Any) -> str:
    return user.get_username() if user is not None else ""


def _user(user: Any) -> Any:
    """A real user, or None (AnonymousUser, a script)."""
    return user if getattr(user, "is_authenticated", False) else None


def _entry(action: str, by: Any, reason: str, **fields: Any) -> AuditEntry:
    user = _user(by)
    return AuditEntry.objects.create(action=action, by=user, by_name=_name(user), reason=reason,
                                     **fields)


# What a restored game's entry copies from its deletion's.
_UPLOAD_FIELDS = ("ruleset", "seats", "match_tag", "uploaded_by", "uploader_name", "uploaded_at",
                  "original_text")


def delete_game(game: Game | int, by: Any = None, reason: str = "") -> AuditEntry:
    """Delete a game (an instance or its id) and its seats, leaving an audit entry; returns the
    entry. Game.DoesNotExist when it is not (or no longer) stored. The caller checks
    `can_delete` first: this function is also what staff tools call."""
    pk = game.pk if isinstance(game, Game) else int(game)
    with transaction.atomic():
        # Derived data first: its receivers take their lock before any row of the game.
        game_deleting.send(sender=Game, game_id=pk)
        stored = (
            Game.objects.select_for_update(of=("self",))
            .select_related("match", "uploaded_by")
            .get(pk=pk)
        )
        seats = list(stored.seats.order_by("seat").values_list("name", "player_id"))
        entry = _entry(
            AuditAction.DELETED, by, reason.strip()[:MAX_REASON],
            game_id=stored.pk,
            content_hash=stored.content_hash,
            ruleset=stored.ruleset,
            seats=[name for name, _ in seats],
            match_tag=stored.match.tag if stored.match is not None else "",
            uploaded_by=stored.uploaded_by,
            uploader_name=_name(stored.uploaded_by),
            uploaded_at=stored.uploaded_at,
            original_text=stored.original_text,
        )
        match_id = stored.match_id
        stored.delete()  # its seats (and what other apps keep per game) go with it
        if match_id is not None:
            _delete_named(Match.objects.filter(pk=match_id, games__isnull=True),
                          NameWord.Kind.MATCH)
        _delete_named(Player.objects.filter(pk__in={p for _, p in seats}, seats__isnull=True),
                      NameWord.Kind.PLAYER)
    return entry


def _delete_named(rows: Any, kind: str) -> None:
    """Delete `rows` (players or a match no game names any more) and their search words."""
    ids = set(rows.values_list("pk", flat=True))
    if ids:
        rows.filter(pk__in=ids).delete()  # the condition again: a seat taken meanwhile keeps it
        gone = ids - set(rows.model.objects.filter(pk__in=ids).values_list("pk", flat=True))
        NameWord.objects.filter(kind=kind, ref__in=gone).delete()


def restore_game(entry: AuditEntry, by: Any = None) -> RecordResult:
    """Undo a deletion: import the entry's original text again, as its uploader's upload.

    "stored" (a new game, with a "restored" entry in the trail), or "duplicate" when the same
    content is stored already (nothing to restore)."""
    report = import_texts([entry.original_text], entry.uploaded_by)
    result = report.results[0]
    if result.status is RecordStatus.STORED and result.game_id is not None:
        _entry(
            AuditAction.RESTORED, by,
            f"restored from audit entry {entry.pk} (game {entry.game_id})",
            game_id=result.game_id,
            content_hash=Game.objects.values_list("content_hash", flat=True).get(
                pk=result.game_id
            ),
            **{name: getattr(entry, name) for name in _UPLOAD_FIELDS},
        )
    return result
