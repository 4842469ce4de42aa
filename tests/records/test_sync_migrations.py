"""records.0012 and 0013: the keys of DRF's one-token table become hashed tokens that keep
working (the table of clear keys dropped), and a stored game's `updated_at` starts as its last
validation."""

from __future__ import annotations

import datetime
import importlib
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from records.models import Game
from records.tokens import ApiToken, find_token
import fourcolor
from fourcolor.generate import generate_record
from records.services import import_records

pytestmark = pytest.mark.django_db

tokens = importlib.import_module("records.migrations.0012_api_tokens")
updated = importlib.import_module("records.migrations.0013_game_updated_at")
KEY = "0123456789abcdef0123456789abcdef01234567"


def editor() -> SimpleNamespace:
    return SimpleNamespace(connection=connection,
                           execute=lambda sql: connection.cursor().execute(sql))


def test_it_keeps_the_old_keys_working_and_drops_them(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("old")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created timestamp with time zone, user_id integer)"
                       if connection.vendor == "postgresql" else
                       "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created datetime, user_id integer)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)",
                       [KEY, datetime.datetime(2025, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
                        if connection.vendor == "postgresql" else "2025-01-02 03:04:05",
                        user.pk])

    tokens.copy_old_keys(apps, editor())

    token = find_token(KEY)
    assert token is not None
    assert (token.user, token.name, token.scope, token.last_four) == (user, "token", "write",
                                                                      "4567")
    assert token.created == datetime.datetime(2025, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    assert "authtoken_token" not in connection.introspection.table_names()


def test_it_does_nothing_without_the_old_table() -> None:
    tokens.copy_old_keys(apps, editor())
    assert not ApiToken.objects.exists()


def test_it_dates_each_games_change_from_its_validation() -> None:
    records = [fourcolor.write_fcn(generate_record("classic", 4, seed)) for seed in (1, 2)]
    assert import_records("\n".join(records)).stored == 2
    stamp = timezone.now() - datetime.timedelta(days=3)
    Game.objects.update(validated_at=stamp, updated_at=timezone.now())

    updated.from_validation(apps, editor())

    assert set(Game.objects.values_list("updated_at", flat=True)) == {stamp}
