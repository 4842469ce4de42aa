"""`Game.on` and `GameSeat.won_on` name whose card ended the round: `self_draw` (the finisher
drew it), `draw` (another seat drew it) or `discard`; the stored rounds whose card came from a
draw are recomputed from their records.

The data step reads each such round's canonical text with the notation parser only: the card a
round's finishing meld takes is the live card of the last draw or discard before it (calls do
not change the live card), so whose draw it was is that event's seat. No rule is checked again.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import fourcolor

BATCH = 500
CHOICES = [("self_draw", "own draw"), ("draw", "another player’s draw"), ("discard", "discard")]


def finishing_source(text: str, finisher: int, outcome: str) -> str | None:
    """self_draw, draw or discard for the card of the finisher's finishing meld or win."""
    events = fourcolor.parse_record(text).events
    verb = "w" if outcome == "win" else "m"
    end = next(
        (i for i in range(len(events) - 1, -1, -1)
         if events[i].seat == finisher and events[i].verb == verb),
        None,
    )
    if end is None:
        return None
    for event in reversed(events[:end]):
        if event.verb == "x":
            return "discard"
        if event.verb == "d":
            return "self_draw" if event.seat == finisher else "draw"
    return None


def _alias(schema_editor: Any) -> str:
    """The database being migrated (`migrate --database`), not the default one (the tests call
    the steps without a schema editor: then the default)."""
    return schema_editor.connection.alias if schema_editor is not None else "default"


def split_draws(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("records", "Game")
    GameSeat = apps.get_model("records", "GameSeat")
    db = _alias(schema_editor)
    rows = (
        Game.objects.using(db).filter(on="draw", finisher__isnull=False)
        .order_by("pk")
        .values_list("pk", "canonical_text", "finisher", "outcome")
    )
    own: list[int] = []
    for pk, text, finisher, outcome in rows.iterator(chunk_size=BATCH):
        try:
            source = finishing_source(text, finisher, outcome)
        except fourcolor.FcnError:
            continue  # a stale game: `manage.py revalidate --update` rewrites its fields
        if source == "self_draw":
            own.append(pk)
    for start in range(0, len(own), BATCH):
        ids = own[start:start + BATCH]
        Game.objects.using(db).filter(pk__in=ids).update(on="self_draw")
        GameSeat.objects.using(db).filter(game_id__in=ids, won=True).update(won_on="self_draw")


def merge_draws(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("records", "Game")
    GameSeat = apps.get_model("records", "GameSeat")
    db = _alias(schema_editor)
    Game.objects.using(db).filter(on="self_draw").update(on="draw")
    GameSeat.objects.using(db).filter(won_on="self_draw").update(won_on="draw")


class Migration(migrations.Migration):

    dependencies = [
        ("records", "0003_auditentry"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="on",
            field=models.CharField(blank=True, choices=CHOICES, max_length=16, null=True, verbose_name="won on"),
        ),
        migrations.AlterField(
            model_name="gameseat",
            name="won_on",
            field=models.CharField(blank=True, choices=CHOICES, max_length=16, null=True, verbose_name="won on"),
        ),
        migrations.RunPython(split_draws, merge_draws, elidable=False),
    ]
