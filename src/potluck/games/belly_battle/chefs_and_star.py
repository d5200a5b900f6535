"""Chefs and Star: upgrading a restaurant with tokens bought from Mr. Munchwalla
(rulebook, Chefs and Star; rulings BB-1 and BB-2).

At most two chefs and one star per restaurant; the star needs the two chefs, which
stay. Tokens are bought in the upgrade window, while the supply lasts.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> card = s.owner.index(0)
    >>> hire_chef(g, s, 0, card); s.chefs[card], s.cash[0]
    (1, 950)
"""

from __future__ import annotations

from potluck.games.belly_battle.state import ST_CHEFS, ST_STARS, BellyState
from potluck.games.belly_battle.tables import BellyTables


def hire_chef(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """``seat`` buys a chef for ``card`` at the price on its card."""
    state.cash[seat] -= game.chef_price[card]
    state.bank_net += game.chef_price[card]
    state.chefs[card] += 1
    state.cards_changed()
    state.stats[ST_CHEFS] += 1
    state.say("Seat {} hires a chef at {}.", seat, game.names[card])


def add_star(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """``seat`` buys a star for ``card`` (which has its two chefs; they stay)."""
    state.cash[seat] -= game.star_price[card]
    state.bank_net += game.star_price[card]
    state.star[card] = 1
    state.cards_changed()
    state.stats[ST_STARS] += 1
    state.say("Seat {} earns a star for {}.", seat, game.names[card])
