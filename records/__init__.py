"""The archive: players, games, matches, the import service and its commands (no HTML: the
pages are the web app)."""
