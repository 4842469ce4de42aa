"""The record editor's operations on a user's drafts (the API and the /record/ page share them).

Every change takes the draft's row lock, checks with the engine (drafts.play) and saves the
fields; nothing is changed when the engine refuses. Refusals are `fourcolor.FcnError`s (the
engine's category and message) or `DraftConflict`s (an operation the draft's state does not
allow: nothing to undo, a saved draft, ...). Saving goes through the archive's one entry point
for uploads, `jobs.queue.submit_upload`: the same checks, duplicate detection and statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy

import fourcolor
from fourcolor.errors import FcnError, IllegalRecordError
from fourcolor.notation import MAX_COMMENT_CHARS, Event, parse_record
from jobs.models import Job
from jobs.queue import submit_upload
from records.services import ImportReport
from records.services.report import stored_error

from drafts.models import Draft
from drafts.play import (
    OPTIONAL_TAGS,
    OWN_TAGS,
    check_head,
    play,
)

# Unfinished drafts one user may keep at once: a draft is a round at a table, not storage.
MAX_OPEN_DRAFTS = 100


# What each conflict says, by its code (and, for `events` and `unfinished`, by what is
# fixed or missing): the code and parameters are the clients', the words the reader's.
CONFLICTS: dict[str, Any] = {
    "too_many_drafts": gettext_lazy(
        "You have %(count)s unfinished drafts: save or delete one first."),
    "saved": gettext_lazy("This draft is saved in the archive: it is read-only."),
    "seats": gettext_lazy("The draft has %(count)s seats."),
    "events": {
        "ruleset": gettext_lazy(
            "The ruleset is fixed once events are entered (undo them, or start a new draft)."),
        "dealer": gettext_lazy(
            "The dealer is fixed once events are entered (undo them, or start a new draft)."),
        "deal": gettext_lazy(
            "The deal is fixed once events are entered (undo them, or start a new draft)."),
    },
    "stale": gettext_lazy(
        "The draft has %(played)s events played: this would be event %(next)s, not %(ply)s."),
    "no_event": gettext_lazy("The draft has no event %(ply)s."),
    "nothing_to_undo": gettext_lazy("No event to undo."),
    "nothing_to_redo": gettext_lazy("No undone event to redo."),
    "unfinished": {
        "lucky": gettext_lazy("The lucky card of the win is missing (the Lucky tag)."),
        "playing": gettext_lazy(
            "The round has not ended: only a finished round goes into the archive."),
    },
}


class DraftConflict(Exception):
    """An operation the draft's state does not allow: `code` names it for clients, `params`
    are its numbers and names, `message` says it in the active language (`CONFLICTS`)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        template = CONFLICTS[self.code]
        if isinstance(template, dict):
            template = template[self.params["what"]]
        return str(template) % self.params


def open_drafts(user: Any) -> QuerySet[Draft]:
    """The user's unfinished drafts (not saved to the archive), last changed first."""
    return Draft.objects.filter(owner=user, game__isnull=True).order_by("-updated_at", "-pk")


def user_drafts(user: Any) -> QuerySet[Draft]:
    return Draft.objects.filter(owner=user)


def _clean_comment(text: str) -> list[str]:
    """A comment as the FCN reader would give it back (whitespace collapsed), refused when the
    record could not hold it."""
    text = " ".join(text.split())
    if not text:
        return []
    if "}" in text:
        raise IllegalRecordError("syntax.comment_brace")
    if len(text) > MAX_COMMENT_CHARS:
        raise IllegalRecordError("limit.comment", n=MAX_COMMENT_CHARS)
    return [text]


def _check_room(user: Any) -> None:
    if open_drafts(user).count() >= MAX_OPEN_DRAFTS:
        raise DraftConflict("too_many_drafts", count=MAX_OPEN_DRAFTS)


def create_draft(
    user: Any,
    *,
    ruleset: str,
    seats: Sequence[str],
    dealer: int,
    tags: Mapping[str, str] | None = None,
    deal: Mapping[str, Sequence[str]] | None = None,
) -> Draft:
    """A new draft from the start form's fields; the deal may be partial (or absent)."""
    _check_room(user)
    draft = Draft(owner=user, ruleset=ruleset, seats=list(seats), dealer=dealer,
                  tags={k: v for k, v in (tags or {}).items() if v != ""},
                  deal={str(k): list(v) for k, v in (deal or {}).items()})
    check_head(draft)
    draft.save()
    return draft


def create_from_fcn(user: Any, text: str) -> Draft:
    """A new draft from a record's text: its tags and deal, with any events already played.
    `Result` must be absent or `*`; the events must be legal (the round may be unfinished)."""
    _check_room(user)
    record = parse_record(text)
    result = record.tags.pop("Result", None)
    if result not in (None, "*"):
        raise IllegalRecordError("draft.result", value=result)
    tags = {k: v for k, v in record.tags.items()
            if k not in OWN_TAGS and not (k.startswith("Seat") and k[4:].isdecimal())}
    draft = Draft(
        owner=user, ruleset=record.ruleset_name, seats=list(record.seats),
        dealer=record.dealer, tags=tags, comments=list(record.comments),
        deal={str(seat): [c.token for c in cards] for seat, cards in record.deal.items()},
    )
    check_head(draft)
    try:
        fourcolor.validate(record)  # without its Result: an unfinished round is no fault
    except FcnError as err:
        if err.ply <= len(record.events):
            raise
    draft.events = [{"event": str(e), "comments": list(e.comments)} for e in record.events]
    draft.position = len(draft.events)
    draft.save()
    return draft


def _change(user: Any, pk: int, change: Callable[[Draft], None]) -> Draft:
    """Apply `change` to the user's draft under its row lock, then save it. `Draft.DoesNotExist`
    for a draft that is not the user's."""
    with transaction.atomic():
        draft = user_drafts(user).select_for_update().get(pk=pk)
        if draft.game_id is not None:
            raise DraftConflict("saved")
        change(draft)
        draft.save()
    return draft


def update_draft(user: Any, pk: int, fields: Mapping[str, Any]) -> Draft:
    """Names, optional tags (Lucky too), and, before the first event, ruleset, dealer, deal."""

    def change(draft: Draft) -> None:
        if "seats" in fields:
            if len(fields["seats"]) != len(draft.seats):
                raise DraftConflict("seats", count=len(draft.seats))
            draft.seats = list(fields["seats"])
        if "tags" in fields:
            # The tags sent change; "" removes one; the others stay.
            merged = draft.tags | {k: v for k, v in fields["tags"].items() if k in OPTIONAL_TAGS}
            draft.tags = {k: v for k, v in merged.items() if v != ""}
        fixed = [name for name in ("ruleset", "dealer", "deal") if name in fields]
        if fixed and draft.events:
            raise DraftConflict("events", what=fixed[0])
        draft.ruleset = fields.get("ruleset", draft.ruleset)
        draft.dealer = fields.get("dealer", draft.dealer)
        if "deal" in fields:
            draft.deal = {str(k): list(v) for k, v in fields["deal"].items()}
        check_head(draft)
        state = play(draft)
        if state.round is not None and draft.position:
            # New names or tags change no event; a new Lucky tag is checked at the end.
            play_lucky(state)

    return _change(user, pk, change)


def play_lucky(state: Any) -> None:
    """A bga win's Lucky tag must agree with the pile (when the Pile tag is there)."""
    rnd = state.round
    if rnd is None or rnd.finish is None:
        return
    error = rnd.finish.lucky_error
    if error is not None and state.record.tag("Lucky") is not None:
        raise IllegalRecordError(error.code, ply=len(state.record.events) + 1, **error.params)


def add_event(user: Any, pk: int, text: str, comment: str = "", ply: int | None = None
              ) -> tuple[Draft, bool]:
    """Play one typed event (after the played ones; the undone ones are dropped). With `ply`
    (the number the event will have), a repeated request is recognised: (draft, False) when
    that event is already there, and a conflict when the draft has moved on."""
    created = True

    def change(draft: Draft) -> None:
        nonlocal created
        event = Event.parse(text, ply=draft.position + 1)
        comments = _clean_comment(comment)
        if ply is not None and ply != draft.position + 1:
            entry = draft.events[ply - 1] if 0 < ply <= draft.position else None
            if entry is not None and entry["event"] == str(event):
                created = False
                return
            raise DraftConflict("stale", played=draft.position, next=draft.position + 1, ply=ply)
        state = play(draft)
        state.push(event)
        draft.events = draft.events[: draft.position] + [
            {"event": str(event), "comments": comments}
        ]
        draft.position += 1

    return _change(user, pk, change), created


def set_comment(user: Any, pk: int, ply: int, comment: str) -> Draft:
    """Replace the comment on event `ply` (played or undone); "" removes it."""

    def change(draft: Draft) -> None:
        if not 1 <= ply <= len(draft.events):
            raise DraftConflict("no_event", ply=ply)
        draft.events[ply - 1] = {**draft.events[ply - 1], "comments": _clean_comment(comment)}

    return _change(user, pk, change)


def undo(user: Any, pk: int) -> Draft:
    def change(draft: Draft) -> None:
        if draft.position == 0:
            raise DraftConflict("nothing_to_undo")
        draft.position -= 1

    return _change(user, pk, change)


def redo(user: Any, pk: int) -> Draft:
    def change(draft: Draft) -> None:
        if draft.position >= len(draft.events):
            raise DraftConflict("nothing_to_redo")
        draft.position += 1

    return _change(user, pk, change)


@dataclass(frozen=True)
class Saved:
    """What became of a saved draft: the archive's game (`duplicate`: it was already there),
    or the upload's job while it still runs (the database stopped it half-way)."""

    draft: Draft
    job: Job
    game_id: int | None
    duplicate: bool


def save_draft(user: Any, pk: int) -> Saved:
    """Store the ended round in the archive as an upload of its FCN text."""
    draft = user_drafts(user).get(pk=pk)
    if draft.game_id is not None:
        raise DraftConflict("saved")
    state = play(draft)
    if state.stage != "ended":
        raise DraftConflict("unfinished", what="lucky" if state.stage == "lucky" else "playing")
    text = state.fcn()
    submitted = submit_upload(text, user, f"draft-{draft.pk}.fcn",
                              size=len(text.encode("utf-8")))
    job = submitted.job
    if not submitted.finished:
        return Saved(draft, job, None, False)
    results = ImportReport.from_dict(job.report or {}).results
    result = results[0] if results else None
    if result is None or result.game_id is None:
        error = (result.error or {}) if result is not None else {}
        if not error:
            raise IllegalRecordError("draft.refused")
        raise stored_error(error, IllegalRecordError)
    Draft.objects.filter(pk=draft.pk).update(game_id=result.game_id)
    draft.refresh_from_db()
    return Saved(draft, job, result.game_id, result.status == "duplicate")


def delete_draft(user: Any, pk: int) -> None:
    deleted, _ = user_drafts(user).filter(pk=pk).delete()
    if not deleted:
        raise Draft.DoesNotExist

