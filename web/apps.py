from django.apps import AppConfig


class WebConfig(AppConfig):
    # No models: the HTML pages over records, ratings and jobs, which never import this app
    # (the API is its sibling). No verbose name either, since the admin never lists it.
    name = "web"
