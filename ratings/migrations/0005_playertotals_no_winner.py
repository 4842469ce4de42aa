"""`PlayerTotals.no_winner`: the player's counted rounds that ended without a winner (exhausted,
redealt or unfinished), which the player page's outcome bar counted from every seat of the
player's history on each visit (176 ms at a million rounds, docs/performance.md). Counted here
for every stored total from the seats of the counted games, at each total's roll-up level
(ruleset "" and players 0 mean any), as `ratings.totals` counts it after.

PostgreSQL: one UPDATE ... FROM an aggregate over the grouping sets of the four levels (one
pass over the seats of such rounds). SQLite: a correlated count per total (as migration 0004).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

NO_WINNER = "('exhausted', 'redeal', 'unfinished')"


def recount(apps: Any, schema_editor: Any) -> None:
    quote = schema_editor.connection.ops.quote_name
    totals = quote(apps.get_model("ratings", "PlayerTotals")._meta.db_table)
    counted = quote(apps.get_model("ratings", "CountedGame")._meta.db_table)
    seats = quote(apps.get_model("records", "GameSeat")._meta.db_table)
    games = quote(apps.get_model("records", "Game")._meta.db_table)
    rounds = (
        f"FROM {seats} s JOIN {games} g ON g.id = s.game_id "
        f"JOIN {counted} c ON c.game_id = g.id WHERE g.outcome IN {NO_WINNER}"
    )
    if schema_editor.connection.vendor == "postgresql":
        sets = (
            "(s.player_id, g.ruleset, g.players), (s.player_id, g.ruleset), "
            "(s.player_id, g.players), (s.player_id)"
        )
        sql = (
            f"UPDATE {totals} t SET no_winner = x.n FROM ("
            "SELECT s.player_id, COALESCE(g.ruleset, '') AS ruleset, "
            "COALESCE(g.players, 0) AS players, COUNT(DISTINCT s.game_id) AS n "
            f"{rounds} GROUP BY GROUPING SETS ({sets})) x "
            "WHERE t.player_id = x.player_id AND t.ruleset = x.ruleset AND t.players = x.players"
        )
    else:
        sql = (
            f"UPDATE {totals} SET no_winner = (SELECT COUNT(DISTINCT s.game_id) {rounds} "
            f"AND s.player_id = {totals}.player_id "
            f"AND ({totals}.ruleset = '' OR g.ruleset = {totals}.ruleset) "
            f"AND ({totals}.players = 0 OR g.players = {totals}.players))"
        )
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0004_wins_on_self_draw"),
        ("records", "0006_game_most_points_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="playertotals",
            name="no_winner",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(recount, migrations.RunPython.noop),
    ]
