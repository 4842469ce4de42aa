"""`manage.py issue_token USERNAME [--rotate] [--create-user]`: print a user's API token.

Without --rotate, an existing token is printed as it is (running the command twice gives the
same key); with it, a new key replaces the old one, which stops working at once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token

from api.views.auth import rotate_token


class Command(BaseCommand):
    help = "Print (creating it if needed) the API token of a user, for scripts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--rotate", action="store_true", help="replace the existing token with a new one"
        )
        parser.add_argument(
            "--create-user", action="store_true",
            help="create the user (without a usable password) when it does not exist",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"]
        lookup = {User.USERNAME_FIELD: username}
        try:
            user = User.objects.get(**lookup)
        except User.DoesNotExist:
            if not options["create_user"]:
                raise CommandError(
                    f"No user {username!r}. Create one with createsuperuser, or pass "
                    "--create-user."
                ) from None
            user = User(**lookup)
            user.set_unusable_password()
            user.save()
            self.stderr.write(f"created user {username!r}")
        if not user.is_active:
            raise CommandError(f"The user {username!r} is inactive: a token would not work.")
        if options["rotate"]:
            token = rotate_token(user)
        else:
            token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
