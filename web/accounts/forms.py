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


def relabel(form: forms.Form, labels: dict[str, Any], help_texts: dict[str, Any]) -> None:
    for name, field in form.fields.items():
        if name in labels:
            field.label = labels[name]
        field.help_text = help_texts.get(name, "")
        # A label above every box says what goes in it; a placeholder repeating it in
        # English is noise for a screen reader and a translation to keep.
        field.widget.attrs.pop("placeholder", None)


class LoginForm(allauth_forms.LoginForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        data = kwargs.get("data", args[0] if args else None)
        if data is not None and "login" not in data and "username" in data:
            data = data.copy()
            data["login"] = data["username"]
            if args:
                args = (data, *args[1:])
            else:
                kwargs["data"] = data
        super().__init__(*args, **kwargs)
        by_email = "email" in settings.ACCOUNT_LOGIN_METHODS
        relabel(self, {
            "login": _("Username or e-mail address") if by_email else _("Username"),
            "password": _("Password"),
            "remember": _("Keep me signed in on this device"),
        }, {})


class SignupForm(allauth_forms.SignupForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {
            "email": _("E-mail address"),
            "username": _("Username"),
            "password1": _("Password"),
            "password2": _("Password (again)"),
        }, {
            "email": _("We send a link to confirm it; it is never shown to others."),
            "username": _("Shown as the uploader of your games. Letters, digits and "
                          "@ . + - _ only."),
            "password1": PASSWORD_HELP,
        })


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {"email": _("E-mail address")}, {})


class ResetPasswordKeyForm(allauth_forms.ResetPasswordKeyForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {
            "password1": _("New password"), "password2": _("New password (again)"),
        }, {"password1": PASSWORD_HELP})


class ChangePasswordForm(allauth_forms.ChangePasswordForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {
            "oldpassword": _("Current password"),
            "password1": _("New password"), "password2": _("New password (again)"),
        }, {"password1": PASSWORD_HELP})


class AddEmailForm(allauth_forms.AddEmailForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {"email": _("E-mail address")},
                {"email": _("We send a link to confirm it; it is never shown to others.")})


class ReauthenticateForm(allauth_forms.ReauthenticateForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {"password": _("Password")}, {})


class SetPasswordForm(allauth_forms.SetPasswordForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        relabel(self, {"password1": _("New password"), "password2": _("New password (again)")},
                {"password1": PASSWORD_HELP})
