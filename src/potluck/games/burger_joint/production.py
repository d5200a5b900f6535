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
FIRST_PICK_TEXTS: Final = ("english", "german")


def draw(state: BurgerState, count: int, into: list[int], base: int = 0) -> None:
    """Draw ``count`` cubes at random from the bag (which holds that many), one by one,
    adding each to ``into[base + colour]``."""
    bag = state.bag
    rng = state.rng
    left = sum(bag)
    for _ in range(count):
        r = randrange(rng, left)
        left -= 1
        for colour, held in enumerate(bag):
            if r < held:
                bag[colour] -= 1
                into[base + colour] += 1
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
    pool = state.pool
    nc = tables.num_colours
    present = [c for c in range(nc) if pool[c]]
    if state.taken[seat]:
        return present
    # Not the opponent's area: a colour is reserved for them when they own its diner
    # and ``seat`` does not (``reserved_for``).
    diners, mine, theirs = state.diners, seat * nc, (1 - seat) * nc
    allowed = [c for c in present if not diners[theirs + c] or diners[mine + c]]
    if allowed:
        return allowed
    # The exception: a player with no legal first pick does not lose it.
    if state.options["first_pick"] == "german":
        return [c for c in present if diners[theirs + c] and not diners[mine + c]]
    return present


def start_turn(tables: BurgerTables, state: BurgerState) -> None:
    """Production: draw a cube per diner and bistro of each player, at most four each."""
    state.turn += 1
    state.used = 0
    state.pub_buys = 0
    state.taken = [0, 0]
    state.owed = [min(capacity(tables, state, s), tables.limit) for s in (0, 1)]
    draw(state, min(state.owed[0] + state.owed[1], sum(state.bag)), state.pool)
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
        left = nc - pool.count(0)  # colours in the pool
        if not left:
            break
        for seat in (1 - last, last):
            if taken[seat] < owed[seat]:
                break
        else:
            break
        if taken[seat]:  # every colour in the pool may be taken
            if left > 1:
                state.acting = (seat,)
                return
            colour = 0
            while not pool[colour]:
                colour += 1
        else:
            colours = draft_colours(tables, state, seat)
            if len(colours) > 1:
                state.acting = (seat,)
                return
            colour = colours[0]
        pool[colour] -= 1
        state.cubes[seat * nc + colour] += 1
        taken[seat] += 1
        last = seat
    # Production is over (a short bag may leave someone with fewer cubes).
    for colour, count in enumerate(state.pool):
        state.bag[colour] += count
        state.pool[colour] = 0
    state.phase = TRADE
    state.acting = (state.active,)


def take(tables: BurgerTables, state: BurgerState, seat: int, colour: int) -> None:
    """``seat`` takes a production cube of ``colour``; the draft goes on."""
    state.pool[colour] -= 1
    state.cubes[seat * tables.num_colours + colour] += 1
    state.taken[seat] += 1
    next_pick(tables, state, seat)


def legal_takes(tables: BurgerTables, state: BurgerState, seat: int) -> list[BurgerAction]:
    """The ``take`` actions open to ``seat`` in production."""
    takes = tables.take_actions
    if state.taken[seat]:  # after the first pick, every colour in the pool
        pool = state.pool
        return [takes[c] for c in range(tables.num_colours) if pool[c]]
    return [takes[c] for c in draft_colours(tables, state, seat)]


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
    if action.a not in draft_colours(tables, state, seat):
        return (
            f"Your first cube this production may not come from your opponent's area: "
            f"the {col[action.a]} cubes are reserved for the player with the only "
            f"{col[action.a]} diner. Take one from the general area or your own area."
        )
    return None
