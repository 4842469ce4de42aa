"""Forms of the web pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import ProhibitNullCharactersValidator
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from fourcolor.rulesets import MAX_PLAYERS, RULESETS
from records.variants import PickError, picked_tags, switch_help


# The largest file the upload page takes is UPLOAD_MAX_BYTES; bigger archives go through
# `manage.py import_games` or the API. Pasted text is bounded by DATA_UPLOAD_MAX_MEMORY_SIZE.


class HouseRulesForm(forms.Form):
    """A house variant picked by the user, as the `Switches` tag's value (the record editor's
    start, and the upload and check pages for the records that name none)."""

    switches = forms.CharField(
        label=_("House rules"), max_length=200, required=False,
        help_text=_("Switches of the ruleset, as the Switches tag: for example "
                    "steal_generals=never dealt_sets_locked=on"))

    def clean_switches(self) -> str:
        """The variant written canonically; the engine's words for a bad one."""
        try:
            return picked_tags(switches=self.cleaned_data.get("switches") or "").get(
                "Switches", "")
        except PickError as error:  # in the page's language, as a record's refusal
            raise forms.ValidationError(error.text, code="switches") from None

    def switch_help(self) -> list[dict[str, str]]:
        return switch_help()


class UploadForm(HouseRulesForm):
    """One or more FCN records, pasted or as a file (exactly one of the two), and the ruleset
    and house rules of the records whose tags do not say."""

    text = forms.CharField(
        label=_("Paste records"),
        required=False,
        strip=False,  # the record is stored verbatim
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_("One or more records in FCN, one after another."),
    )
    file = forms.FileField(
        label=_("or choose a file"),
        required=False,
        help_text=_("A UTF-8 text file of FCN records (.fcn or .txt)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".fcn,.txt,text/plain"}),
    )
    ruleset = forms.ChoiceField(
        label=_("Ruleset"), required=False,
        choices=[("", _("as each record says")), *((name, name) for name in RULESETS)])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Django's CharField refuses a NUL anywhere in the paste; the engine refuses only the
        # record holding it, with its line and column, as it does for a file or the API.
        text = self.fields["text"]
        text.validators = [v for v in text.validators
                           if not isinstance(v, ProhibitNullCharactersValidator)]

    def given_tags(self) -> dict[str, str]:
        """The tags picked for the records without their own (records.services.ImportOptions's
        `given`)."""
        data = self.cleaned_data
        return picked_tags(data.get("ruleset") or "", data.get("switches") or "")

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        if upload is not None and upload.size > settings.UPLOAD_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s bytes; the upload page takes at most %(max)s bytes."),
                params={"size": upload.size, "max": settings.UPLOAD_MAX_BYTES},
                code="too_big",
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        sent = len(self.files.getlist(self.add_prefix("file"))) if self.files else 0
        if sent > 1:
            # Django's field keeps the last one: the others would vanish without a word.
            raise forms.ValidationError(
                _("Choose one file at a time: this upload sent %(count)s."),
                params={"count": sent}, code="files",
            )
        has_text = bool(data.get("text", "").strip())
        has_file = data.get("file") is not None
        if has_text and has_file:
            raise forms.ValidationError(
                _("Paste records or choose a file, not both."), code="both"
            )
        if not has_text and not has_file and not self.errors:
            raise forms.ValidationError(
                _("Paste at least one record or choose a file."), code="empty"
            )
        return data


class DateRangeForm(forms.Form):
    """The player page's filter form (web.views.players.PlayerFilter builds its fields):
    a person who picked the dates the wrong way round is told so, where the API answers an
    empty range."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(
                _("The first date is after the last one."), code="date_order"
            )
        return data


def suggest_attrs(name: str) -> dict[str, str]:
    """A player-name input that site.js completes as one types, from the API's player search
    (part of a name, most rounds first); without the script it is a plain text box."""
    return {
        "data-suggest": reverse("api:player-list"),
        "list": f"{name}-suggestions",
        "autocomplete": "off",
    }


def use_date_pickers(form: forms.Form) -> None:
    """`since` and `until` as <input type="date">, which reads ISO dates in every language."""
    for name in ("since", "until"):
        widget = form.fields[name].widget
        widget.input_type = "date"
        widget.format = "%Y-%m-%d"


class DraftStartForm(HouseRulesForm):
    """The record editor's start: ruleset, two to eight seats in turn order (bga: four), the
    dealer, a house variant and the optional tags. The engine checks the names, the table's
    size and the variant (drafts.services.create_draft)."""

    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=[("classic", "classic"),
                                                              ("bga", "bga")])
    dealer = forms.ChoiceField(label=_("Dealer"), choices=lambda: [
        (str(n), _("Seat %(number)s") % {"number": n}) for n in range(1, MAX_PLAYERS + 1)])
    event = forms.CharField(label=_("Event"), max_length=200, required=False)
    date = forms.DateField(label=_("Date"), required=False,
                           widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    match = forms.CharField(label=_("Match"), max_length=200, required=False)
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=999, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, MAX_PLAYERS + 1):  # seat1 ... seat8, the first two required
            self.fields[f"seat{number}"] = forms.CharField(
                label=_("Seat %(number)s") % {"number": number}, max_length=100,
                required=number <= 2,
                widget=forms.TextInput(attrs=suggest_attrs(f"seat{number}")))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        filled = [n for n in range(1, MAX_PLAYERS + 1) if data.get(f"seat{n}")]
        gap = next((n for n in range(1, max(filled, default=0)) if n not in filled), None)
        if gap is not None:
            raise forms.ValidationError(
                _("Fill the seats in turn order: seat %(gap)s before seat %(after)s.")
                % {"gap": gap, "after": max(filled)}, code="gap")
        dealer = int(data.get("dealer") or 1)
        if dealer > len(self.seats()):
            raise forms.ValidationError(_("The dealer must be one of the seats."), code="dealer")
        return data

    def seats(self) -> list[str]:
        data = self.cleaned_data
        return [data[f"seat{n}"] for n in range(1, MAX_PLAYERS + 1) if data.get(f"seat{n}")]

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat{n}"] for n in range(1, MAX_PLAYERS + 1)]

    def tags(self) -> dict[str, str]:
        data = self.cleaned_data
        tags = {"Event": data.get("event") or "", "Match": data.get("match") or ""}
        if data.get("date"):
            tags["Date"] = data["date"].strftime("%Y.%m.%d")
        if data.get("round"):
            tags["Round"] = str(data["round"])
        if data.get("switches"):
            tags["Switches"] = data["switches"]
        return {name: value for name, value in tags.items() if value}
