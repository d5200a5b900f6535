"""Burger Joint's legal lists (the hot path of random play, issue 36) against the rule.

``turn.legal_actions`` builds each phase's list from sets of colours as bits and the rows
of ``BurgerTables.by_mask``; the rule with its reasons is ``turn.why_not`` (what
``Game.explain`` asks). Here both are asked about states of random games whose counts
hypothesis then changes at will (cubes held, the bag, the production pool, diners,
bistros, abilities used, publicity, basic restaurants): the list must be every action
the rule allows, in code order.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.burger_joint.game import BurgerJoint
from potluck.testing.suite import random_position

GAME = BurgerJoint()
NC, NB = GAME.num_colours, GAME.num_bistros


def _counts(size: int, top: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, top), min_size=size, max_size=size)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    first_pick=st.sampled_from(("english", "german")),
    cubes=st.none() | _counts(2 * NC, 5),
    bag=st.none() | _counts(NC, 4),
    pool=st.none() | _counts(NC, 2),
    diners=st.none() | _counts(2 * NC, 1),
    bistros=st.none() | _counts(2 * NB, 1),
    used=st.none() | st.integers(0, 31),
    publicity=st.none() | _counts(2, 6),
    basics=st.none() | _counts(2, 3),
    pub_buys=st.none() | st.integers(0, 2),
)
def test_legal_list_is_every_action_the_rule_allows_in_code_order(
    seed: int,
    steps: int,
    first_pick: str,
    cubes: list[int] | None,
    bag: list[int] | None,
    pool: list[int] | None,
    diners: list[int] | None,
    bistros: list[int] | None,
    used: int | None,
    publicity: list[int] | None,
    basics: list[int] | None,
    pub_buys: int | None,
) -> None:
    start = GAME.new_game(2, seed, {"first_pick": first_pick})
    state = random_position(GAME, start, seed, steps)
    for name, value in (
        ("cubes", cubes),
        ("bag", bag),
        ("diners", diners),
        ("bistros", bistros),
        ("publicity", publicity),
        ("basics", basics),
    ):
        if value is not None:
            setattr(state, name, value)
    if pool is not None and any(pool):
        state.pool = pool
    if used is not None:
        state.used = used
    if pub_buys is not None:
        state.pub_buys = pub_buys
    seat = state.acting[0]
    legal = GAME.legal_actions(state, seat)
    assert legal == [a for a in GAME.actions if GAME.explain(state, seat, a) is None]


def test_rows_by_mask_hold_each_colour_of_the_mask_in_order() -> None:
    for mask in range(1 << NC):
        colours = [c for c in range(NC) if mask >> c & 1]
        assert GAME.take_by_mask[mask] == tuple(GAME.take_actions[c] for c in colours)
        for a in range(NC):
            row = GAME.trade_rows[a]
            assert GAME.trade_by_mask[a][mask] == tuple(row[c] for c in colours)
