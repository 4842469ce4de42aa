"""Signals of the archive, for apps that keep data derived from the stored games.

The first two are sent once the game's transaction has committed (`transaction.on_commit`), so a
receiver always sees the game and its seats in the database.
"""

from __future__ import annotations

from django.dispatch import Signal

# A new game was stored by an import. Keyword arguments: game_id (int).
game_stored = Signal()
# `revalidate --update` rewrote a game's derived data and seats. Keyword arguments: game_id,
# former_player_ids (list[int]: the players seated before the rewrite). The statistics app
# takes the game out of its totals until its catch-up counts it again.
game_rewritten = Signal()
# A batch of games an import stored (sent every STATS_BATCH stored games and at the end of the
# import, outside the import's transactions). Keyword arguments: game_ids (list[int]), final
# (bool: False for all but the import's last batch, which may be empty; a receiver may leave
# costly work, such as a rating replay, to the final one). The statistics app counts and rates
# them here; a failing receiver never fails the import.
games_stored_batch = Signal()
# A game is about to be deleted (`records.deletion.delete_game`). Sent *inside* the deleting
# transaction, before any row goes, so a receiver still reads the game and its seats and its
# own writes commit or roll back with the deletion. Keyword arguments: game_id (int). A failing
# receiver fails the deletion: derived data is never left counting a game that is gone.
game_deleting = Signal()
# `seed_demo` has filled the archive with its demo games. Keyword arguments: seed (int). The
# apps above records add their part of the demo here (drafts: a demo user's drafts); a
# receiver returns a line for the command to print.
demo_seeded = Signal()
