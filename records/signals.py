"""Signals of the archive, for apps that keep data derived from the stored games.

Both are sent once the game's transaction has committed (`transaction.on_commit`), so a
receiver always sees the game and its seats in the database.
"""

from __future__ import annotations

from django.dispatch import Signal

# A new game was stored by an import. Keyword arguments: game_id (int).
game_stored = Signal()
# `revalidate --update` rewrote a game's derived data and seats. Keyword arguments: game_id.
game_rewritten = Signal()
# A batch of games an import stored (sent every STATS_BATCH stored games and at the end of the
# import, outside any per-record transaction). Keyword arguments: game_ids (list[int]). The
# statistics app counts and rates them here; a failing receiver never fails the import.
games_stored_batch = Signal()
