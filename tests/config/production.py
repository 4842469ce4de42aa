"""Run Python or manage.py in a fresh interpreter under a chosen environment.

Settings are read once per process, so each environment needs its own interpreter. The
project's own variables are removed from the inherited environment first, so that what the
developer or CI has exported does not leak into the case.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
OURS = frozenset({
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "LOG_LEVEL", "LOG_FORMAT",
    "DB_CONN_MAX_AGE", "CSRF_TRUSTED_ORIGINS", "HTTPS", "BEHIND_HTTPS_PROXY", "REDIS_URL",
    "CELERY_BROKER_URL", "DATA_DIR",
    "DJANGO_SETTINGS_MODULE",
    # The browser tests set it for Playwright; `check --deploy` rightly refuses it (async.E001).
    "DJANGO_ALLOW_ASYNC_UNSAFE",
})


def production(**overrides: str) -> dict[str, str]:
    """What a production start needs at least, plus `overrides`."""
    return {
        "DEBUG": "false",
        # check --deploy wants 50+ characters, 5+ distinct ones, not "django-insecure-".
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "cards.example",
        **overrides,
    }


def run(args: list[str], **environ: str) -> subprocess.CompletedProcess[str]:
    """`python *args` in the repository with the project's variables set to `environ` only."""
    env = {key: value for key, value in os.environ.items() if key not in OURS}
    env.update(environ)
    return subprocess.run(
        [sys.executable, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True,
        timeout=120,
    )
