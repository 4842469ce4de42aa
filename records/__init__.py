"""The archive: players, games, matches, the import service and the web pages."""
