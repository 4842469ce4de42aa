"""allauth's adapter with the site's own messages (translated in locale/, every language)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.utils.translation import gettext_lazy as _


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        return [
            "web.accounts.stages.AddressVerificationStage"
            if stage == "allauth.account.stages.EmailVerificationStage" else stage
            for stage in super().get_login_stages()
        ]

    # Only the messages a visitor of this site's pages can meet (no phone numbers, no codes);
    # the others keep allauth's wording.
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "account_inactive": _("This account is switched off. Ask the site's staff."),
        "email_password_mismatch": _(
            "The e-mail address or the password is not right."
        ),
        "username_password_mismatch": _("The username or the password is not right."),
        "email_taken": _("An account already uses this e-mail address."),
        "enter_current_password": _("Type your current password."),
        "incorrect_password": _("That is not your current password."),
        "invalid_password_reset": _(
            "This password reset link is not valid any more; ask for a new one."
        ),
        "invalid_login": _("The username or the password is not right."),
        "rate_limited": _("Too many requests from here; wait a minute and try again."),
        "same_as_current": _("The new value must be different from the current one."),
        "username_blacklisted": _("This username cannot be used; choose another one."),
        "unverified_primary_email": _("Confirm your e-mail address first."),
        "cannot_remove_primary_email": _(
            "This is your primary address: make another one primary before removing it."),
        "duplicate_email": _("Your account has this address already."),
        "max_email_addresses": _("An account has at most %d e-mail addresses."),
    }
