"""config/settings.py read in a fresh interpreter under various environments.

Each case imports the settings module in a subprocess, because settings are read once per
process and a refused configuration must stop the import itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
_OURS = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "LOG_LEVEL",
    "DB_CONN_MAX_AGE",
    "CSRF_TRUSTED_ORIGINS",
    "DATA_DIR",
)
_REPORT = """
import json
from config import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "debug": s.DEBUG, "secret_key": s.SECRET_KEY, "allowed_hosts": s.ALLOWED_HOSTS,
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "staticfiles": s.STORAGES["staticfiles"]["BACKEND"], "static_root": str(s.STATIC_ROOT),
}))
"""


def _load(**overrides: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key not in _OURS}
    environ.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", _REPORT],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _settings(**overrides: str) -> dict[str, object]:
    result = _load(**overrides)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout)
    return loaded


def _refusal(**overrides: str) -> str:
    result = _load(**overrides)
    assert result.returncode != 0, result.stdout
    assert "ImproperlyConfigured" in result.stderr
    return result.stderr


def test_it_runs_in_development_with_no_environment_at_all() -> None:
    loaded = _settings()

    assert loaded["debug"] is True
    assert loaded["secret_key"]
    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["name"] == str(BASE_DIR / "var" / "fourcolor.sqlite3")
    assert "127.0.0.1" in loaded["allowed_hosts"]  # type: ignore[operator]


def test_it_keeps_its_run_time_files_in_the_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    loaded = _settings(DATA_DIR=str(data))

    assert loaded["name"] == str(data / "fourcolor.sqlite3")
    assert loaded["static_root"] == str(data / "static")
    assert (data / "static").is_dir()


def test_it_refuses_to_start_in_production_without_a_secret_key() -> None:
    assert "SECRET_KEY must be set" in _refusal(DEBUG="false", ALLOWED_HOSTS="cards.example")


def test_it_refuses_to_start_in_production_without_allowed_hosts() -> None:
    assert "ALLOWED_HOSTS must be set" in _refusal(DEBUG="false", SECRET_KEY="s" * 50)


def test_it_starts_in_production_when_configured() -> None:
    loaded = _settings(DEBUG="false", SECRET_KEY="k" * 50, ALLOWED_HOSTS="a.example,b.example")

    assert loaded["debug"] is False
    assert loaded["secret_key"] == "k" * 50
    assert loaded["allowed_hosts"] == ["a.example", "b.example"]
    assert loaded["staticfiles"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_it_reads_a_postgresql_database_url() -> None:
    loaded = _settings(DATABASE_URL="postgres://someone@db.example:5433/archive")

    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["name"] == "archive"
    assert loaded["host"] == "db.example"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG='maybe' is not a boolean"),
        ("DATABASE_URL", "nosuchdb://x/y", "DATABASE_URL='nosuchdb://x/y' is not usable"),
        ("DB_CONN_MAX_AGE", "ten", "DB_CONN_MAX_AGE='ten' is not an integer"),
        ("EMAIL_HOST", "mail.example", "EMAIL_HOST is no longer read: use EMAIL_URL"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL='LOUD' is not a logging level"),
        ("ALLOWED_HOSTS", "a.example,,b.example", "ALLOWED_HOSTS='a.example,,b.example' has an"),
    ],
)
def test_it_refuses_values_it_cannot_read(variable: str, value: str, message: str) -> None:
    assert message in _refusal(**{variable: value})
