"""5) Discard Excess Cubes: the active player, then the other, down to seven cubes.

Each player chooses which cubes to discard, one per step (ruling BJ-14), and the
discarded cubes go back into the bag (BJ-5).

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> next_discarder(game, game.new_game(2))       # nobody holds more than seven
    -1
"""

from __future__ import annotations

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.state import DISCARD_ONE, BurgerState
from potluck.games.burger_joint.tables import BurgerTables


def next_discarder(tables: BurgerTables, state: BurgerState) -> int:
    """The seat that must discard next (active player first), or -1 if nobody must."""
    nc = tables.num_colours
    cubes = state.cubes
    seat = state.active
    for _ in range(2):
        held = 0
        for at in range(seat * nc, seat * nc + nc):
            held += cubes[at]
        if held > tables.keep:
            return seat
        seat = 1 - seat
    return -1


def discard(tables: BurgerTables, state: BurgerState, seat: int, colour: int) -> None:
    """``seat`` discards one cube of ``colour`` into the bag."""
    at = seat * tables.num_colours + colour
    cubes, bag = state.cubes, state.bag
    cubes[at] = cubes[at] - 1
    bag[colour] = bag[colour] + 1


def why_not_discard(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """During the discard: ``None`` if ``action`` is allowed, else why not."""
    if action.kind != DISCARD_ONE:
        return f"Discard excess cubes: you hold more than {tables.keep}; 'discard <colour>'."
    if not state.cubes[seat * tables.num_colours + action.a]:
        return f"You have no {tables.colours[action.a]} cube to discard."
    return None


def legal_discards(tables: BurgerTables, state: BurgerState, seat: int) -> list[BurgerAction]:
    """A ``discard`` per colour ``seat`` holds."""
    nc = tables.num_colours
    mine = seat * nc
    cubes = state.cubes
    held = 0
    for c in range(nc):
        if cubes[mine + c]:
            held |= 1 << c
    return list(tables.discard_by_mask[held])
