"""`GameSeat.date`: the game's date on each of its seats, so that a player's newest rounds are
read from the seats alone (the player page's net chart, docs/performance.md "A million
rounds"). Derived data: filled here from the games, written with each seat after, compared by
`revalidate` (and rewritten by `revalidate --update`).

The backfill is one statement on each database: an UPDATE ... FROM on PostgreSQL (a join, not
a subquery per seat), a correlated subquery on SQLite (whose UPDATE ... FROM needs 3.33).
"""

from django.db import migrations, models

POSTGRESQL = (
    "UPDATE records_gameseat s SET date = g.date FROM records_game g "
    "WHERE g.id = s.game_id AND g.date IS NOT NULL"
)
OTHERS = (
    "UPDATE records_gameseat SET date = "
    "(SELECT g.date FROM records_game g WHERE g.id = records_gameseat.game_id)"
)


def backfill(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(POSTGRESQL if postgresql else OTHERS)


class Migration(migrations.Migration):
    dependencies = [("records", "0006_game_most_points_index")]

    operations = [
        migrations.AddField(
            model_name="gameseat",
            name="date",
            field=models.DateField(blank=True, null=True, verbose_name="date"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
