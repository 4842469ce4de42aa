"""The REST API (Django REST framework) over the records app's services."""
