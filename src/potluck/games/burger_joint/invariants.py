"""Burger Joint's invariants: what every state keeps true (``Game.invariants``).

Cubes are conserved (60 in all, wherever they lie), tokens stay within the 15
of a side, every count stays on its board, and whose turn and which phase agree.
A hand-edited save that breaks one is refused by ``from_json``.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> invariant_problems(game, game.new_game(2, seed=3))
    []
"""

from __future__ import annotations

from potluck.games.burger_joint.schema import ABILITIES
from potluck.games.burger_joint.scoring import tokens_on_board
from potluck.games.burger_joint.state import (
    DISCARD,
    DRAFT,
    NO_WINNER,
    OVER,
    PHASE_NAMES,
    BurgerState,
)
from potluck.games.burger_joint.tables import BurgerTables


def _turn_problems(game: BurgerTables, state: BurgerState) -> list[str]:
    """Whose turn, which phase and which turn number: in range and agreeing."""
    problems: list[str] = []
    if state.active not in (0, 1):
        problems.append(f"the active seat is {state.active}, not 0 or 1")
    if not 0 <= state.phase < len(PHASE_NAMES):
        problems.append(f"phase {state.phase} is none of 0 to {len(PHASE_NAMES) - 1}")
    limit = state.options["turn_limit"]
    if state.turn < 0 or (limit and state.turn > limit):
        problems.append(f"turn {state.turn} is outside 0 to {limit or 'any'}")
    if not 0 <= state.used < 1 << len(ABILITIES):
        problems.append(f"abilities used {state.used} is not a set of the {len(ABILITIES)}")
    track = max(len(side.publicity_points) for side in game.sides)
    if not 0 <= state.pub_buys <= track:
        problems.append(f"{state.pub_buys} publicity bought this turn (0 to {track})")
    if state.winner not in (NO_WINNER, 0, 1):
        problems.append(f"the winner is seat {state.winner}")
    if min(state.owed + state.taken + state.basics + state.publicity + state.score) < 0:
        problems.append("a negative count of cubes owed or taken, restaurants, publicity or VP")
    if not problems:
        if state.phase == OVER:
            if state.acting:
                problems.append(f"the game is over but seat(s) {list(state.acting)} are to act")
        elif len(state.acting) != 1:
            problems.append(f"{len(state.acting)} seats are to act, not one")
        elif state.phase not in (DRAFT, DISCARD) and state.acting != (state.active,):
            problems.append(
                f"seat {state.acting[0]} acts in the {PHASE_NAMES[state.phase]} phase of "
                f"seat {state.active}'s turn"
            )
    return problems


def invariant_problems(game: BurgerTables, state: BurgerState) -> list[str]:
    """Cubes and tokens are conserved and every count stays on its board."""
    problems = _turn_problems(game, state)
    if problems:
        return problems  # the counts below would be read with a wrong seat or phase
    nc, nb = game.num_colours, game.num_bistros
    for c in range(nc):
        total = state.bag[c] + state.cubes[c] + state.cubes[nc + c] + state.pool[c] + state.aside[c]
        if total != game.cubes_per_colour:
            problems.append(f"{game.colours[c]} cubes: {total}, not {game.cubes_per_colour}")
    if min(state.bag + state.cubes + state.pool + state.aside) < 0:
        problems.append("a negative cube count")
    for s in (0, 1):
        side = game.sides[s]
        if not 0 <= state.basics[s] <= len(side.basic_points):
            problems.append(f"seat {s} has {state.basics[s]} basic restaurants")
        if not 0 <= state.publicity[s] <= len(side.publicity_points):
            problems.append(f"seat {s}'s publicity marker is off its track")
        if tokens_on_board(game, state, s) > game.tokens:
            problems.append(f"seat {s} uses more than {game.tokens} tokens")
        if state.taken[s] > state.owed[s]:
            problems.append(f"seat {s} took more production cubes than its capacity")
        if state.owed[s] > game.limit:
            problems.append(f"seat {s} may take more than {game.limit} cubes")
        if any(v not in (0, 1) for v in state.diners[s * nc : s * nc + nc]):
            problems.append(f"seat {s} owns a diner twice")
        if any(v not in (0, 1) for v in state.bistros[s * nb : s * nb + nb]):
            problems.append(f"seat {s} owns a bistro twice")
        if state.score[s] >= game.win and state.winner != s:
            problems.append(f"seat {s} scored {state.score[s]} but has not won")
    if state.winner != NO_WINNER and state.phase != OVER:
        problems.append("a winner while the game goes on")
    if state.phase != DRAFT and any(state.pool):
        problems.append("production cubes left outside production")
    return problems
