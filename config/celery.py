"""The Celery application: background jobs (large uploads, archive-wide revalidation).

Start a worker on any machine that reaches the database and the broker:

    CELERY_BROKER_URL=redis://127.0.0.1:6379/0 DATABASE_URL=postgres://... \\
        celery -A config worker -l info

Every setting comes from Django's settings under the `CELERY_` prefix (config/settings.py,
block "Background jobs"). Without CELERY_BROKER_URL the tasks run in-process (eager), so the
embedded SQLite setup needs no broker and no worker.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("fourcolor")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds jobs/tasks.py (and any other installed app's tasks module).
app.autodiscover_tasks()
