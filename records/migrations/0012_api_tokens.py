"""API tokens of our own (records.tokens): several per user, named and scoped, stored as hashes.

The keys of DRF's one-token-per-user table, when it exists, become tokens named "token" that
read and write, so that scripts keep working; that table, which held the keys in clear, is then
dropped.
"""

import django.db.models.deletion
from django.conf import settings
import datetime
import hashlib

from django.db import migrations, models

OLD_TABLE = "authtoken_token"


def copy_old_keys(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("records", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TABLE}")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        if getattr(created, "tzinfo", "") is None:  # SQLite keeps UTC without its zone
            created = created.replace(tzinfo=datetime.timezone.utc)
        token = ApiToken.objects.create(
            user_id=user_id, name="token", scope="write",
            key_digest=hashlib.sha256(key.encode()).hexdigest(), last_four=key[-4:],
        )
        ApiToken.objects.filter(pk=token.pk).update(created=created)
    schema_editor.execute(f"DROP TABLE {OLD_TABLE}")


class Migration(migrations.Migration):

    dependencies = [
        ('records', '0011_game_switches'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, verbose_name='name')),
                ('scope', models.CharField(choices=[('read', 'read'), ('write', 'read and write')], default='write', max_length=5, verbose_name='scope')),
                ('key_digest', models.CharField(max_length=64, unique=True, verbose_name='key (SHA-256)')),
                ('last_four', models.CharField(max_length=4, verbose_name='last four characters')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'API token',
                'verbose_name_plural': 'API tokens',
                'ordering': ['-created', '-id'],
            },
        ),
        migrations.RunPython(copy_old_keys, migrations.RunPython.noop),
    ]
