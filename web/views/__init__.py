"""The archive's web pages (server-rendered; replay.js only makes stepping instant).

One module per page: archive, replay (with the downloads), upload, job, players, matches,
account, game_delete.
"""
