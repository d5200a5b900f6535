"""4) Calculate Current Score: what a board is worth, and the counts its buildings give.

A board's victory points are its publicity space + its basic restaurant spaces +
its specialty diners + its upscale bistros; only the active player's scoring
marker moves, at the end of their building (ruling BJ-9); reaching 12 VP ends the game
at once (``end.win_at_once``).

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2)
    >>> points(game, state, 0), capacity(game, state, 0), tokens_on_board(game, state, 0)
    (2, 2, 3)
"""

from __future__ import annotations

from potluck.games.burger_joint.state import BurgerState
from potluck.games.burger_joint.tables import BurgerTables


def capacity(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """Production capacity: one per specialty diner and upscale bistro owned."""
    nc, nb = tables.num_colours, tables.num_bistros
    diners, bistros = state.diners, state.bistros
    owned = 0
    for at in range(seat * nc, seat * nc + nc):
        owned += diners[at]
    for at in range(seat * nb, seat * nb + nb):
        owned += bistros[at]
    return owned


def tokens_on_board(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """Development tokens on ``seat``'s board: basic restaurants, diners and bistros."""
    return state.basics[seat] + capacity(tables, state, seat)


def points(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """Calculate Current Score: publicity + basic restaurants + diners + bistros."""
    side = tables.sides[seat]
    nc, nb = tables.num_colours, tables.num_bistros
    position = state.publicity[seat]
    total = side.publicity_points[position - 1] if position else 0
    total += side.basics_value[state.basics[seat]]
    diners = state.diners
    owned = 0
    for at in range(seat * nc, seat * nc + nc):
        owned += diners[at]
    total += side.diner_points * owned
    bistros = state.bistros
    for k in range(nb):
        if bistros[seat * nb + k]:
            total += side.bistro_points[k]
    return total


def score(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """Move the active ``seat``'s scoring marker to its board's VP, and return them."""
    reached = points(tables, state, seat)
    state.score[seat] = reached
    return reached
