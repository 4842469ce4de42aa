"""A player's rounds newest played first: (player, date DESC NULLS LAST, game DESC) on the
seats, the order of the player page's net chart, so that its newest 1,000 rounds are the first
1,000 entries of the index (at a million rounds the chart joined a player's 125,601 seats to
their games: 269 ms, docs/performance.md).

Built concurrently on PostgreSQL (the migration is not atomic: uploads go on meanwhile);
SQLite writes NULLS LAST nowhere in an index but already sorts NULLs last in a DESC one (as
migrations 0002 and 0006).
"""

from django.db import migrations

POSTGRESQL = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS gameseat_player_newest ON records_gameseat "
    "(player_id, date DESC NULLS LAST, game_id DESC)"
)
SQLITE = (
    "CREATE INDEX IF NOT EXISTS gameseat_player_newest ON records_gameseat "
    "(player_id, date DESC, game_id DESC)"
)


def forwards(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    schema_editor.execute(POSTGRESQL if postgresql else SQLITE)


def backwards(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS gameseat_player_newest")


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("records", "0007_gameseat_date")]

    operations = [migrations.RunPython(forwards, backwards)]
