"""`manage.py issue_token USERNAME [--name NAME] [--scope read|write] [--create-user]`: make a
new API token for a user and print its key (the user's other tokens keep working).

Only a hash of each key is stored, so a key cannot be printed again: run the command once per
script, and revoke a token on the account page, through the API or in the admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from records.tokens import MAX_NAME, Scope, TooManyTokens, create_token


class Command(BaseCommand):
    help = "Make a new API token for a user, for a script, and print its key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line",
                            help='what the token is for (default "command line")')
        parser.add_argument("--scope", choices=list(Scope.values), default=Scope.WRITE,
                            help="read: GET only; write (default): reads and writes")
        parser.add_argument(
            "--create-user", action="store_true",
            help="create the user (without a usable password) when it does not exist",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username, name = options["username"], options["name"]
        if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise CommandError(f"--name: one line of 1 to {MAX_NAME} printable characters.")
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
        try:
            _token, key = create_token(user, name, options["scope"])
        except TooManyTokens as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(key)
