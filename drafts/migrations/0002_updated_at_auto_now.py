from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('drafts', '0001_draft'),
    ]

    operations = [
        migrations.AlterField(
            model_name='draft',
            name='updated_at',
            field=models.DateTimeField(auto_now=True),
        ),
    ]
