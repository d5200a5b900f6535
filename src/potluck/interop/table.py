"""What every adapter shares: one game at one table size, as numbers.

A :class:`NumericTable` fixes a game, its player count and options, and turns
the engine's verbs into arrays: observation vectors (from each seat's view),
action masks over the game's integer action space, and end-of-game rewards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.registry import load_game
from potluck.engine.state import State
from potluck.engine.text import slugify

#: An observation vector or mask as handed to learning code.
FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat.

    >>> agent_name(2)
    'player_2'
    """
    return f"player_{seat}"


def camel_name(game_id: str) -> str:
    """A game's id as a Gymnasium name: ``cafe-carnage`` -> ``CafeCarnage``.

    >>> camel_name("belle-of-the-ball")
    'BelleOfTheBall'
    """
    return "".join(word.capitalize() for word in slugify(game_id).split("-"))


class NumericTable:
    """One game at one table size and options, seen as arrays.

    >>> table = NumericTable("cafe-carnage", 4)
    >>> state = table.new_state(seed=1)
    >>> table.observation(state, 0).shape == (table.observation_size,)
    True
    >>> int(table.action_mask(state, 0).sum()) == len(table.game.legal_actions(state, 0))
    True
    """

    def __init__(
        self,
        game: str | Game[Any, Any],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game: Game[Any, Any] = load_game(game) if isinstance(game, str) else game
        self.num_players = self.game.min_players if num_players is None else num_players
        # new_game checks the player count and the options, with its clear errors.
        probe = self.game.new_game(self.num_players, 0, options)
        self.options: dict[str, Any] = dict(probe.options)
        self.encoding = self.game.observation_encoding(self.num_players, self.options)
        self.observation_size = self.encoding.size
        self.low = np.asarray(self.encoding.low, dtype=np.float32)
        self.high = np.asarray(self.encoding.high, dtype=np.float32)
        self.num_actions = self.game.num_distinct_actions(self.num_players, self.options)
        self.max_steps = self.game.max_steps(self.num_players)

    def __deepcopy__(self, memo: dict[int, Any]) -> NumericTable:
        # Fixed once made: deep copies of the environments and states holding it share it.
        return self

    def new_state(self, seed: int) -> State:
        state: State = self.game.new_game(self.num_players, seed, self.options)
        return state

    def observation(self, state: State, seat: int) -> FloatArray:
        """``seat``'s view as a float32 vector."""
        vector = self.game.encode_observation(state, seat, self.encoding)
        return np.asarray(vector, dtype=np.float32)

    def action_mask(self, state: State, seat: int) -> MaskArray:
        """1 for each action ``seat`` may take now, by integer code (all 0 if it need not act)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if seat in state.acting:
            for action in self.game.legal_actions(state, seat):
                mask[action.index] = 1
        return mask

    def action(self, state: State, seat: int, index: int) -> Action:
        """The action with code ``index`` (``InvalidActionError`` for a code outside the space)."""
        action: Action = self.game.action_from_index(state, seat, int(index))
        return action

    def why_illegal(self, state: State, seat: int, index: int) -> str | None:
        """``None`` if ``seat`` may take action ``index`` now, else why not."""
        if not 0 <= int(index) < self.num_actions:
            return f"action {index} is outside the action space 0..{self.num_actions - 1}"
        try:
            action = self.action(state, seat, index)
        except PotluckError as error:
            return str(error)
        return self.game.explain(state, seat, action)

    def rewards(self, state: State) -> list[float]:
        """Each seat's share of the win: ``1/k`` for each of ``k`` winners, 0 for the others."""
        if not self.game.is_over(state):
            return [0.0] * self.num_players
        return list(self.game.outcome(state).win_shares())

    def ansi(self, state: State, seat: int | None) -> str:
        """The view of ``seat`` (``None``: a spectator) drawn as ANSI text by the CLI's renderer."""
        import io

        from rich.console import Console
        from rich.pretty import Pretty

        from potluck.renderers import renderer_for

        view = self.game.view(state, seat)
        renderer = renderer_for(self.game.id)
        buffer = io.StringIO()
        console = Console(file=buffer, width=100, force_terminal=True, color_system="standard")
        console.print(renderer(view) if renderer is not None else Pretty(view))
        return buffer.getvalue()
