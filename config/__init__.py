"""Project configuration: settings, URLs, WSGI/ASGI entry points and the Celery app."""

from config.celery import app as celery_app

# Loaded with Django so that `@shared_task`s bind to this app (and its broker settings) in web
# processes too, not only in `celery -A config worker`.
__all__ = ("celery_app",)
