"""*Setup*: decks shuffled, $30 each, a full hand of action cards, guards on duty.

>>> import potluck
>>> game = potluck.load_game("cafe-carnage")
>>> state = new_table(game, 4, seed=7, options={"no_repeat_dishes": False})
>>> state.money, state.hands[:3], guards(4)
([30, 30, 30, 30], [2, 2, 1], 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.games.cafe_carnage.orders import deal
from potluck.games.cafe_carnage.state import (
    NO_CARD,
    NO_DISH,
    STARTER,
    STARTING_HAND,
    CafeState,
)
from potluck.games.cafe_carnage.tables import CafeTables


def guards(num_players: int) -> int:
    """Security Guard tokens on duty (ruling CC-2): 1 at four players, 2 at five or six.

    >>> [guards(n) for n in (4, 5, 6)]
    [1, 2, 2]
    """
    return 1 if num_players <= 4 else 2


def new_table(
    game: CafeTables, num_players: int, seed: int, options: Mapping[str, Any]
) -> CafeState:
    """The table before the first night, with everyone's starter menu dealt."""
    state = CafeState(num_players, seed, options)
    state.round = 0
    state.phase = STARTER
    state.decks = [list(deck) for deck in game.full_decks]
    state.discards = [[], [], []]
    state.consumed = [[], [], []]
    state.menus = [()] * num_players
    state.orders = [NO_DISH] * (3 * num_players)
    state.ballots = [NO_CARD] * num_players
    state.hands = list(STARTING_HAND) * num_players
    state.money = [game.budget] * num_players
    state.points = [0] * num_players
    state.iou = [False] * num_players
    state.fled = [False] * num_players
    state.eaten = [0] * num_players
    state.log = ()
    deal(game, state, STARTER)
    return state
