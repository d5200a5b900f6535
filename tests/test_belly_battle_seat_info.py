"""Belly Battle's ``SeatInfo`` (the greedy bot's input): its per-card entries and the
seats' wealth are worked out at their first read, from a copy of the public card state
taken when it is made (shared, with what is worked out from it, with the next objects
while the cards stay equal: ``PublicCards``). Read at any time and in any order, they are
what the seat's view showed when the object was made; and the wealth it shows is the
rules' ``wealth``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
from potluck.agents import decide, make_agent
from potluck.games.belly_battle import BellyBattle
from potluck.games.belly_battle.ownership import gain, to_bank
from potluck.games.belly_battle.scoring import holdings_worth, wealth
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.games.belly_battle.state import BANK, NOBODY
from potluck.sim import bot_rng
from potluck.testing.suite import random_position

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


def test_tables_interleaved_on_one_game_share_card_states_only_when_equal() -> None:
    """``SeatInfo`` shares its public card state (``PublicCards``, kept on the game) with
    the last one made while the cards are equal: games of several sizes played turn
    about on one game object, each seat's object is its own view's at every step."""
    game = BellyBattle()
    states = [game.new_game(players, seed=89600 + players) for players in (2, 4, 6, 4)]
    rngs = [random.Random(89610 + k) for k in range(len(states))]
    shared = checked = 0
    while any(state.acting for state in states):
        for state, rng in zip(states, rngs, strict=True):
            if not state.acting:
                continue
            kept = game.seat_memo
            for seat in range(state.num_players):
                info = game.bot_view(state, seat)
                assert info == SeatInfo.from_view(game, game.view(state, seat), seat)
                checked += 1
            shared += game.seat_memo is kept
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[rng.randrange(len(legal))])
    assert checked > 1000
    assert shared > 20


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    owners=st.lists(st.integers(-1, 5), min_size=GAME.num_cards, max_size=GAME.num_cards),
    tokens=st.lists(st.integers(0, 3), min_size=GAME.num_cards, max_size=GAME.num_cards),
    holders=st.lists(st.integers(-1, 5), min_size=4, max_size=4),
    golden=st.integers(-1, GAME.num_restaurants - 1),
)
def test_a_kept_card_state_is_used_only_for_equal_cards(
    players: int,
    seed: int,
    steps: int,
    owners: list[int],
    tokens: list[int],
    holders: list[int],
    golden: int,
) -> None:
    """A position of a random game, then the same with its cards, tokens, one-round
    cards and Golden Belly changed at will: each ``SeatInfo`` equals the one its view
    gives, whatever card state the game kept from before."""
    game = BellyBattle()
    state = random_position(game, game.new_game(players, seed), seed, steps)
    before = [game.bot_view(state, seat) for seat in range(players)]
    for card, owner in enumerate(owners):
        if owner == BANK or owner >= players:
            to_bank(state, card)
        else:
            gain(state, owner, card)
    for card in range(game.num_restaurants):
        level = tokens[card] if state.owner[card] != BANK else 0
        state.chefs[card] = min(level, 2)
        state.star[card] = 1 if level == 3 else 0
    state.holders = [h if h < players else NOBODY for h in holders]
    state.golden = golden if golden < 0 or state.owner[golden] != BANK else -1
    state.cards_changed()  # changed by hand, not by the rules: say so
    for seat in range(players):
        info = game.bot_view(state, seat)
        assert info == SeatInfo.from_view(game, game.view(state, seat), seat)
        again = game.bot_view(state, seat)
        assert again == info
    # The objects made before the change still show the cards as they were.
    restored = random_position(game, game.new_game(players, seed), seed, steps)
    for seat in range(players):
        assert before[seat] == SeatInfo.from_view(game, game.view(restored, seat), seat)
