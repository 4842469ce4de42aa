"""allauth's account forms with the site's labels, help and placeholders.

allauth sets its own English labels in each form's __init__; these subclasses replace them
with ours (translated in locale/). A sign-in form still posted with Django's field name
`username` (older scripts, bookmarks) is read as allauth's `login`.
"""

from __future__ import annotations

from typing import Any

from allauth.account import forms as allauth_forms
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

# Errors raised with a library's own wording from inside its forms, which its catalogues do not
# translate (allauth has no Vietnamese; Django's Vietnamese lacks its 5.x wording of the
# length rule): naming them here puts them in our catalogues, which gettext reads first.
LIBRARY_MESSAGES = (
    gettext_noop("You must type the same password each time."),
    ngettext_lazy("This password is too short. It must contain at least %d character.",
                  "This password is too short. It must contain at least %d characters.", 8),
)

PASSWORD_HELP = _(
    "At least 8 characters, not only digits, not a common password and not like your "
    "username."
)


class Relabelled:
    """Sets `labels` and `help_texts` (a field not named has no help) and drops the
    placeholders, after the allauth form's own __init__."""

    labels: dict[str, Any] = {}
    help_texts: dict[str, Any] = {}
    fields: dict[str, forms.Field]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name in self.labels:
                field.label = self.labels[name]
            field.help_text = self.help_texts.get(name, "")
            # A label above every box says what goes in it; a placeholder repeating it in
            # English is noise for a screen reader and a translation to keep.
            field.widget.attrs.pop("placeholder", None)


class LoginForm(Relabelled, allauth_forms.LoginForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        by_email = "email" in settings.ACCOUNT_LOGIN_METHODS
        self.labels = {
            "login": _("Username or e-mail address") if by_email else _("Username"),
            "password": _("Password"),
            "remember": _("Keep me signed in on this device"),
        }
        super().__init__(*args, **kwargs)
        if "login" not in self.data and "username" in self.data:
            self.data = self.data.copy()
            self.data["login"] = self.data["username"]


NEW_PASSWORD = {"password1": _("New password"), "password2": _("New password (again)")}
CONFIRM_HELP = _("We send a link to confirm it; it is never shown to others.")


class SignupForm(Relabelled, allauth_forms.SignupForm):
    labels = {"email": _("E-mail address"), "username": _("Username"),
              "password1": _("Password"), "password2": _("Password (again)")}
    help_texts = {
        "email": CONFIRM_HELP,
        "username": _("Shown as the uploader of your games. Letters, digits and "
                      "@ . + - _ only."),
        "password1": PASSWORD_HELP,
    }


class ResetPasswordForm(Relabelled, allauth_forms.ResetPasswordForm):
    labels = {"email": _("E-mail address")}


class ResetPasswordKeyForm(Relabelled, allauth_forms.ResetPasswordKeyForm):
    labels, help_texts = NEW_PASSWORD, {"password1": PASSWORD_HELP}


class ChangePasswordForm(Relabelled, allauth_forms.ChangePasswordForm):
    labels = {"oldpassword": _("Current password"), **NEW_PASSWORD}
    help_texts = {"password1": PASSWORD_HELP}


class AddEmailForm(Relabelled, allauth_forms.AddEmailForm):
    labels, help_texts = {"email": _("E-mail address")}, {"email": CONFIRM_HELP}


class ReauthenticateForm(Relabelled, allauth_forms.ReauthenticateForm):
    labels = {"password": _("Password")}


class SetPasswordForm(Relabelled, allauth_forms.SetPasswordForm):
    labels, help_texts = NEW_PASSWORD, {"password1": PASSWORD_HELP}
