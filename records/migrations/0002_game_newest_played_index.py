"""An index for the archive's default order: newest played first (date DESC NULLS LAST,
uploaded_at DESC NULLS LAST, id DESC), so a page of the list reads only its own rows.

Django's Index cannot express this on both databases: PostgreSQL needs NULLS LAST spelled out
to match the query, and SQLite refuses NULLS LAST in an index but already sorts NULLs last in a
DESC index. So the SQL is chosen per database.
"""

from django.db import migrations

POSTGRESQL = (
    "CREATE INDEX IF NOT EXISTS game_newest_played ON records_game "
    "(date DESC NULLS LAST, uploaded_at DESC NULLS LAST, id DESC)"
)
SQLITE = (
    "CREATE INDEX IF NOT EXISTS game_newest_played ON records_game "
    "(date DESC, uploaded_at DESC, id DESC)"
)


def create(apps, schema_editor):
    sql = POSTGRESQL if schema_editor.connection.vendor == "postgresql" else SQLITE
    schema_editor.execute(sql)


def drop(apps, schema_editor):
    schema_editor.execute("DROP INDEX IF EXISTS game_newest_played")


class Migration(migrations.Migration):
    dependencies = [("records", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
