"""FoodAdvice's greedy bots share each table's customer work through the game
(``shared_tables.TableMemo``, issue 36): what one seat's bot worked out must be what any
other seat's bot would have worked out alone, and the memo must pickle with the game (an
OpenSpiel state is serialized with its game) without changing a decision.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from food_advice_helpers import random_play_state
from potluck.games.food_advice.bots import GreedyBot
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.greedy_mind import Mind
from potluck.games.food_advice.shared_tables import TableMemo
from potluck.games.food_advice.state import FoodState


def _fill_memo(game: FoodAdvice, state: FoodState) -> None:
    """Every seat's bot works out the table's choices, forecast and promotion sales."""
    for seat in range(state.num_players):
        mind = Mind(game, game.bot_view(state, seat), seat)
        mind.baseline()
        mind.sales()
        mind.sales(1 << seat, 0)
        mind.sales(0, 1 << seat)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(4, 6),
    seed=st.integers(94000, 94199),
    steps=st.integers(0, 160),
)
def test_a_bot_decides_alike_with_a_table_other_seats_worked_out(
    players: int, seed: int, steps: int
) -> None:
    shared, alone = FoodAdvice(), FoodAdvice()
    state = random_play_state(shared, players, seed, steps)
    if not state.acting:
        return
    _fill_memo(shared, state)
    seat = state.acting[0]
    legal = shared.legal_actions(state, seat)
    with_shared = GreedyBot().choose(
        shared, shared.bot_view(state, seat), seat, legal, random.Random(0)
    )
    on_its_own = GreedyBot().choose(
        alone, alone.bot_view(state, seat), seat, legal, random.Random(0)
    )
    assert with_shared == on_its_own


def test_the_memo_pickles_empty_and_numbers_tables_on() -> None:
    game = FoodAdvice()
    state = random_play_state(game, 4, 94000, 120)
    _fill_memo(game, state)
    memo = game.greedy_tables
    assert isinstance(memo, TableMemo)
    assert memo.tables
    assert memo.made == len(memo.tables)
    copy = pickle.loads(pickle.dumps((game, state)))[0]
    assert isinstance(copy.greedy_tables, TableMemo)
    assert not copy.greedy_tables.tables
    assert copy.greedy_tables.made == memo.made
    if state.acting:
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        bot = GreedyBot()
        before = bot.choose(game, game.bot_view(state, seat), seat, legal, random.Random(0))
        after = bot.choose(copy, copy.bot_view(state, seat), seat, legal, random.Random(0))
        assert before == after
