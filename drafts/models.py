"""A round being recorded (the record editor, /record/ and /api/v1/drafts/), kept per user.

One source of truth: the fields below. The FCN text, the table and the legal next events are
derived from them by the engine whenever they are asked for (drafts.play), never stored.
`events` holds every event entered, in order, with its comments; the first `position` of them
are played, the rest are the undone ones that redo brings back (a new event drops them).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from records.models import Game


class Draft(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts"
    )
    ruleset = models.CharField(max_length=32)
    seats = models.JSONField(help_text="the players' names, seat 1 first")
    dealer = models.PositiveSmallIntegerField()
    tags = models.JSONField(
        default=dict, help_text="every other tag (Event, Date, Match, Round, Lucky, Pile, ...)"
    )
    deal = models.JSONField(default=dict, help_text='seat ("1".."4") -> its dealt cards')
    comments = models.JSONField(default=list, help_text="comments before the first event")
    events = models.JSONField(
        default=list, help_text='[{"event": "3x rK", "comments": [...]}], played and undone'
    )
    position = models.PositiveIntegerField(default=0, help_text="events played (the rest: redo)")
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="the archive's game once saved (stored, or the duplicate already there)",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "game", "-updated_at"], name="draft_owner_open")]

    def __str__(self) -> str:
        return f"draft {self.pk}: " + " · ".join(str(name) for name in self.seats)

