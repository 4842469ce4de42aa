"""The upload moves from one `Job.payload` value into `JobChunk` rows (read and written a chunk
at a time); `Job.run_after` for the database-backed worker; the statistics job kind."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

CHUNK = 1024 * 1024


def split_payloads(apps: Any, schema_editor: Any) -> None:
    Job = apps.get_model("jobs", "Job")
    JobChunk = apps.get_model("jobs", "JobChunk")
    for pk in Job.objects.values_list("pk", flat=True).iterator():
        data = bytes(Job.objects.filter(pk=pk).values_list("payload", flat=True).get())
        JobChunk.objects.bulk_create(
            JobChunk(job_id=pk, number=n, data=data[start : start + CHUNK])
            for n, start in enumerate(range(0, len(data), CHUNK))
        )


def join_chunks(apps: Any, schema_editor: Any) -> None:
    Job = apps.get_model("jobs", "Job")
    JobChunk = apps.get_model("jobs", "JobChunk")
    for pk in Job.objects.values_list("pk", flat=True).iterator():
        parts = JobChunk.objects.filter(job_id=pk).order_by("number").values_list("data", flat=True)
        Job.objects.filter(pk=pk).update(payload=b"".join(bytes(p) for p in parts))


class Migration(migrations.Migration):

    dependencies = [
        ("jobs", "0002_analysis_kind"),
    ]

    operations = [
        migrations.CreateModel(
            name="JobChunk",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("number", models.PositiveIntegerField()),
                ("data", models.BinaryField()),
                ("job", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                          related_name="chunks", to="jobs.job")),
            ],
            options={"verbose_name": "upload chunk"},
        ),
        migrations.AddConstraint(
            model_name="jobchunk",
            constraint=models.UniqueConstraint(fields=("job", "number"), name="job_chunk_number"),
        ),
        migrations.RunPython(split_payloads, join_chunks),
        migrations.RemoveField(model_name="job", name="payload"),
        migrations.AddField(
            model_name="job",
            name="run_after",
            field=models.DateTimeField(blank=True, null=True, verbose_name="not before"),
        ),
        migrations.AlterField(
            model_name="job",
            name="kind",
            field=models.CharField(
                choices=[("import", "import"), ("revalidate", "revalidation"),
                         ("analysis", "analysis"), ("stats", "statistics")],
                max_length=16, verbose_name="kind",
            ),
        ),
    ]
