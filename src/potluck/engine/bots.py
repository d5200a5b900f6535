"""Bots: the players the engine supplies. They choose from what their seat may see."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from potluck.engine.action import Action

#: The ``Game`` a bot plays. Typed loosely on purpose: ``potluck.engine.game`` imports
#: this module (for ``RandomBot``), so this one must not import it back; a game's own
#: bots annotate the parameter with their game's class.
AnyGame = Any


class Bot(Protocol):
    """A policy for one seat.

    ``choose`` receives the seat's view (``None`` when ``needs_view`` is false,
    which spares building it), the legal actions and a generator for the bot's
    own randomness. It never sees the state.
    """

    name: str
    needs_view: bool

    def choose(
        self,
        game: AnyGame,
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions.

    >>> import potluck, random
    >>> g = potluck.load_game("cafe-carnage")
    >>> s = g.new_game(4, seed=1)
    >>> bot = RandomBot()
    >>> a = bot.choose(g, None, 0, g.legal_actions(s, 0), random.Random(0))
    >>> a in g.legal_actions(s, 0)
    True
    """

    name = "random"
    needs_view = False

    def choose(
        self,
        game: AnyGame,
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        return legal[int(rng.random() * len(legal))]
