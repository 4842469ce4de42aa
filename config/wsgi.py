"""WSGI entry point, e.g. `gunicorn config.wsgi -b 127.0.0.1:8000 -w 3`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.collector import install_if_enabled  # noqa: E402 (needs the settings above)

# The cyclic garbage collector between requests, not in them (config/collector.py).
install_if_enabled()
