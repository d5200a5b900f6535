"""FoodAdvice's greedy bot answers some decisions before the legal list is built
(``GreedyBot.choose_early``, issue 36: the exchange, the votes and the keep, from its
``SeatInfo`` and the phase in it), and that answer is the one ``choose`` takes from the
same input and the whole legal list:

- over random states of random games (4-6 players, seeds 102200-102999), whenever
  ``choose_early`` answers, ``choose`` on the legal list answers the same action, from
  ``Game.bot_view`` and from a ``SeatInfo`` built from the seat's view; it answers in
  every exchange, vote and keep, and in no other phase;
- over whole greedy games, a bot asked as every surface asks it (``choose_plain``: the
  early answer first) takes every action a bot always given the legal list takes, and
  at every keep the action a bot with an empty memo takes (a round's later discards
  are answered from the seat's last keep, ``greedy_mind.kept_before``, before any
  ``Mind`` is made: held here to the keep worked out anew).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
from food_advice_helpers import random_play_state
from potluck.engine.bots import choose_plain
from potluck.games.food_advice import FoodAdvice
from potluck.games.food_advice.actions import FoodAction
from potluck.games.food_advice.bots import GreedyBot
from potluck.games.food_advice.greedy_mind import kept_before
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.state import EXCHANGE, KEEP, VOTING

_LOADED = potluck.load_game("food-advice")
assert isinstance(_LOADED, FoodAdvice)
G: FoodAdvice = _LOADED


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(102200, 102999),
    players=st.integers(4, 6),
    steps=st.integers(0, 400),
)
def test_the_early_answer_is_the_answer_from_the_legal_list(
    seed: int, players: int, steps: int
) -> None:
    state = random_play_state(G, players, seed, steps)
    if not state.acting:
        return
    seat = state.acting[0]
    legal = G.legal_actions(state, seat)
    info = G.bot_view(state, seat)
    seen = SeatInfo.from_view(G, G.view(state, seat), seat)
    assert info.phase == seen.phase == state.phase
    full = GreedyBot().choose(G, info, seat, legal, random.Random(0))
    for given_info in (info, seen):
        early = GreedyBot().choose_early(G, given_info, seat)
        assert (early is not None) == (state.phase in (EXCHANGE, VOTING, KEEP))
        if early is not None:
            assert early is full


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(102200, 102999), players=st.integers(4, 6))
def test_greedy_games_asked_early_take_the_same_actions(seed: int, players: int) -> None:
    state = G.new_game(players, seed=seed)
    early_bot, full_bot = GreedyBot(), GreedyBot()
    rng = random.Random(seed)
    answered_early = kept_again = 0
    while state.acting:
        seat = state.acting[0]
        info = G.bot_view(state, seat)
        answered_early += early_bot.choose_early(G, info, seat) is not None
        if state.phase == KEEP:
            kept_again += kept_before(early_bot._memo, info, seat) is not None
        action = choose_plain(early_bot, G, state, seat, rng)
        legal = G.legal_actions(state, seat)
        assert action == full_bot.choose(G, info, seat, legal, rng)
        if state.phase == KEEP:
            assert action == GreedyBot().choose(G, info, seat, legal, rng)
        assert isinstance(action, FoodAction)
        G.step(state, seat, action)
    assert answered_early > 0
    assert kept_again > 0


@settings(max_examples=15, deadline=None)
@given(
    seeds=st.lists(st.integers(112000, 112499), min_size=2, max_size=3),
    players=st.integers(4, 6),
)
def test_one_bot_asked_at_every_keep_of_random_games_keeps_as_a_fresh_one(
    seeds: list[int], players: int
) -> None:
    """One bot asked at every keep of random games played one after another (random
    discards give up cards the bot chose to keep; the next game's first table is empty
    again, its hands new) answers, early and from the legal list, as a bot with an
    empty memo: ``kept_before`` gives the last keep's cards again only when they stand."""
    bot = GreedyBot()
    kept_again = 0
    for seed in seeds:
        state = G.new_game(players, seed=seed)
        rng = random.Random(seed)
        while state.acting:
            seat = state.acting[0]
            legal = G.legal_actions(state, seat)
            if state.phase == KEEP:
                info = G.bot_view(state, seat)
                kept_again += kept_before(bot._memo, info, seat) is not None
                fresh = GreedyBot().choose(G, info, seat, legal, rng)
                assert bot.choose_early(G, info, seat) is fresh
                assert bot.choose(G, info, seat, legal, rng) is fresh
            G.step(state, seat, rng.choice(legal))
    assert kept_again > 0
