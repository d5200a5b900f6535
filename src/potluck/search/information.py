"""What one seat knows at a decision: the input of every search bot.

A search bot never holds the true state: it gets an :class:`InformationSet`,
which shows the seat's view and draws *worlds* (whole states the seat cannot
tell from the true one) through the game's ``redeal``. This module is the one
both ``potluck.agents`` (which builds information sets for ``decide``) and the
search bots (which read them) import, so neither imports the other.

    >>> import random, potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> info = InformationSet(game, game.new_game(4, seed=1), seat=2)
    >>> world = info.sample(random.Random(0))
    >>> game.view(world, 2) == info.view()
    True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State


class InformationSet:
    """What one seat knows at a decision, and a way to draw worlds consistent with it.

    A search bot gets this instead of the state: :meth:`sample` draws a whole
    game state that the seat cannot tell from the true one (the game's
    ``redeal``: hidden cards, other seats' sealed choices and future chance all
    drawn anew from ``rng``). The true state stays private to this object; the
    conformance suite checks that a bot's choice depends only on the seat's
    information, by asking it again on a redealt state.
    """

    __slots__ = ("_game", "_state", "seat")

    def __init__(self, game: Game[Any, Any], state: State, seat: int) -> None:
        self._game = game
        self._state = state
        self.seat = seat

    @property
    def num_players(self) -> int:
        """How many seats the game has (public to every seat)."""
        return self._state.num_players

    @property
    def moves(self) -> int:
        """How many actions the game has had so far (public: every seat sees whose
        turn it is and who has sealed a choice, never what another seat chose)."""
        return len(self._state.history)

    def view(self) -> dict[str, Any]:
        """The seat's view (what ``Game.view`` shows it)."""
        return self._game.view(self._state, self.seat)

    def sample(self, rng: random.Random) -> State:
        """A world consistent with the seat's information, drawn from ``rng``."""
        world: State = self._game.redeal(self._state, self.seat, rng)
        return world

    def samples_after(self, move: Action, count: int, seed: str) -> list[State]:
        """``count`` worlds drawn by :meth:`sample` (the ``k``-th from
        ``random.Random(f"{seed}:{k}")``) with the seat's ``move`` played in each; a
        world where ``move`` is not legal is left out. What a seat keeps of a decision
        to read the other seats' next moves against (the opponent model, the belief).

            >>> import potluck
            >>> game = potluck.load_game("cafe-carnage")
            >>> info = InformationSet(game, game.new_game(4, seed=2), 0)
            >>> move = game.legal_actions(game.new_game(4, seed=2), 0)[0]
            >>> [w.history[-1] == (0, move) for w in info.samples_after(move, 3, "doc")]
            [True, True, True]
        """
        game, seat = self._game, self.seat
        kept: list[State] = []
        for number in range(count):
            world = self.sample(random.Random(f"{seed}:{number}"))
            mine = next((a for a in game.legal_actions(world, seat) if a == move), None)
            if mine is None:
                continue
            game.step_legal(world, seat, mine)
            kept.append(world)
        return kept


class DecidesFromInformationSets:
    """The ``choose`` of a search bot, which refuses: a search bot decides in its
    ``search`` from its seat's information set, which ``potluck.agents.decide`` hands
    it, never from a view. Search bots (``ismcts``, ``improve``, ``openspiel-ismcts``)
    inherit it, so each says the same thing the same way."""

    name: str

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        raise PotluckError(
            f"{self.name} decides from worlds drawn from its seat's information set: ask it "
            "through potluck.agents.decide, which hands it one"
        )
