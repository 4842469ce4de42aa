"""Game.updated_at: when the row last changed, for the API's `updated_since` (sync by change)."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import F


def from_validation(apps, schema_editor):
    """Until now a game changed only when it was stored or revalidated."""
    apps.get_model("records", "Game").objects.update(updated_at=F("validated_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('records', '0012_api_tokens'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='updated_at',
            field=models.DateTimeField(default=django.utils.timezone.now, verbose_name='updated'),
        ),
        migrations.RunPython(from_validation, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['updated_at'], name='game_updated_at'),
        ),
    ]
