"""Burger Joint's greedy bot: its packed arithmetic (``bots.OwnBoard.missing`` and
``bots.OwnBoard.demand``, issue 36) equals the plain sums over colours it stands for,
and each build's cost as it reads it (worked out once per side: ``greedy_board.Cost``)
is the side's own.

The bot works out what each build lacks and what its plan wants on cube counts packed
into one whole number per build; these tests compare both with the definitions
written plainly, on boards met in real games and on cube counts drawn at random, for
several plan sizes.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
from potluck.games.burger_joint.bots import GreedyBot
from potluck.games.burger_joint.greedy_board import Board, OwnBoard, plans_for
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.tables import BurgerTables


def _tables() -> BurgerTables:
    game = potluck.load_game("burger-joint")
    assert isinstance(game, BurgerTables)
    return game


GAME = _tables()


def _positions(seed: int, count: int) -> list[SeatInfo]:
    """``count`` decisions' inputs from a random game dealt from ``seed``."""
    rng = random.Random(seed)
    state = GAME.new_game(2, seed=seed)
    found: list[SeatInfo] = []
    while state.acting and len(found) < count:
        seat = state.acting[0]
        found.append(GAME.bot_view(state, seat))
        GAME.step(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


def _plain_missing(board: Board, cubes: list[int]) -> list[int]:
    return [sum(max(0, n - cubes[c]) for c, n in needs) for _gain, needs, _kind, _x in board.gains]


def _plain_demand(board: Board, missing: list[int], plan_builds: int) -> list[int]:
    """The ``plan_builds`` builds of most gain per missing cube (of two alike, the
    later), sorted plainly, their costs summed per colour."""
    ranked = sorted(
        range(board.count),
        key=lambda i: (board.gains[i][0] / (1.0 + missing[i]), i),
        reverse=True,
    )
    want = [0] * GAME.num_colours
    for i in ranked[:plan_builds]:
        for c, n in board.gains[i][1]:
            want[c] += n
    return want


def _check(info: SeatInfo, plan_builds: int, cubes: list[int] | None = None) -> None:
    bot = GreedyBot(plan_builds=plan_builds)
    plans = plans_for(GAME, bot.weights)
    me = OwnBoard(GAME, info, bot.weights, plans)
    if cubes is not None:
        me.cubes = cubes
        me.held = plans.pack(cubes)
    board = me.gains()
    side = GAME.sides[info.seat]
    for i, (gain, needs, kind, x) in enumerate(board.gains):
        # Each build's cost read from the side's own list, as the rules charge it.
        cost = {
            "publicity": side.publicity_cost,
            "basic": side.basic_cost,
            "diner": side.diner_cost[x] if kind == "diner" else (),
            "bistro": side.bistro_cost[x] if kind == "bistro" else (),
        }[kind]
        assert needs == tuple((c, n) for c, n in enumerate(cost) if n)
        assert board.packed[i] == plans.pack(cost)
        assert board.gain[i] == gain > 0
    missing = me.missing(board)
    assert missing == _plain_missing(board, me.cubes)
    assert me.demand(board, missing) == _plain_demand(board, missing, plan_builds)


def test_packed_sums_equal_plain_sums_in_played_positions() -> None:
    for seed in range(12):
        for info in _positions(seed, 400):
            for plan_builds in (1, 2, 3, 10):
                _check(info, plan_builds)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 300),
    plan_builds=st.integers(1, 12),
    cubes=st.lists(
        st.integers(0, GAME.cubes_per_colour),
        min_size=GAME.num_colours,
        max_size=GAME.num_colours,
    ),
)
def test_packed_sums_equal_plain_sums_for_any_cubes_held(
    seed: int, moves: int, plan_builds: int, cubes: list[int]
) -> None:
    positions = _positions(seed, moves + 1)
    _check(positions[-1], plan_builds, cubes)


def test_fields_hold_every_count_and_every_plan() -> None:
    """No field overflows into the next: the bound covers the most cubes held of a
    colour and every build of a side at once."""
    plans = plans_for(GAME, GreedyBot().weights)
    low = (1 << (plans.width - 1)) - 1  # the most a field's bits below its guard hold
    assert low >= GAME.cubes_per_colour
    for side in GAME.sides:
        assert low >= sum(sum(cost) for cost in side.all_costs())
    counts = list(range(GAME.num_colours))
    packed = plans.pack(counts)
    assert [packed >> shift & plans.full for shift in plans.shifts] == counts
