"""Which sign-ins must first confirm an e-mail address.

With mail (ACCOUNT_EMAIL_VERIFICATION "mandatory"), an account signed up with an address
cannot sign in until it is confirmed. Accounts that never gave one (made by staff with
`createsuperuser` or the admin, or signed up while this site sent no mail) have nothing to
confirm, and allauth would otherwise stop them at the confirmation page forever.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage


class AddressVerificationStage(EmailVerificationStage):
    def handle(self) -> tuple[Any, bool]:
        login = self.login
        if not login.signup and not EmailAddress.objects.filter(user=login.user).exists():
            return None, True
        result: tuple[Any, bool] = super().handle()
        return result
