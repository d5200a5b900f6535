"""Learned value functions: each seat's chance of winning, read from the seats' observations.

A :class:`ValueModel` is fitted to finished self-play games
(``potluck.search.training``, in the ``lab`` extra) and shipped as a small JSON
file in ``potluck/search/models``; evaluating it needs nothing but Python. It
reads a position only through the game's observation encoding of a seat's own
view (``Game.encode_observation``), so it can never use what that seat cannot
see: its score for seat ``q`` is a function of ``q``'s observation alone.

Two ways to use it:

- In a search, on a world drawn from the searching seat's information set
  (``ismcts:cutoff=model``): :meth:`ValueModel.world_chances` scores every seat
  by its own observation of that world and turns the scores into win chances
  (a conditional logit: ``exp(u_q) / sum_j exp(u_j)``).
- From one seat's information set (move analysis): :func:`win_chances` averages
  :meth:`world_chances` over worlds drawn from it, so it uses only what the seat
  knows, and gives every seat's chance of winning (summing to 1).

    >>> import random, potluck
    >>> from potluck.search.information import InformationSet
    >>> game = potluck.load_game("cafe-carnage")
    >>> model = load_model(game, 4)
    >>> state = game.new_game(4, seed=5)
    >>> chances = win_chances(game, InformationSet(game, state, 0), random.Random(1), worlds=8)
    >>> round(sum(chances), 6), len(chances)
    (1.0, 4)
"""

from __future__ import annotations

import json
import math
import operator
import random
from collections.abc import Sequence
from importlib import resources
from typing import Any

from potluck.engine.errors import DataError, PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.forest import Forest, forest_chances, logit_chances
from potluck.search.forest import derived_features as derived_features
from potluck.search.information import InformationSet

#: The format of a model file; a file of another version is refused.
FORMAT = 1


def player_blocks(game: Game[Any, Any], num_players: int) -> list[tuple[int, int]]:
    """The encoding's per-player blocks (one number a seat, observer first) that
    :func:`derived_features` compares."""
    encoding = game.observation_encoding(num_players)
    return [
        (encoding.starts[f.name], f.size)
        for f in encoding.features
        if f.size == num_players and num_players > 1 and f.name not in _NOT_SCORES
    ]


#: Per-player blocks that are not amounts (who is to act, last night's winners...).
_NOT_SCORES = frozenset({"winners", "waiting_for", "acting", "turn", "start_player", "order"})


class ValueModel:
    """A fitted score per seat: ``u = bias + w . x`` on the seat's observation ``x`` (with
    :func:`derived_features`), or a sum of regression trees over it.

    Built by :func:`load_model` from a model file; ``score`` is the logit of the
    seat's chance to win, and :meth:`world_chances` normalises the seats' scores
    into chances.
    """

    def __init__(self, game: Game[Any, Any], num_players: int, data: dict[str, Any]) -> None:
        if data.get("format") != FORMAT:
            raise DataError(f"value model: format {data.get('format')!r}, expected {FORMAT}")
        if data.get("game") != game.id or data.get("players") != num_players:
            raise DataError(
                f"value model is for {data.get('game')} at {data.get('players')} players, "
                f"not {game.id} at {num_players}"
            )
        self.game = game
        self.num_players = num_players
        self.encoding = game.observation_encoding(num_players)
        self.blocks = player_blocks(game, num_players)
        size = self.encoding.size + 2 * len(self.blocks)
        if data.get("inputs") != size:
            raise DataError(
                f"value model for {game.id} reads {data.get('inputs')} inputs; its observation "
                f"encoding now gives {size}: retrain it (docs/bots.md, 'Learned values')"
            )
        self.kind = str(data.get("kind"))
        self.fit: dict[str, Any] = dict(data.get("fit", {}))
        if self.kind == "linear":
            weights = [float(w) for w in data["weights"]]
            if len(weights) != size or not all(math.isfinite(w) for w in weights):
                raise DataError(f"value model for {game.id}: weights must be {size} finite numbers")
            self.bias = float(data["bias"])
            self.weights = weights
            self.trees: list[Any] = []
        elif self.kind == "trees":
            self.bias = float(data["bias"])
            self.weights = []
            self.trees = list(data["trees"])
        else:
            raise DataError(f"value model kind {self.kind!r} is not linear or trees")
        self._forest: Forest | None = None

    def inputs(self, world: State, seat: int) -> list[float]:
        """What the model reads for ``seat``: its observation encoding, plus the leads."""
        vector = self.game.encode_observation(world, seat, self.encoding)
        return vector + derived_features(vector, self.blocks)

    def score(self, inputs: Sequence[float]) -> float:
        """The logit of the seat's chance of winning, from :meth:`inputs`."""
        if self.kind == "linear":
            linear: float = self.bias + sum(map(operator.mul, self.weights, inputs))
            return linear
        return self.forest().score(inputs)

    def forest(self) -> Forest:
        """The trees as flat arrays (``forest.py``, compiled), built on first use; a model
        whose ``trees`` are set after it was made (``training.evaluate``) builds its own."""
        forest = getattr(self, "_forest", None)
        if forest is None:
            forest = self._forest = Forest(self.bias, self.trees)
        return forest

    def world_chances(self, world: State) -> list[float]:
        """Every seat's chance of winning ``world``, each scored on its own observation."""
        if not world.acting:
            outcome = self.game.outcome(world)
            return list(outcome.win_shares())
        if self.kind == "trees":  # the whole of it compiled (``forest.forest_chances``)
            return forest_chances(self.game, world, self.encoding, self.blocks, self.forest())
        return logit_chances(
            [self.score(self.inputs(world, seat)) for seat in range(world.num_players)]
        )


_LOADED: dict[tuple[str, int], ValueModel] = {}


def model_path(game_id: str, num_players: int) -> str:
    """The file name of a game's model at a table size, in ``potluck/search/models``."""
    return f"{game_id}-{num_players}p.json"


def has_model(game: Game[Any, Any], num_players: int) -> bool:
    """Whether a model is shipped for ``game`` at ``num_players`` seats."""
    name = model_path(game.id, num_players)
    return resources.files("potluck.search.models").joinpath(name).is_file()


def load_model(game: Game[Any, Any], num_players: int) -> ValueModel:
    """The shipped model for ``game`` at ``num_players`` seats (read once, then kept).

    ``PotluckError`` if none is shipped; ``DataError`` if the file is broken or was
    fitted to another encoding.
    """
    key = (game.id, num_players)
    found = _LOADED.get(key)
    if found is not None and found.game is game:
        return found
    if not has_model(game, num_players):
        raise PotluckError(
            f"no value model for {game.title} at {num_players} players "
            "(python -m potluck.search.training makes one)"
        )
    name = model_path(game.id, num_players)
    text = resources.files("potluck.search.models").joinpath(name).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(f"value model {name} is not JSON: {error}") from None
    model = _LOADED[key] = ValueModel(game, num_players, data)
    return model


def win_chances(
    game: Game[Any, Any], info: InformationSet, rng: random.Random, worlds: int = 32
) -> list[float]:
    """Every seat's chance of winning, as one seat may judge it: the model's chances
    averaged over ``worlds`` worlds drawn from that seat's information set."""
    first = info.sample(rng)
    model = load_model(game, first.num_players)
    totals = model.world_chances(first)
    for _ in range(worlds - 1):
        for seat, chance in enumerate(model.world_chances(info.sample(rng))):
            totals[seat] += chance
    return [t / worlds for t in totals]
