"""Preparation: the boards' starting tokens, 2 VP each, the full bag; Burger goes first.

Burger (seat 0) starts with a basic restaurant and the black and yellow diners,
Pizza (seat 1) with a basic restaurant and the green and red diners (the board
data's ``start_basics`` and ``start_diners``); the first turn's production is
drawn at once.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = prepare(game, 2, 7, {"first_pick": "english", "turn_limit": 40})
    >>> state.score, state.turn, state.acting
    ([2, 2], 1, (0,))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.errors import OptionError
from potluck.games.burger_joint.production import FIRST_PICK_TEXTS, start_turn
from potluck.games.burger_joint.schema import MAX_TURN_LIMIT
from potluck.games.burger_joint.scoring import points
from potluck.games.burger_joint.state import DRAFT, NO_WINNER, BurgerState
from potluck.games.burger_joint.tables import BurgerTables


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse a ``turn_limit`` or ``first_pick`` the game does not know, with the reason."""
    limit = options["turn_limit"]
    if limit != 0 and not 2 <= limit <= MAX_TURN_LIMIT:
        raise OptionError(
            f"option 'turn_limit' is 0 (no limit) or 2 to {MAX_TURN_LIMIT} turns, not {limit}"
        )
    if options["first_pick"] not in FIRST_PICK_TEXTS:
        raise OptionError(
            f"option 'first_pick' is 'english' or 'german', not {options['first_pick']!r}"
        )


def prepare(
    tables: BurgerTables, num_players: int, seed: int, options: Mapping[str, Any]
) -> BurgerState:
    """A new game, its first production drawn (``options`` already checked)."""
    nc, nb = tables.num_colours, tables.num_bistros
    sides = tables.sides
    state = BurgerState(num_players, seed, options)
    state.active = 0
    state.phase = DRAFT
    state.turn = 0
    state.bag = [tables.cubes_per_colour] * nc
    state.cubes = [0] * (2 * nc)
    state.pool = [0] * nc
    state.owed = [0, 0]
    state.taken = [0, 0]
    state.basics = [side.start_basics for side in sides]
    state.diners = [*sides[0].start_diners, *sides[1].start_diners]
    state.bistros = [0] * (2 * nb)
    state.publicity = [0, 0]
    state.score = [points(tables, state, 0), points(tables, state, 1)]
    state.used = 0
    state.pub_buys = 0
    state.aside = [0] * nc
    state.winner = NO_WINNER
    start_turn(tables, state)
    return state
