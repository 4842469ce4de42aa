"""Background jobs: large uploads and archive-wide revalidation, run by Celery workers (or
in-process without a broker), with progress stored in the database for the web and the API."""
