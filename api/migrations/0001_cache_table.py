"""The database cache's table (CACHES in config/settings.py), which holds the API's rate-limit
counters when there is no REDIS_URL. Made here rather than by `manage.py createcachetable` so
that `migrate` alone sets up a database: `make run`, the README's production steps and the
tests all run it. Made whatever the cache in use, so switching Redis off later just works."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations

TABLE = "fourcolor_cache"


def create(apps: Any, schema_editor: Any) -> None:
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, TABLE, dry_run=False)


def drop(apps: Any, schema_editor: Any) -> None:
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies: list[tuple[str, str]] = []
    operations = [migrations.RunPython(create, drop)]
