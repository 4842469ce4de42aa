"""The wheel installs: built from the sources, installed (not editable) into a fresh virtual
environment, the site passes `manage.py check --deploy`, serves a page in production (templates,
static files and translations included) and runs its job worker, without the repository on the
path, its run-time files in DATA_DIR and none inside the installed package.

No network: the wheel is built with the development environment's setuptools, and the new
environment reuses the development environment's installed dependencies (a .pth file), the
way `--system-site-packages` reuses the system's; the project itself comes only from the wheel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.config.production import BASE_DIR, OURS, production

pytestmark = pytest.mark.slow

# What the wheel is built from: the sources as a checkout has them (no .venv, var, caches).
LEFT_OUT = shutil.ignore_patterns(".git", ".venv", "var", "build", "dist", "*.egg-info",
                                  "__pycache__", ".*_cache", ".hypothesis", "node_modules")

# Run in the installed environment, from a folder outside the repository.
RENDER = """
import json, os
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from django.test import Client
import config, web

client = Client()
page = client.get("/", HTTP_HOST="cards.example", secure=True, HTTP_ACCEPT_LANGUAGE="vi")
html = page.content.decode()
links = [part.split('"')[0] for part in html.split('href="')[1:]]
css = next(link for link in links if link.startswith("/static/") and link.endswith(".css"))
style = client.get(css, HTTP_HOST="cards.example", secure=True)
print(json.dumps({
    "modules": [config.__file__, web.__file__],
    "status": page.status_code, "html": html, "css": css, "css_status": style.status_code,
}))
"""


# The command the server's job-worker pool runs, run as the pool runs it, once.
WORKER = """
import subprocess, sys
from jobs.supervisor import ROOT, worker_command
sys.exit(subprocess.run(worker_command("--until-empty"), cwd=ROOT).returncode)
"""


def _environ(**environ: str) -> dict[str, str]:
    """This process's environment without the project's variables and PYTHONPATH, plus
    `environ`."""
    env = {key: value for key, value in os.environ.items() if key not in OURS}
    env.pop("PYTHONPATH", None)
    env.update(environ)
    return env


def _run(python: Path, args: list[str], cwd: Path, **environ: str) -> str:
    done = subprocess.run([str(python), *args], cwd=cwd, env=_environ(**environ),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_it_installs_from_the_wheel_and_serves_a_page(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(BASE_DIR, source, ignore=LEFT_OUT)
    _run(Path(sys.executable), ["-m", "pip", "wheel", "--quiet", "--no-deps",
                                "--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"),
                                str(source)], tmp_path)
    [wheel] = (tmp_path / "dist").glob("fourcolor-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(_run(python, ["-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     tmp_path).strip())
    # The dependencies: the development environment's packages, after the new environment's own.
    (site / "development-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(Path(sys.executable), ["-m", "pip", "--python", str(python), "install", "--quiet",
                                "--no-deps", "--no-index", str(wheel)], tmp_path)

    # A folder of its own, with only manage.py: nothing else of the repository is importable.
    work = tmp_path / "site"
    work.mkdir()
    shutil.copy(BASE_DIR / "manage.py", work)
    # The installed package has no place to write to: without DATA_DIR it refuses to start.
    refused = subprocess.run([str(python), "manage.py", "check"], cwd=work, capture_output=True,
                             text=True, timeout=600, env=_environ(**production()))
    assert refused.returncode != 0 and "DATA_DIR must be set" in refused.stderr, refused.stderr
    data = tmp_path / "data"
    environ = production(DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", DATA_DIR=str(data))
    checked = _run(python, ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], work,
                   **environ)
    assert "no issues" in checked
    _run(python, ["manage.py", "migrate", "--noinput", "-v", "0"], work, **environ)
    # The production storage (hashed names, a manifest) without precompressing the vendors'
    # scripts: brotli at its best quality over Swagger UI's and Redoc's bundles is 17 of the
    # test's 30 s of CPU, and WhiteNoise serves a file the same with or without its .br copy.
    (work / "uncompressed.py").write_text(
        "from config.settings import *  # noqa: F403\n"
        "WHITENOISE_SKIP_COMPRESS_EXTENSIONS = ['js', 'css', 'map', 'svg', 'txt', 'html']\n")
    _run(python, ["manage.py", "collectstatic", "--noinput", "-v", "0"], work,
         **environ, DJANGO_SETTINGS_MODULE="uncompressed")
    answer = json.loads(_run(python, ["-c", RENDER], work, **environ).splitlines()[-1])
    # The job workers gunicorn starts beside the server run from the wheel too (no manage.py).
    _run(python, ["-c", WORKER], work, **environ)

    assert all(Path(module).is_relative_to(site) for module in answer["modules"])
    assert answer["status"] == 200
    assert '<html lang="vi"' in answer["html"] and "Tải lên" in answer["html"]  # "Upload"
    # Collected from the wheel's static files: hashed name, served by WhiteNoise.
    assert re.fullmatch(r"/static/css/\w+\.[0-9a-f]{12}\.css", answer["css"]), answer["css"]
    assert answer["css_status"] == 200
    # Run-time files in DATA_DIR, none inside the installed package.
    assert (data / "static" / "staticfiles.json").is_file()
    assert not (site / "var").exists()
