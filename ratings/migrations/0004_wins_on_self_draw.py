"""Wins on one's own draw get a counter of their own: `wins_on_draw` now counts wins
on another seat's draw only. Both are recounted for every stored total from the seats, which
records.0004 recomputed, at each total's roll-up level (ruleset "" and players 0 mean any)."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def recount(apps: Any, schema_editor: Any) -> None:
    quote = schema_editor.connection.ops.quote_name
    totals = quote(apps.get_model("ratings", "PlayerTotals")._meta.db_table)
    counted = quote(apps.get_model("ratings", "CountedGame")._meta.db_table)
    seats = quote(apps.get_model("records", "GameSeat")._meta.db_table)
    games = quote(apps.get_model("records", "Game")._meta.db_table)

    def wins_on(value: str) -> str:
        return (
            f"(SELECT COUNT(*) FROM {seats} s JOIN {games} g ON g.id = s.game_id "
            f"JOIN {counted} c ON c.game_id = g.id "
            f"WHERE s.player_id = {totals}.player_id AND s.won AND s.won_on = '{value}' "
            f"AND ({totals}.ruleset = '' OR g.ruleset = {totals}.ruleset) "
            f"AND ({totals}.players = 0 OR g.players = {totals}.players))"
        )

    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {totals} SET wins_on_self_draw = {wins_on('self_draw')}, "
            f"wins_on_draw = {wins_on('draw')}"
        )


def merge(apps: Any, schema_editor: Any) -> None:
    PlayerTotals = apps.get_model("ratings", "PlayerTotals")
    PlayerTotals.objects.using(schema_editor.connection.alias).update(
        wins_on_draw=models.F("wins_on_draw") + models.F("wins_on_self_draw")
    )


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0003_fk_indexes_covered"),
        ("records", "0004_won_on_whose_card"),
    ]

    operations = [
        migrations.AddField(
            model_name="playertotals",
            name="wins_on_self_draw",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(recount, merge, elidable=False),
    ]
