"""Belly Battle's ``SeatInfo`` (the greedy bot's input): its per-card entries and the
seats' wealth are worked out at their first read, from a copy of the public card state
taken when it is made. Read at any time and in any order, they are what the seat's view
showed when the object was made; and the wealth it shows is the rules' ``wealth``."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.agents import decide, make_agent
from potluck.games.belly_battle import BellyBattle
from potluck.games.belly_battle.scoring import holdings_worth, wealth
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.sim import bot_rng

_LOADED = potluck.load_game("belly-battle")
assert isinstance(_LOADED, BellyBattle)
GAME: BellyBattle = _LOADED


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_entries_read_after_the_table_moved_on_are_the_view_it_was_made_from(
    players: int, seed: int
) -> None:
    state = GAME.new_game(players, seed=seed)
    bots = [make_agent(GAME, "greedy" if s % 2 == 0 else "random") for s in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    order = random.Random(seed)
    checked = 0
    while state.acting and checked < 400:
        seat = state.acting[0]
        watcher = order.randrange(players)
        info = GAME.bot_view(state, watcher)
        expected = SeatInfo.from_view(GAME, GAME.view(state, watcher), watcher)
        action = decide(bots[seat], GAME, state, seat, rngs[seat])
        GAME.step(state, seat, str(action))
        # Read only now, after the step, and in a shuffled order: still the view's.
        names = ["owners", "chefs", "stars", "fees", "wealth"]
        order.shuffle(names)
        for name in names:
            assert getattr(info, name) == getattr(expected, name), (name, len(state.history))
        assert info == expected
        checked += 1
    assert checked > 50


def test_holdings_worth_is_wealth_less_cash_along_whole_games() -> None:
    for seed in range(4):
        players = 2 + seed % 3
        state = GAME.new_game(players, seed=100 + seed)
        rng = random.Random(seed)
        while state.acting:
            worth = holdings_worth(GAME, state.owner, state.chefs, state.star, players)
            for seat in range(players):
                assert state.cash[seat] + worth[seat] == wealth(GAME, state, seat)
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            GAME.step(state, seat, legal[rng.randrange(len(legal))])


def test_a_seat_info_differs_from_one_of_another_table() -> None:
    one = GAME.bot_view(GAME.new_game(3, seed=1), 0)
    other = GAME.bot_view(GAME.new_game(3, seed=2), 0)
    assert one == GAME.bot_view(GAME.new_game(3, seed=1), 0)
    assert one != other
    assert "owners=" in repr(one)
    assert "fees=" in repr(one)
