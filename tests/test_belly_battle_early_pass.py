"""Belly Battle's greedy bot settles a window from its seat's input alone when it will
pass (``GreedyBot.choose_early``), so ``decide`` lists the window's deals only when the
bot reads them (``engine.bots.choose_plain``, issue 36).

The early answer must be what ``choose`` takes from the same input and the whole legal
list: here over states of random games whose owners, tokens, cash and window offer
hypothesis then changes at will, under random weights, with the input built from the
state and from the seat's whole view; and along whole games at every table size, where
``decide`` must play what ``choose`` plays from the legal list at every decision.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.agents import decide
from potluck.engine.bots import EarlyChooser, RandomBot, bot_input, choose_plain
from potluck.games.belly_battle.actions import BellyAction
from potluck.games.belly_battle.bots import GreedyBot
from potluck.games.belly_battle.game import BellyBattle
from potluck.games.belly_battle.ownership import gain, to_bank
from potluck.games.belly_battle.state import BANK, WINDOW, BellyState
from potluck.sim import bot_rng
from potluck.testing.suite import random_position
from test_belly_battle_legal_lists import _retoken

GAME = BellyBattle()
CARDS, RESTAURANTS = GAME.num_cards, GAME.num_restaurants


def _set_table(
    state: BellyState,
    owners: list[int] | None,
    tokens: list[int] | None,
    cash: list[int] | None,
) -> None:
    """Owners, tokens (0-3: none, one chef, two, two and a star) and cash as given,
    through the rules' own changes of owner; a new ``cards_token`` after the tokens
    (what the rules do at every change of the card lists)."""
    players = state.num_players
    if owners is not None:
        for card, seat in enumerate(owners):
            if seat == BANK or seat >= players:
                to_bank(state, card)
            else:
                gain(state, seat, card)
    if tokens is not None:
        _retoken(state, tokens)
        state.cards_changed()
    if cash is not None:
        state.cash = cash[:players]


@settings(max_examples=400, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    owners=st.none() | st.lists(st.integers(-1, 5), min_size=CARDS, max_size=CARDS),
    tokens=st.none() | st.lists(st.integers(0, 3), min_size=RESTAURANTS, max_size=RESTAURANTS),
    cash=st.none() | st.lists(st.integers(0, 2_000), min_size=6, max_size=6),
    window=st.booleans(),
    offered=st.booleans(),
    reserve=st.none() | st.integers(0, 1_500),
)
def test_early_answer_is_what_choose_takes_from_the_legal_list(
    players: int,
    seed: int,
    steps: int,
    owners: list[int] | None,
    tokens: list[int] | None,
    cash: list[int] | None,
    window: bool,
    offered: bool,
    reserve: int | None,
) -> None:
    state = random_position(GAME, GAME.new_game(players, seed), seed, steps)
    _set_table(state, owners, tokens, cash)
    if window:
        # Most decisions are windows: make this one a window of its seat, with or
        # without its one offer made (the deals listed differ).
        state.phase = WINDOW
        state.window_offered = offered
    bot = GreedyBot() if reserve is None else GreedyBot(reserve=reserve)
    seat = state.acting[0]
    legal = GAME.legal_actions(state, seat)
    from_view = GAME.bot_view_from_view(GAME.view(state, seat), seat)
    for seen in (GAME.bot_view(state, seat), from_view):
        early = bot.choose_early(GAME, seen, seat)
        if early is not None:
            assert state.phase == WINDOW
            assert early is bot.choose(GAME, seen, seat, legal, random.Random(seed))
            assert early in legal


def test_decide_plays_what_choose_plays_along_whole_games() -> None:
    """At every decision of greedy and mixed games at 2-6 players (seeds 98600-98619),
    ``decide`` plays what the bot's ``choose`` takes from its input and the whole legal
    list; the early answer settles some of them (it is not a path never taken)."""
    early_answers = decisions = 0
    for players in range(2, 7):
        for seed in range(98600, 98604):
            for mixed in (False, True):
                bots = [
                    RandomBot() if mixed and seat % 2 else GreedyBot() for seat in range(players)
                ]
                state = GAME.new_game(players, seed)
                rngs = [bot_rng(seed, seat) for seat in range(players)]
                twins = [bot_rng(seed, seat) for seat in range(players)]
                while state.acting:
                    seat = state.acting[0]
                    bot = bots[seat]
                    seen = bot_input(bot, GAME, state, seat)
                    wanted = bot.choose(
                        GAME, seen, seat, GAME.legal_actions(state, seat), twins[seat]
                    )
                    if isinstance(bot, EarlyChooser) and bot.choose_early(GAME, seen, seat):
                        early_answers += 1
                    action = decide(bot, GAME, state, seat, rngs[seat])
                    assert action is wanted
                    assert isinstance(action, BellyAction)
                    decisions += 1
                    GAME.step(state, seat, action)
    assert early_answers > decisions // 10


def test_plain_choice_of_a_random_bot_draws_as_choose_does() -> None:
    state = GAME.new_game(4, 98620)
    for _ in range(200):
        if not state.acting:
            break
        seat = state.acting[0]
        legal = GAME.legal_actions(state, seat)
        drawn = choose_plain(RandomBot(), GAME, state, seat, random.Random(seat))
        assert drawn is RandomBot().choose(GAME, None, seat, legal, random.Random(seat))
        assert isinstance(drawn, BellyAction)
        GAME.step(state, seat, drawn)
