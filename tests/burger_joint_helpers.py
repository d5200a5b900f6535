"""Shared helpers for the Burger Joint tests (tests/test_burger_joint*.py).

Seat 0 plays Burger (and starts), seat 1 plays Pizza. Bistro slots on the
built-in boards: 1 redraw (2 VP), 2 swap-two (2 VP), 3 extra (1 VP),
4 swap-one (2 VP), 5 pick (0 VP), 6 no ability (3 VP).
"""

from __future__ import annotations

from typing import Any

import pytest

import potluck
from potluck.games.burger_joint import BurgerJoint, BurgerState
from potluck.games.burger_joint.production import next_pick
from potluck.games.burger_joint.scoring import capacity
from potluck.games.burger_joint.state import DRAFT, TRADE

BURGER, PIZZA = 0, 1


def load_burger_joint() -> BurgerJoint:
    """The registered Burger Joint game (what the ``game`` fixture below gives)."""
    g = potluck.load_game("burger-joint")
    assert isinstance(g, BurgerJoint)
    return g


@pytest.fixture
def game() -> BurgerJoint:
    """The game, as the tests of every chapter take it."""
    return load_burger_joint()


def c(game: BurgerJoint, name: str) -> int:
    return game.colours.index(name)


def empty_hands(game: BurgerJoint, state: BurgerState) -> None:
    """Every cube back into the bag: storage, production pool and redraw aside."""
    nc = game.num_colours
    for colour in range(nc):
        state.bag[colour] += (
            state.pool[colour]
            + state.cubes[colour]
            + state.cubes[nc + colour]
            + state.aside[colour]
        )
        state.pool[colour] = state.cubes[colour] = state.cubes[nc + colour] = 0
        state.aside[colour] = 0


def trading(
    game: BurgerJoint, active: int = BURGER, options: dict[str, Any] | None = None
) -> BurgerState:
    """A game at the start of ``active``'s trading phase, nobody holding a cube."""
    state = game.new_game(2, seed=1, options=options)
    empty_hands(game, state)
    state.taken = [0, 0]
    state.active = active
    state.phase = TRADE
    state.acting = (active,)
    return state


def give(game: BurgerJoint, state: BurgerState, seat: int, **counts: int) -> None:
    """Move cubes from the bag to ``seat``'s storage."""
    for name, n in counts.items():
        colour = c(game, name)
        assert state.bag[colour] >= n
        state.bag[colour] -= n
        state.cubes[seat * game.num_colours + colour] += n


def held(game: BurgerJoint, state: BurgerState, seat: int) -> dict[str, int]:
    nc = game.num_colours
    return {
        game.colours[k]: state.cubes[seat * nc + k] for k in range(nc) if state.cubes[seat * nc + k]
    }


def board(
    game: BurgerJoint,
    state: BurgerState,
    seat: int,
    *,
    basics: int | None = None,
    diners: list[str] | None = None,
    bistros: list[int] | None = None,
    publicity: int | None = None,
) -> None:
    """Set a player's development board (bistros by slot number, 1-6)."""
    nc, nb = game.num_colours, game.num_bistros
    if basics is not None:
        state.basics[seat] = basics
    if diners is not None:
        for k in range(nc):
            state.diners[seat * nc + k] = 1 if game.colours[k] in diners else 0
    if bistros is not None:
        for k in range(nb):
            state.bistros[seat * nb + k] = 1 if k + 1 in bistros else 0
    if publicity is not None:
        state.publicity[seat] = publicity


def production(
    game: BurgerJoint, state: BurgerState, active: int, pool: dict[str, int]
) -> BurgerState:
    """Start a production phase with exactly ``pool`` drawn (owed from the boards)."""
    empty_hands(game, state)
    state.active = active
    state.phase = DRAFT
    state.taken = [0, 0]
    state.owed = [min(capacity(game, state, s), game.limit) for s in (0, 1)]
    for name, n in pool.items():
        state.bag[c(game, name)] -= n
        state.pool[c(game, name)] += n
    next_pick(game, state, 1 - active)
    assert not game.invariants(state)
    return state


def takers(game: BurgerJoint, state: BurgerState) -> list[int]:
    """Play production with each picker's first legal cube; who got each cube, in order."""
    order: list[int] = []
    while state.phase == DRAFT:
        seat = state.acting[0]
        before = list(state.taken)
        game.step(state, seat, game.legal_actions(state, seat)[0])
        order.append(seat)
        # Cubes handed out without a choice (ruling BJ-11) after this pick.
        extra = [state.taken[s] - before[s] - (1 if s == seat else 0) for s in (0, 1)]
        assert min(extra) >= 0
        assert extra[0] == 0 or extra[1] == 0
        order.extend([0] * extra[0] + [1] * extra[1])
    return order


def texts(game: BurgerJoint, state: BurgerState, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(state, seat)]
