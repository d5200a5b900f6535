"""The registry of games: built-in ones, plug-ins, and ones registered at run time."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from potluck.engine.data import DataSource
from potluck.engine.errors import UnknownGameError
from potluck.engine.game import Game

GameFactory = Callable[[DataSource], Game[Any, Any]]

#: Built-in games, imported on first use so that loading one game costs no other.
_BUILTIN: dict[str, str] = {
    "belle-of-the-ball": "potluck.games.belle_of_the_ball:BelleOfTheBall",
    "belly-battle": "potluck.games.belly_battle:BellyBattle",
    "burger-joint": "potluck.games.burger_joint:BurgerJoint",
    "cafe-carnage": "potluck.games.cafe_carnage:CafeCarnage",
    "food-advice": "potluck.games.food_advice:FoodAdvice",
}
_FACTORIES: dict[str, GameFactory] = {}
_CACHE: dict[str, Game[Any, Any]] = {}


def register(game_id: str, factory: GameFactory) -> None:
    """Make a game loadable by id; ``factory(data)`` builds it from its data source."""
    _FACTORIES[game_id] = factory
    _CACHE.pop(game_id, None)


def unregister(game_id: str) -> None:
    _FACTORIES.pop(game_id, None)
    _CACHE.pop(game_id, None)


def _plugins() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group="potluck.games")}


def list_games() -> list[str]:
    """Every game id that ``load_game`` accepts, sorted."""
    return sorted({*_BUILTIN, *_plugins(), *_FACTORIES})


def load_game(game_id: str, *, data: DataSource = None) -> Game[Any, Any]:
    """The game with this id, with its built-in data or the data given.

    >>> load_game("cafe-carnage").title
    'Café Carnage'
    """
    if data is None and game_id in _CACHE:
        return _CACHE[game_id]
    factory = _FACTORIES.get(game_id)
    if factory is None:
        target = _BUILTIN.get(game_id) or _plugins().get(game_id)
        if target is None:
            raise UnknownGameError(
                f"unknown game {game_id!r}; known games: {', '.join(list_games())}"
            )
        module_name, _, attribute = target.partition(":")
        factory = getattr(importlib.import_module(module_name), attribute)
    game = factory(data)
    if data is None:
        _CACHE[game_id] = game
    return game
