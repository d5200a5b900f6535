"""The names of the bots the search package adds to a game's own, in a module that
imports nothing, so that naming a bot (``potluck.agents`` lists them for every game)
does not import the game whose bot it is.

    >>> THRIFTY_NAME in ("greedy-thrifty",) and "belly-battle" in THRIFTY_GAMES
    True
"""

from __future__ import annotations

#: The greedy bot with tuned weights (``potluck.search.presets``).
TUNED_NAME = "greedy-tuned"

#: The greedy bot with the sales it leaves out (``potluck.search.thrifty``).
THRIFTY_NAME = "greedy-thrifty"

#: The games that have a ``greedy-thrifty`` bot: ``potluck.search.thrifty.THRIFTY_BOTS``'s
#: keys (a test holds the two equal), known here without importing those games.
THRIFTY_GAMES = frozenset({"belly-battle"})

__all__ = ["THRIFTY_GAMES", "THRIFTY_NAME", "TUNED_NAME"]
