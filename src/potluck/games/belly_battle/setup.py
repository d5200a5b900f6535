"""Setup: the table before the first roll (rulebook, Setup and Game Play; rulings
BB-7 and BB-27).

Each player gets the starting money, one restaurant dealt at random (free) and one
secret Munchtime card; Mr. Munchwalla keeps everything else. Seat 0 goes first.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = new_table(g, 3, 1, {"max_rounds": 60})
    >>> [len([c for c in s.owner if c == seat]) for seat in range(3)], len(s.munch)
    ([1, 1, 1], 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.chance import sample
from potluck.engine.errors import OptionError, PotluckError
from potluck.games.belly_battle.ownership import gain
from potluck.games.belly_battle.state import (
    AFTER_WINDOW,
    BANK,
    NO_OFFER,
    NOBODY,
    STAT_NAMES,
    WINDOW,
    BellyState,
)
from potluck.games.belly_battle.tables import MAX_ROUNDS_LIMIT, BellyTables
from potluck.games.belly_battle.turn import run_turns, start_turn


def new_table(
    game: BellyTables, num_players: int, seed: int, options: Mapping[str, Any]
) -> BellyState:
    """A new game's state, the first turn played up to its first decision."""
    rounds = options["max_rounds"]
    if not 1 <= rounds <= MAX_ROUNDS_LIMIT:
        raise OptionError(f"option 'max_rounds' must be 1 to {MAX_ROUNDS_LIMIT}, not {rounds}")
    if len(game.munch_cards) < num_players or game.num_restaurants < num_players:
        raise PotluckError(
            f"this board has too few restaurants or Munchtime cards for {num_players} players"
        )
    state = BellyState(num_players, seed, options)
    n, c_count, rng = num_players, game.num_cards, state.rng
    state.round = 0
    state.turn = 0  # the rulebook's "largest belly" goes first: seat 0
    state.phase = WINDOW
    state.dice = (0, 0)
    state.pos = [0] * n
    state.cash = [game.bank.start_money] * n
    state.tunnel_used = [False] * n
    state.tunnel_blocked = False
    state.owner = [BANK] * c_count
    state.holdings = [0] * n
    state.chefs = [0] * c_count
    state.star = [0] * c_count
    state.insured = [False] * c_count
    state.acquired = [0] * c_count
    state.stamp = 0
    state.golden = -1
    state.holders = [NOBODY] * 4
    state.knows = [0] * n
    state.queue = []
    state.after = AFTER_WINDOW
    state.window_waiting = []
    state.window_actions = 0
    state.window_offered = False
    state.debt_offers = 0
    state.offer = NO_OFFER
    state.resume = WINDOW
    state.bankrupt = NOBODY
    state.bank_net = 0
    state.log_entries = ()
    state.stats = [0] * len(STAT_NAMES)
    # Setup 3: one random restaurant (free: ruling BB-7) and one Munchtime card each.
    dealt = sample(rng, range(game.num_restaurants), n)  # drawn as rng.sample draws
    for seat, card in enumerate(dealt):
        gain(state, seat, card)
    deck = list(range(len(game.munch_cards)))
    state.munch = []
    for _ in range(n):
        state.munch.append(deck.pop(int(rng.random() * len(deck))))
    state.deck = deck
    state.log_entries = tuple(
        ("Seat {} is dealt {}.", (s, game.names[c])) for s, c in enumerate(dealt)
    )
    start_turn(game, state)
    run_turns(game, state)
    return state
