"""1) Production: cubes drawn for each player's diners and bistros, then drafted.

One cube is drawn from the bag for each specialty diner and upscale bistro of
each player, at most four per player. A colour whose diner only one player owns
lies in that player's area; the others lie in the general area. Each player's
first pick may not come from the opponent's area (unless nothing else is left:
the first-pick exception, option ``first_pick``, ruling BJ-1); then the players
alternate, active player first, until each has taken their capacity.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=7)
    >>> sum(state.pool), draft_colours(game, state, 0) == [c for c in range(6) if state.pool[c]]
    (4, True)
"""

from __future__ import annotations

from typing import Final

from potluck.engine.chance import randrange
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.scoring import capacity
from potluck.games.burger_joint.state import DRAFT, TAKE, TRADE, BurgerState
from potluck.games.burger_joint.tables import BurgerTables

#: The values of the ``first_pick`` option: which text's first-pick exception applies.
FIRST_PICK_TEXTS: Final[tuple[str, ...]] = ("english", "german")


def total(counts: list[int]) -> int:
    """``sum(counts)`` as a plain loop: compiled, ``sum`` is looked up among the builtins
    by name and called as Python at every use (issue 36)."""
    found = 0
    for count in counts:
        found += count
    return found


def draw(state: BurgerState, count: int, into: list[int], base: int = 0) -> None:
    """Draw ``count`` cubes at random from the bag (which holds that many), one by one,
    adding each to ``into[base + colour]``.

    (Counts are changed as ``x[i] = x[i] - 1``, not ``x[i] -= 1``: compiled, the augmented
    form on a list's item is Python's generic in-place operator, the plain form whole
    number arithmetic; the same in the rules below.)"""
    bag = state.bag
    rng = state.rng
    left = total(bag)
    for _ in range(count):
        r = randrange(rng, left)
        left -= 1
        for colour, held in enumerate(bag):
            if r < held:
                bag[colour] = held - 1
                into[base + colour] = into[base + colour] + 1
                break
            r -= held
        else:  # pragma: no cover
            raise AssertionError("the bag's counts are inconsistent")


def reserved_for(tables: BurgerTables, state: BurgerState, colour: int) -> int:
    """The seat whose area gets production cubes of ``colour``, or -1 for the general area.

    A colour goes to a player's area when that player owns its specialty diner
    and the other does not.
    """
    zero, one = state.diners[colour], state.diners[tables.num_colours + colour]
    if zero and not one:
        return 0
    if one and not zero:
        return 1
    return -1


def draft_colours(tables: BurgerTables, state: BurgerState, seat: int) -> list[int]:
    """The colours ``seat`` may take now in production (first-pick rule and exception)."""
    mask = draft_mask(tables, state, seat)
    return [c for c in range(tables.num_colours) if mask >> c & 1]


def draft_mask(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """``draft_colours`` as bits (bit ``c``: colour ``c`` may be taken): the rule."""
    pool = state.pool
    nc = tables.num_colours
    present = 0
    for c in range(nc):
        if pool[c]:
            present |= 1 << c
    if state.taken[seat]:
        return present
    # Not the opponent's area: a colour is reserved for them when they own its diner
    # and ``seat`` does not (``reserved_for``).
    diners, mine, theirs = state.diners, seat * nc, (1 - seat) * nc
    allowed = 0
    for c in range(nc):
        if present >> c & 1 and (not diners[theirs + c] or diners[mine + c]):
            allowed |= 1 << c
    if allowed:
        return allowed
    # The exception: a player with no legal first pick does not lose it.
    if state.options["first_pick"] == "german":
        reserved = 0
        for c in range(nc):
            if present >> c & 1 and diners[theirs + c] and not diners[mine + c]:
                reserved |= 1 << c
        return reserved
    return present


#: ``state.acting`` for the seat to act, shared (a tuple is never changed).
_ACTING: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def start_turn(tables: BurgerTables, state: BurgerState) -> None:
    """Production: draw a cube per diner and bistro of each player, at most four each."""
    state.turn += 1
    state.used = 0
    state.pub_buys = 0
    taken, owed, limit = state.taken, state.owed, tables.limit
    taken[0] = taken[1] = 0
    owed[0] = min(capacity(tables, state, 0), limit)
    owed[1] = min(capacity(tables, state, 1), limit)
    draw(state, min(owed[0] + owed[1], total(state.bag)), state.pool)
    state.phase = DRAFT
    next_pick(tables, state, 1 - state.active)


def next_pick(tables: BurgerTables, state: BurgerState, last: int) -> None:
    """Who picks next: the players alternate, active first; one who is full drops out.

    A pick with only one colour to choose from is no choice: it is made at once
    (ruling BJ-11), so the last cubes of a production are handed out without a step.
    """
    pool, taken, owed = state.pool, state.taken, state.owed
    nc = tables.num_colours
    while True:
        left = 0  # colours in the pool
        for c in range(nc):
            if pool[c]:
                left += 1
        if not left:
            break
        seat = 1 - last
        if taken[seat] >= owed[seat]:
            seat = last
            if taken[seat] >= owed[seat]:
                break
        if taken[seat]:  # every colour in the pool may be taken
            if left > 1:
                state.acting = _ACTING[seat]
                return
            colour = 0
            while not pool[colour]:
                colour += 1
        else:
            mask = draft_mask(tables, state, seat)
            if mask & (mask - 1):  # more than one colour
                state.acting = _ACTING[seat]
                return
            assert mask, "a colour in the pool may always be taken"
            colour = 0
            while not mask >> colour & 1:
                colour += 1
        pool[colour] = pool[colour] - 1
        cubes = state.cubes
        cubes[seat * nc + colour] = cubes[seat * nc + colour] + 1
        taken[seat] = taken[seat] + 1
        last = seat
    # Production is over (a short bag may leave someone with fewer cubes).
    bag = state.bag
    for colour in range(nc):
        bag[colour] += pool[colour]
        pool[colour] = 0
    state.phase = TRADE
    state.acting = _ACTING[state.active]


def take(tables: BurgerTables, state: BurgerState, seat: int, colour: int) -> None:
    """``seat`` takes a production cube of ``colour``; the draft goes on."""
    pool, cubes, taken = state.pool, state.cubes, state.taken
    pool[colour] = pool[colour] - 1
    at = seat * tables.num_colours + colour
    cubes[at] = cubes[at] + 1
    taken[seat] = taken[seat] + 1
    next_pick(tables, state, seat)


def legal_takes(tables: BurgerTables, state: BurgerState, seat: int) -> list[BurgerAction]:
    """The ``take`` actions open to ``seat`` in production: one per colour of
    ``draft_mask`` (after the first pick, every colour in the pool)."""
    return list(tables.take_by_mask[draft_mask(tables, state, seat)])


def why_not_take(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """``None`` if ``seat`` may take ``action`` in production, else why not."""
    col = tables.colours
    if action.kind != TAKE:
        return "It is the production phase: take a cube ('take <colour>')."
    if not state.pool[action.a]:
        return f"There is no {col[action.a]} cube left to take in production."
    if state.taken[seat] or reserved_for(tables, state, action.a) != 1 - seat:
        return None
    if not draft_mask(tables, state, seat) >> action.a & 1:
        return (
            f"Your first cube this production may not come from your opponent's area: "
            f"the {col[action.a]} cubes are reserved for the player with the only "
            f"{col[action.a]} diner. Take one from the general area or your own area."
        )
    return None
