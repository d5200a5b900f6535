"""Belle of the Ball's greedy bot answers a decision before the legal list is built
(``GreedyBot.choose_early``, issue 36: from its ``SeatInfo`` alone when it may play no
Belle, and from the Belle plays ``Game.bot_view`` puts in it when it may), and that
answer is the one ``choose`` takes from the same input and the whole legal list:

- over random states of random games (2-5 players, base game and variant) and random
  weights, whenever ``choose_early`` answers, ``choose`` on the legal list answers the
  same; ``bot_view`` gives the Belle plays exactly when the legal list starts with
  some, and they are those; from a ``SeatInfo`` built from the seat's view (no plays)
  it answers exactly when the seat may play no Belle;
- over whole greedy games, a bot asked as every surface asks it (``choose_plain``: the
  early answer first) takes every action a bot that is always given the legal list
  takes, and the early answer settles a good share of the decisions.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from belle_of_the_ball_helpers import GREEDY_WEIGHTS
from potluck.engine.bots import choose_plain
from potluck.games.belle_of_the_ball.actions import PLAY, BelleAction
from potluck.games.belle_of_the_ball.bots import GreedyBot
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_plan import Weights
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import BelleState
from potluck.testing.suite import random_position

G = BelleOfTheBall()


def _bot(weights: Weights) -> GreedyBot:
    return GreedyBot(
        weights.belle_value, weights.chip_value, weights.need_cost, weights.interest_share
    )


def _random_state(seed: int, players: int, variant: bool, moves: int) -> BelleState:
    """A position after up to ``moves`` uniformly random moves of a new game."""
    state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
    return random_position(G, state, seed, moves)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    variant=st.booleans(),
    moves=st.integers(0, 170),
    weights=GREEDY_WEIGHTS,
)
def test_the_early_answer_is_the_answer_from_the_legal_list(
    seed: int, players: int, variant: bool, moves: int, weights: Weights
) -> None:
    state = _random_state(seed, players, variant, moves)
    if not state.acting:
        return
    seat = state.acting[0]
    info = G.bot_view(state, seat)
    early = _bot(weights).choose_early(G, info, seat)
    legal = G.legal_actions(state, seat)
    full = _bot(weights).choose(G, info, seat, legal, random.Random(0))
    may_play = state.played_now == -1 and bool(state.hands[seat])
    plays = [a for a in legal if a.kind == PLAY]
    assert legal[: len(plays)] == plays  # (the Belle plays come first)
    assert info.plays == (plays if may_play else None)
    if early is not None:
        assert early is full
    seen = SeatInfo.from_view(G, G.view(state, seat), seat)
    assert seen.plays is None
    from_view = _bot(weights).choose_early(G, seen, seat)
    assert (from_view is None) == may_play
    if from_view is not None:
        assert from_view is full


def test_whole_games_take_the_same_actions_with_the_early_answer() -> None:
    early_answers = decisions = 0
    for players in range(2, 6):
        for variant in (False, True):
            seed = 100_400 + players
            state = G.new_game(players, seed, {"belles_in_guest_deck": variant})
            asked = [GreedyBot() for _ in range(players)]  # as every surface asks
            listed = [GreedyBot() for _ in range(players)]  # always given the legal list
            rng = random.Random(seed)
            while state.acting:
                seat = state.acting[0]
                info = G.bot_view(state, seat)
                early_answers += asked[seat].choose_early(G, info, seat) is not None
                action = choose_plain(asked[seat], G, state, seat, rng)
                legal = G.legal_actions(state, seat)
                assert listed[seat].choose(G, info, seat, legal, rng) is action
                assert isinstance(action, BelleAction)
                decisions += 1
                G.step(state, seat, action)
    assert early_answers > decisions * 9 // 10
