"""Every bot that can take a seat in a game: the game's own bots and the generic ones.

The game's bots (``game.bots()``, e.g. ``random`` and ``greedy``) live in the
rules core; generic bots that work on any game through the engine's public
contract (such as a search bot) live outside it and are listed here. Every
surface (command line, simulations, lab, server, adapters) builds its bots
through :func:`make_agent`, so a spec means the same thing everywhere.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> make_agent(game, "greedy").name
    'greedy'
    >>> sorted(agent_factories(game))[:2]
    ['greedy', 'random']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from potluck.engine.bots import Bot
from potluck.engine.botspec import BotSpec, build_bot
from potluck.engine.game import Game

#: Bots for every game, by name: each is built with its declared parameters only.
GENERIC_BOTS: dict[str, Callable[..., Bot]] = {}


def agent_factories(game: Game[Any, Any]) -> dict[str, Callable[..., Bot]]:
    """Every bot name ``game`` can seat, with the factory that builds it."""
    return {**GENERIC_BOTS, **game.bots()}


def make_agent(game: Game[Any, Any], spec: str | BotSpec) -> Bot:
    """The bot ``spec`` (``name`` or ``name:key=value,...``) names for ``game``.

    ``BotSpecError`` names the bots or the bot's parameters when the spec fits none.
    """
    bot: Bot = build_bot(agent_factories(game), spec, game.title)
    return bot
