"""Named bots built from a game's own: ``greedy-tuned``, the greedy bot with tuned weights.

Each game's greedy bot has hand-set weights (its ``greedy`` spec keeps them). The
weights here were found by Optuna (``examples/tune_greedy.py``: one tuned seat
against three default greedy bots on deals that no strength run uses; docs/bots.md,
"Tuned greedy bots"), and ``greedy-tuned`` starts from them; a spec's own
parameters still override them (``greedy-tuned:split_chance=0.5``). The search bot
can follow either (``ismcts:guide=greedy-tuned``).

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> factory = tuned_greedy(game)
    >>> factory is not None and factory().name
    'greedy-tuned'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.botspec import BotParam, bot_params
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.search.bot_names import THRIFTY_GAMES, THRIFTY_NAME, TUNED_NAME

#: The tuned weights of each game's greedy bot, as spec text.
TUNED_GREEDY: dict[str, dict[str, str]] = {
    # 17 Optuna trials of 800 deals (seeds 40000-40799); checked on deals 45000-46999:
    # 0.313 [0.293, 0.333] against the default weights' 0.243 in the same seats.
    "cafe-carnage": {
        "prior_weight": "24.5893",
        "run_chance_many": "0.7774",
        "split_chance": "0.7748",
        "main_share": "0.5208",
    },
    # A sweep of the one weight that the Optuna runs lacked (the keep's price, 5 to 100 on
    # deals 144000-147999; 10 to 100 all within a point of each other), chosen at 20 on
    # deals 140000-141999 and checked on 142000-143999: 0.3545 [0.334, 0.376] against the
    # default weights' 0.261 in the same seats (docs/bots.md, "FoodAdvice's greedy bot
    # keeping dearer products").
    "food-advice": {"price_weight": "20"},
}


class TunedGreedy:
    """A factory: the game's greedy bot, its parameters defaulting to the tuned weights."""

    def __init__(self, base: Callable[..., Bot], weights: Mapping[str, str]) -> None:
        self.base = base
        declared = {param.name: param for param in bot_params(base)}
        self.weights = {name: declared[name].parse(text) for name, text in weights.items()}
        self.params: tuple[BotParam, ...] = tuple(
            replace(param, default=self.weights[param.name])
            if param.name in self.weights
            else param
            for param in declared.values()
        )
        listing = ", ".join(f"{k}={v}" for k, v in weights.items())
        self.__doc__ = f"The greedy bot with tuned weights ({listing})."

    def __call__(self, **values: Any) -> Bot:
        bot = self.base(**{**self.weights, **values})
        bot.name = TUNED_NAME
        return bot


def tuned_greedy(game: Game[Any, Any]) -> TunedGreedy | None:
    """The factory of ``game``'s tuned greedy bot, or ``None`` if it has none."""
    base = game.bots().get("greedy")
    weights = TUNED_GREEDY.get(game.id)
    if base is None or weights is None:
        return None
    return TunedGreedy(base, weights)


def thrifty_greedy(game: Game[Any, Any]) -> Callable[..., Bot] | None:
    """The factory of ``game``'s ``greedy-thrifty`` bot (``potluck.search.thrifty``), or
    ``None`` if it has none."""
    if game.id not in THRIFTY_GAMES:
        return None
    # Imported here: the bot's module imports its game, which listing the names of
    # every game's bots (potluck.agents) should not.
    from potluck.search.thrifty import THRIFTY_BOTS

    return THRIFTY_BOTS[game.id]


def board_filter(
    game: Game[Any, Any],
) -> Callable[[Sequence[Action], Action | None], list[Action]] | None:
    """``ismcts:focus=board``'s filter of the root's moves for ``game``
    (``potluck.search.thrifty.BOARD_MOVES``), or ``None`` if it has none."""
    if game.id not in THRIFTY_GAMES:
        return None
    from potluck.search.thrifty import BOARD_MOVES

    return BOARD_MOVES.get(game.id)


def guide_factory(game: Game[Any, Any], name: str) -> Callable[..., Bot] | None:
    """The bot a search follows for its prior and greedy rollouts: ``greedy``,
    ``greedy-tuned`` or ``greedy-thrifty`` (``None`` when the game has no such bot),
    with the weights a spec's ``name:key=value,...`` gives (``ismcts:guide_reserve``).

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> guide_factory(game, "greedy-thrifty:reserve=0")().greedy.weights.reserve
        0
    """
    if ":" in name:
        base, _, given = name.partition(":")
        factory = guide_factory(game, base)
        if factory is None:
            return None
        declared = {param.name: param for param in bot_params(factory)}
        values: dict[str, Any] = {}
        for pair in given.split(","):
            key, _, text = pair.partition("=")
            if key not in declared:
                raise PotluckError(f"the guide {base} has no weight {key!r}")
            values[key] = declared[key].parse(text)
        return partial(factory, **values)
    if name == TUNED_NAME:
        return tuned_greedy(game)
    if name == THRIFTY_NAME:
        return thrifty_greedy(game)
    return game.bots().get(name)


__all__ = [
    "TUNED_GREEDY",
    "TUNED_NAME",
    "TunedGreedy",
    "board_filter",
    "guide_factory",
    "thrifty_greedy",
    "tuned_greedy",
]
