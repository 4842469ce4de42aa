"""WSGI entry point, e.g. `gunicorn config.wsgi -b 127.0.0.1:8000 -w 3`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
