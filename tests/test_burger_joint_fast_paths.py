"""Burger Joint's shortcuts of issue 36 against what they stand for.

``BurgerJoint.step`` appends the table's shared ``(seat, action)`` pair
(``BurgerTables.moves``) when the action is the table's own, and a pair of its own for
any other action object, so a history always holds exactly the pairs that were stepped;
``production.total`` (a plain loop the compiled rules call instead of ``sum``) is the
sum of the counts."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.burger_joint.game import BurgerJoint
from potluck.games.burger_joint.production import total

GAME = BurgerJoint()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(96700, 96799), copies=st.booleans())
def test_history_holds_each_stepped_pair(seed: int, copies: bool) -> None:
    state = GAME.new_game(2, seed)
    rng = random.Random(seed)
    stepped: list[tuple[int, Any]] = []
    while state.acting:
        seat = state.acting[0]
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        if copies and rng.random() < 0.5:
            action = copy.copy(action)  # equal to the table's action, not the same object
        GAME.step(state, seat, action)
        stepped.append((seat, action))
        entry = state.history[-1]
        assert entry == (seat, action)
        assert entry[1] is action
    assert state.history == stepped
    assert GAME.replay(GAME.record(state)).history == stepped


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=12))
def test_total_is_the_sum_of_the_counts(counts: list[int]) -> None:
    assert total(counts) == sum(counts)
