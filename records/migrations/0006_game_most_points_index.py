"""The archive sorted by points, most first (points DESC NULLS LAST, id DESC), read from an index
that stops after a page: with the old index on (points) the order's NULLS LAST did not match and
a million games were sorted for each page (3.6 s, docs/performance.md). The new index also
serves the `min_points` filter, so it replaces the old one (one index more per stored game would
slow imports for nothing).

Built concurrently on PostgreSQL (the migration is not atomic), so that a live archive keeps
taking uploads while the index is built; SQLite writes NULLS LAST nowhere in an index but
already sorts NULLs last in a DESC one (as migration 0002).
"""

from django.db import migrations

POSTGRESQL = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS game_most_points ON records_game "
    "(points DESC NULLS LAST, id DESC)",
    "DROP INDEX CONCURRENTLY IF EXISTS game_points",
)
SQLITE = (
    "CREATE INDEX IF NOT EXISTS game_most_points ON records_game (points DESC, id DESC)",
    "DROP INDEX IF EXISTS game_points",
)


def forwards(apps, schema_editor):
    for sql in POSTGRESQL if schema_editor.connection.vendor == "postgresql" else SQLITE:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    schema_editor.execute(
        f"CREATE INDEX {concurrently}IF NOT EXISTS game_points ON records_game (points)"
    )
    schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS game_most_points")


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("records", "0005_game_analysis")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.RemoveIndex(model_name="game", name="game_points")],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
    ]
