"""Deleting a game from the web: a confirmation page (GET) and its form (POST, CSRF-checked).

Only the game's uploader or staff may (`records.deletion.can_delete`): anyone else gets 403 on
both, and an anonymous visitor is sent to sign in first. The deletion itself, its audit entry
and the statistics' update are `records.deletion.delete_game`'s.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from records.deletion import MAX_REASON, can_delete, delete_game
from records.models import Game


class DeleteGameForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason (optional)"),
        required=False,
        max_length=MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Kept in the audit trail with the record."),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.defer("original_text", "canonical_text").select_related("uploaded_by"),
        pk=pk,
    )
    if not can_delete(request.user, game):
        raise PermissionDenied(_("Only the user who uploaded this game, or staff, may delete it."))
    form = DeleteGameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            delete_game(game, by=request.user, reason=form.cleaned_data["reason"])
        except Game.DoesNotExist:
            raise Http404(_("This game was deleted meanwhile.")) from None
        messages.success(request, _("Game #%(number)s was deleted.") % {"number": pk})
        return redirect("archive")
    return render(request, "records/game_confirm_delete.html", {
        "game": game,
        "seats": game.seats.select_related("player").order_by("seat"),
        "form": form,
    })
