"""Game.switches: the house variant a record names (its Switches tag, canonical), filled for the
games already stored from the tags they keep."""

from django.db import migrations, models


def fill(apps, schema_editor):  # type: ignore[no-untyped-def]
    from records.variants import canonical_switches

    Game = apps.get_model("records", "Game")
    for game in Game.objects.filter(tags__has_key="Switches").only("id", "tags").iterator():
        Game.objects.filter(pk=game.pk).update(
            switches=canonical_switches(game.tags.get("Switches"))
        )


class Migration(migrations.Migration):
    dependencies = [("records", "0010_one_game_per_round")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="switches",
            field=models.CharField(
                blank=True, default="", max_length=200, verbose_name="switches",
                help_text="the house variant the record names (its Switches tag, canonical); "
                "empty for the ruleset as shipped",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
