"""OpenSpiel games for every Potluck game: importing this module registers them.

    >>> import pyspiel
    >>> import potluck.interop.openspiel
    >>> game = pyspiel.load_game("potluck_cafe_carnage(players=5)")
    >>> game.num_players()
    5
    >>> state = game.new_initial_state()
    >>> state.current_player()
    0
    >>> len(state.observation_tensor(0)) == game.observation_tensor_size()
    True

Each game is named ``potluck_<id>`` with dashes as underscores and takes the
parameters ``players``, ``seed`` and the game's own options (for example
``potluck_belly_battle(players=3,max_rounds=20)``).

How a Potluck game maps onto OpenSpiel's model (``docs/interop.md``):

- **Turns** are sequential: when the game waits for several seats at once (a
  sealed simultaneous choice), the lowest of them is the current player, then
  the next. The others cannot see the choice: observations come from views.
- **Chance** is sampled (``SAMPLED_STOCHASTIC``): shuffles and dice are drawn
  inside a move from the state's own seeded generator, which ``clone()`` copies.
  Each ``new_initial_state()`` is a new deal, drawn from the ``seed``
  parameter's sequence of deals when the state is first used (a move, a query
  or an observation). The states pyspiel makes and throws away when it clones
  draw none, so a program sees the same deals however much its algorithms
  clone. (C++ code that asks for the tensor size, as pyspiel's own
  ``observation_tensor`` does, makes and observes a new state, which draws one;
  the Python methods of these classes answer without.)
  ``resample_from_infostate`` redeals what a seat cannot see (``Game.redeal``),
  which is what ISMCTS needs.
- **Utility** is constant-sum: the winners share 1 (``1/k`` each for ``k``
  winners), the others get 0, all at the end.
- **Observations**: the tensor is the game's fixed-size encoding of the seat's
  view (``docs/games/<id>.md``); the string is the view as JSON. The information
  state string adds the seat's own past actions to its view. That is not a
  transcript of every past view: it recalls what the view keeps, which is a
  public log in Café Carnage, Belly Battle and FoodAdvice, and only the current
  position in Belle of the Ball and Burger Joint. A public observer
  (``private_info=NONE``) gives a spectator's view as a string, with no tensor.
- **Saving**: ``state.serialize()`` and ``game.deserialize_state()`` work;
  ``pyspiel.serialize_game_and_state`` does not (for sampled chance it asks the
  game for an RNG state, which Python games cannot give).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.registry import list_games, load_game
from potluck.engine.state import State
from potluck.interop.table import NumericTable

__all__ = ["PotluckGame", "PotluckState", "game_name", "register_games"]


def game_name(game_id: str) -> str:
    """The OpenSpiel name of a Potluck game.

    >>> game_name("belle-of-the-ball")
    'potluck_belle_of_the_ball'
    """
    return "potluck_" + game_id.replace("-", "_")


def _game_type(game: Game[Any, Any]) -> Any:
    parameters: dict[str, Any] = {"players": game.min_players, "seed": 0}
    for name, option in game.options.items():
        parameters[name] = option.default
    return pyspiel.GameType(
        short_name=game_name(game.id),
        long_name=f"Potluck {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=_smallest_table(game),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _smallest_table(game: Game[Any, Any]) -> int:
    # A game may seat fewer players with an option (FoodAdvice's small_table).
    for n in range(1, game.min_players):
        options = {k: True for k, o in game.options.items() if o.type is bool}
        try:
            game.new_game(n, 0, options)
        except PotluckError:
            continue
        return n
    return game.min_players


class PotluckGame(pyspiel.Game):  # type: ignore[misc]
    """One Potluck game as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    def __init__(self, game: Game[Any, Any], params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        num_players = int(params.get("players", game.min_players))
        options = {name: params[name] for name in game.options if name in params}
        self.table = NumericTable(game, num_players, options)
        self._deals = random.Random(int(params.get("seed", 0)))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=0,
            num_players=num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.table.max_steps,
        )
        super().__init__(_game_type(game), info, params)

    def new_initial_state(self) -> PotluckState:
        """A new deal, drawn from the ``seed`` parameter's sequence of deals when first used."""
        return PotluckState(self)

    def observation_tensor_shape(self) -> list[int]:
        """``[size]`` of the observation vector (pyspiel's own would deal a game to find it)."""
        return [self.table.observation_size]

    def observation_tensor_size(self) -> int:
        return int(self.table.observation_size)

    def deal(self) -> State:
        """The next deal of the ``seed`` parameter's sequence, as an engine state."""
        return self.table.new_state(self._deals.getrandbits(62))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> PotluckObserver:
        """The observer for ``iig_obs_type`` (``None``: the default, one seat's observation).

        Supported: a seat's own view (``private_info=SINGLE_PLAYER``), with or
        without perfect recall, and the public view (``private_info=NONE``,
        strings only). ``ValueError`` for the others.
        """
        if isinstance(iig_obs_type, Mapping):  # pyspiel passes only the parameters
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"Potluck observers take no parameters, not {dict(params)}")
        if iig_obs_type is None:
            return PotluckObserver(self.table, perfect_recall=False, private=True)
        if not iig_obs_type.public_info:
            raise ValueError("Potluck observers always include public information")
        private = iig_obs_type.private_info
        if private not in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE):
            raise ValueError(f"Potluck observers do not offer private_info={private}")
        return PotluckObserver(
            self.table,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )


class PotluckState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state."""

    def __init__(self, game: PotluckGame, state: State | None = None) -> None:
        super().__init__(game)
        self.table = game.table
        self._deal = _Deal(state) if state is not None else _Deal(dealer=game.deal)

    @property
    def engine_state(self) -> State:
        """The engine state this wraps (dealt on first use)."""
        return self._deal.state

    @engine_state.setter
    def engine_state(self, state: State) -> None:
        self._deal = _Deal(state)

    def current_player(self) -> int:
        acting = self.engine_state.acting
        return int(acting[0]) if acting else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        state = self.engine_state
        if player not in state.acting:
            return []
        return sorted(action.index for action in self.table.game.legal_actions(state, player))

    def _apply_action(self, action: int) -> None:
        state = self.engine_state
        seat = state.acting[0]
        self.table.game.step(state, seat, self.table.action(state, seat, action))

    def _action_to_string(self, player: int, action: int) -> str:
        seat = player if player >= 0 else 0
        return str(self.table.action(self.engine_state, seat, action))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation vector (default: the current player's).

        The same values as pyspiel's own method, which C++ code still calls; that one
        first asks the game for the tensor's size, and pyspiel finds it by dealing a
        new game and observing it, every time.
        """
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.table.num_players:
            raise ValueError(f"no player {player} at this {self.table.num_players}-player table")
        vector: list[float] = self.table.observation(self.engine_state, player).tolist()
        return vector

    def is_terminal(self) -> bool:
        return self.table.game.is_over(self.engine_state)

    def returns(self) -> list[float]:
        return self.table.rewards(self.engine_state)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PotluckState:
        """A state ``player_id`` cannot tell from this one, hidden cards redealt."""
        rng = random.Random(int(probability_sampler() * 2**53))
        redealt = self.table.game.redeal(self.engine_state, player_id, rng)
        twin: PotluckState = self.clone()  # keeps pyspiel's own record of the history
        twin.engine_state = redealt
        return twin

    def __str__(self) -> str:
        return json.dumps(self.table.game.view(self.engine_state, None), sort_keys=True)


class _Deal:
    """A :class:`PotluckState`'s engine state, dealt when first needed.

    pyspiel clones a Python state by making a new initial state and setting a deep
    copy of each of the original's attributes on it. Dealing lazily keeps that
    throwaway initial state from drawing a deal (and building a game) at all;
    copying deals the original first, so a clone of a fresh state is the same deal.
    """

    __slots__ = ("_dealer", "_state")

    def __init__(self, state: State | None = None, dealer: Callable[[], State] | None = None):
        self._state = state
        self._dealer = dealer

    @property
    def state(self) -> State:
        if self._state is None:
            assert self._dealer is not None
            self._state, self._dealer = self._dealer(), None
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return _Deal(self.state.clone())

    def __getstate__(self) -> tuple[State, None]:  # for state.serialize()
        return (self.state, None)

    def __setstate__(self, data: tuple[State, None]) -> None:
        self._state, self._dealer = data


class PotluckObserver:
    """OpenSpiel's observer protocol: a tensor and strings, from one seat's view.

    ``dict`` holds the whole vector as ``"observation"``; ``features`` holds a view of
    each named feature of the encoding (``docs/games/<id>.md``). ``private=False``
    is the public observer: a spectator's view as a string and no tensor (the
    encodings lay out one seat's view).
    """

    def __init__(self, table: NumericTable, perfect_recall: bool, private: bool = True) -> None:
        self.table = table
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        self.features: dict[str, Any] = {}
        if private:
            self.tensor = np.zeros(table.observation_size, np.float32)
            # One entry: pyspiel copies the dict entry by entry into each C++ tensor.
            self.dict = {"observation": self.tensor}
            self.features = {
                feature.name: self.tensor[table.encoding.slice(feature.name)]
                for feature in table.encoding.features
            }

    def set_from(self, state: PotluckState, player: int) -> None:
        if self.private:
            self.tensor[:] = self.table.observation(state.engine_state, player)

    def string_from(self, state: PotluckState, player: int) -> str:
        engine_state = state.engine_state
        seat = player if self.private else None
        view = json.dumps(self.table.game.view(engine_state, seat), sort_keys=True)
        if not (self.perfect_recall and self.private):
            return view
        mine = [str(action) for seat, action in engine_state.history if seat == player]
        return view + " | my actions: " + " ".join(mine)


def _game_class(game: Game[Any, Any]) -> type[PotluckGame]:
    """A class per game, as pyspiel registers classes (it builds them from parameters)."""

    def init(self: PotluckGame, params: Mapping[str, Any] | None = None) -> None:
        PotluckGame.__init__(self, game, params)

    name = "".join(word.capitalize() for word in game.id.split("-")) + "SpielGame"
    return type(name, (PotluckGame,), {"__init__": init, "__module__": __name__})


def register_games() -> list[str]:
    """Register every installed Potluck game with pyspiel (done on import); returns the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_id in list_games():
        game = load_game(game_id)
        name = game_name(game_id)
        if name not in registered:
            pyspiel.register_game(_game_type(game), _game_class(game))
        names.append(name)
    return names


register_games()
