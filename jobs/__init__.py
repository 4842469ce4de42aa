"""Background jobs: uploads, archive-wide revalidation and statistics, run by the database
worker (`manage.py run_jobs`, started with the web server) or by Celery workers when a broker
is configured, with progress stored in the database for the web and the API."""
