"""The archive's web pages (server-rendered; replay.js only makes stepping instant).

One module per page: archive, replay (with the downloads), upload, players, matches.
"""
