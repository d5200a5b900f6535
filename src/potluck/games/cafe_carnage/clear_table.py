"""Step 6 of a round, *Clear the Table (End of Round)*: cards back, the next night begins.

Menu cards nobody chose go back into their decks; eaten dishes leave the game
(until a deck runs dry: ruling CC-4, in orders.py). The Round Marker moves up;
after the fifth night the game is over (end.py tallies it).
"""

from __future__ import annotations

from potluck.games.cafe_carnage.orders import deal
from potluck.games.cafe_carnage.state import NO_CARD, NO_DISH, OVER, STARTER, CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def clear_table(game: CafeTables, state: CafeState) -> None:
    """Unchosen cards go back into the decks, eaten dishes leave the game; next round."""
    n, orders, eaten = state.num_players, state.orders, state.eaten
    for course in range(3):
        state.decks[course] += state.discards[course]
        state.discards[course] = []
        eaten_now = state.consumed[course]
        for s in range(n):  # each seat's dish of the course, seats in order
            eaten_now.append(orders[3 * s + course])
    for s in range(n):
        eaten[s] |= (1 << orders[3 * s]) | (1 << orders[3 * s + 1]) | (1 << orders[3 * s + 2])
    state.orders = [NO_DISH] * (3 * n)
    state.ballots = [NO_CARD] * n
    state.round += 1
    if state.round >= game.rounds:
        state.phase = OVER
        state.acting = ()
        state.choices = [((), 0)] * n
    else:
        state.phase = STARTER
        deal(game, state, STARTER)
