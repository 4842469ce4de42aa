"""What every app's requests share, at the bottom of the layers (no app of this project is
imported here): the client's address behind proxies (`proxies`), the rate limits' hit counters
in Django's cache (`cache`), and the answer when the database is unreachable (`unavailable`)."""
