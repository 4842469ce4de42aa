"""The record editor: /record/ starts a draft (or resumes an unfinished one), /record/{id}/
enters it card by card and event by event.

The page draws the draft's state (drafts.play.state_json, the API's detail) and changes it
through the API (`/api/v1/drafts/`, static/js/record.js), whose engine judges every deal,
event, undo and save; the start form and the FCN download work without the script. Drafts
are their owner's only: anyone else gets the 404 page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from drafts import services
from drafts.models import Draft
from drafts.play import CARD_TOKENS, play, state_json
from fourcolor.errors import FcnError
from records.refusal_text import refusal_text
from records.wording import tag_label
from web.forms import DraftStartForm
from web.limits import rate_limited
from web.views.labels import js_labels

STAGE_NAMES = {
    "deal": gettext_lazy("dealing"), "play": gettext_lazy("playing"),
    "lucky": gettext_lazy("waiting for the lucky card"),
    "ended": gettext_lazy("ready to save"), "saved": gettext_lazy("saved"),
}


def _own(request: HttpRequest, pk: int) -> Draft:
    draft = services.user_drafts(request.user).filter(pk=pk).first()
    if draft is None:
        raise Http404("No such draft.")
    return draft


def _drafts(request: HttpRequest) -> list[dict[str, Any]]:
    rows = []
    for draft in services.open_drafts(request.user)[:50]:
        state = play(draft)
        rows.append({"draft": draft, "stage": STAGE_NAMES.get(state.stage, state.stage),
                     "plies": draft.position})
    return rows


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("drafts")  # as the API's changes to drafts
def record_start(request: HttpRequest) -> HttpResponse:
    """The start form (ruleset, seats, dealer, tags) and the list of unfinished drafts."""
    form = DraftStartForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                draft = services.create_draft(
                    request.user, ruleset=data["ruleset"], seats=form.seats(),
                    dealer=int(data["dealer"]), tags=form.tags(),
                )
            except FcnError as error:
                form.add_error(None, refusal_text(error.as_dict(), form.seats()))
            except services.DraftConflict as error:
                form.add_error(None, error.message)
            else:
                return redirect("record-draft", pk=draft.pk)
        status = 400
    return render(request, "records/record_start.html",
                  {"form": form, "drafts": _drafts(request)}, status=status)


def _labels() -> dict[str, Any]:
    labels = js_labels()
    labels["record"] = {
        "stages": {key: str(value) for key, value in STAGE_NAMES.items()},
        "kinds": {"draw": _("Draw"), "discard": _("Discard"), "claim": _("Claims"),
                  "win": _("Win"), "redeal": _("Redeal"), "call": _("Calls")},
        "rights": {"pong": _("pong"), "gan": _("gan"), "chi": _("chi"), "win": _("win")},
        "free": _("%(count)s free"),
        "dealt": _("%(count)s of %(size)s cards"),
        "offline": _("No connection: the change was not saved. Try again."),
        "waiting": _("No connection: events wait to be sent (%(count)s); trying again…"),
        "takenBack": _("Taken back with it: the events entered after it (%(count)s in all)."),
        "sending": _("sending…"),
        "signedOut": _("You are signed out: the events wait on this device (%(count)s). Sign "
                       "in again and reopen the draft to send them."),
        "waitingServer": _("Waiting for the server…"),
        "saving": _("Saving…"),
        "saved": _("Saved."),
        "noEvents": _("No event yet."),
        "noLegal": _("No event can follow."),
        "exhausted": _("If nobody claims the last discard, the round is exhausted: save it."),
        "event": _("Event %(ply)s"),
        "undone": _("undone"),
        "comment": _("Comment"),
        "pickLucky": _("Pick the lucky card turned after the win."),
        "duplicate": _("This round is in the archive already: opening it."),
    }
    return labels


@login_required
@require_safe
def record_draft(request: HttpRequest, pk: int) -> HttpResponse:
    draft = _own(request, pk)
    state = state_json(draft, lookahead=True)
    seats = [{"seat": number, "name": name, "dealer": number == draft.dealer}
             for number, name in enumerate(draft.seats, start=1)]
    table_state, table = _table(state, seats)
    context = {
        "draft": draft,
        "table_state": table_state,
        "table": table,
        "discards": [d["card"] for d in (state["table"] or {}).get("discards", [])],
        "view": None,
        "state": state,
        "tags": [(tag_label(name), value) for name, value in state["tags"].items()
                 if name != "Pile"],
        "seats": seats,
        "cards": CARD_TOKENS,
        "stage_name": STAGE_NAMES.get(state["stage"], state["stage"]),
        "api_url": reverse("api:draft-detail", args=[draft.pk]),
        "labels": _labels(),
        "game_url": reverse("game", args=[draft.game_id]) if draft.game_id else None,
    }
    return render(request, "records/record.html", context)


def _table(state: dict[str, Any], seats: list[dict[str, Any]]
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The table partial's context (templates/records/_table.html, as the replay draws it)
    from the draft's state: the table after the played events, or the deal so far."""
    table = state["table"]
    if table is not None:
        return table, table["seats"]
    rows = [{**seat, "hand_count": len(state["deal"].get(str(seat["seat"]), [])),
             "hand": state["deal"].get(str(seat["seat"]), []), "display": [],
             "exposed_points": 0, "can_claim": []} for seat in seats]
    return {"live": None, "pile_left": 112 - sum(r["hand_count"] for r in rows),
            "turn": None}, rows


@login_required
@require_safe
def record_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The draft's FCN so far (Result `*` until the round ends)."""
    draft = _own(request, pk)
    response = HttpResponse(play(draft).fcn(), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="draft-{draft.pk}.fcn"'
    return response
