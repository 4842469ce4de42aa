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
