"""2) Trading & Special Abilities: 3-for-1 trades and the upscale bistros' abilities.

Only the active player trades: any number of 3-for-1 trades (three cubes of one
colour into the bag, one of a chosen colour out), and each owned bistro's ability
once per turn, in any order, mixed with the trades. Once building has started,
no more trading (ruling BJ-8). Extra cubes go straight into storage (BJ-2).

The abilities (``schema.ABILITIES``): ``redraw`` (put any number of cubes into
the bag, one ``put`` step each, then ``draw`` as many), ``swap-two``, ``extra``,
``swap-one`` and ``pick``.

    >>> from potluck.games.burger_joint.state import EXTRA
    >>> ABILITY_OF[EXTRA] == ABILITIES.index("extra")
    True
"""

from __future__ import annotations

from typing import Final

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.production import draw, total
from potluck.games.burger_joint.schema import ABILITIES, ABILITY_WORDS
from potluck.games.burger_joint.state import (
    AB_EXTRA,
    AB_PICK,
    AB_REDRAW,
    AB_SWAP_ONE,
    AB_SWAP_TWO,
    BUILD,
    DISCARD_ONE,
    DRAW,
    EXTRA,
    PICK,
    PUT,
    REDRAW,
    REDRAW_START,
    SWAP_ONE,
    SWAP_TWO,
    TRADE,
    TRADE3,
    BurgerState,
)
from potluck.games.burger_joint.tables import BurgerTables

#: The ability each kind of action uses.
ABILITY_OF: Final = {
    REDRAW_START: AB_REDRAW,
    SWAP_TWO: AB_SWAP_TWO,
    EXTRA: AB_EXTRA,
    SWAP_ONE: AB_SWAP_ONE,
    PICK: AB_PICK,
}


#: Per kind of action (``state.py``'s codes), whether it is a 3-for-1 trade or an
#: ability: ``kind == TRADE3 or kind in ABILITY_OF``, read as one tuple item.
IS_TRADE: Final = tuple(kind == TRADE3 or kind in ABILITY_OF for kind in range(DISCARD_ONE + 1))


def owns_ability(tables: BurgerTables, state: BurgerState, seat: int, ability: int) -> bool:
    """Whether ``seat`` has built the upscale bistro with ``ability``."""
    slot = tables.sides[seat].ability_slot[ability]
    return slot >= 0 and bool(state.bistros[seat * tables.num_bistros + slot])


def used_this_turn(state: BurgerState, ability: int) -> bool:
    """Whether the active player has used ``ability`` this turn: each is once per turn.
    The one place the rule is written; ``why_not_trade`` and ``add_legal_trades`` ask it."""
    return bool(state.used >> ability & 1)


def ability_ready(tables: BurgerTables, state: BurgerState, seat: int, ability: int) -> bool:
    """Whether ``seat`` may use ``ability`` now, as far as owning it and once a turn go."""
    return owns_ability(tables, state, seat, ability) and not used_this_turn(state, ability)


def why_not_trade(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """For a trade or an ability in the active player's phases: ``None`` if allowed,
    else why not."""
    kind = action.kind
    col = tables.colours
    mine = seat * tables.num_colours
    cubes, bag = state.cubes, state.bag
    if state.phase == BUILD:
        return (
            "You have started building: trades and special abilities come before "
            "building (Trading & Special Abilities is action 2, Building action 3)."
        )
    if kind == TRADE3:
        if cubes[mine + action.a] < 3:
            return f"A 3-for-1 trade needs three {col[action.a]} cubes."
        if bag[action.b] + (3 if action.a == action.b else 0) < 1:
            return f"There is no {col[action.b]} cube in the bag to draw."
        return None
    return _why_not_ability(tables, state, seat, action)


def _why_not_ability(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    kind = action.kind
    col = tables.colours
    mine = seat * tables.num_colours
    cubes, bag = state.cubes, state.bag
    ability = ABILITY_OF[kind]
    name = ABILITY_WORDS[ABILITIES[ability]]
    if not owns_ability(tables, state, seat, ability):
        return f"You have no upscale bistro with this ability ({name})."
    if used_this_turn(state, ability):
        return f"You have used this ability ({name}) this turn: each is once per turn."
    if kind == SWAP_TWO:
        a, b, c = action.a, action.b, action.c
        if cubes[mine + a] < 1 + (a == b) or cubes[mine + b] < 1:
            return f"You do not hold a {col[a]} and a {col[b]} cube to put into the bag."
        if bag[c] + (a == c) + (b == c) < 1:
            return f"There is no {col[c]} cube in the bag to take."
    elif kind == SWAP_ONE:
        if not cubes[mine + action.a]:
            return f"You have no {col[action.a]} cube to put into the bag."
        if bag[action.c] + (action.a == action.c) < 1:
            return f"There is no {col[action.c]} cube in the bag to take."
    elif kind == PICK:
        if not bag[action.c]:
            return f"There is no {col[action.c]} cube in the bag to take."
    elif kind == EXTRA and not total(bag):
        return "The bag is empty: there is no cube to draw."
    return None


def add_legal_trades(
    tables: BurgerTables, state: BurgerState, seat: int, legal: list[BurgerAction]
) -> None:
    """Append the legal trades, then the legal uses of abilities, in code order: the
    rules of ``why_not_trade`` without the sentences (the hot path of random playouts).

    A colour may be taken from the bag when the bag holds one or when the cubes the
    move puts back include one. Colours are sets of bits here, and each row's actions
    for a set are one tuple of ``BurgerTables.by_mask``.
    """
    nc = tables.num_colours
    cubes, bag = state.cubes, state.bag
    mine = seat * nc
    in_bag = 0  # the colours the bag holds
    for c in range(nc):
        if bag[c]:
            in_bag |= 1 << c
    trade_by_mask = tables.trade_by_mask
    for a in range(nc):
        if cubes[mine + a] >= 3:
            legal.extend(trade_by_mask[a][in_bag | 1 << a])
    nb = tables.num_bistros
    bistros = state.bistros
    for k in range(seat * nb, seat * nb + nb):
        if bistros[k]:
            break
    else:
        return  # no upscale bistro, no ability
    if ability_ready(tables, state, seat, AB_REDRAW):
        legal.append(tables.redraw_action)
    if ability_ready(tables, state, seat, AB_SWAP_TWO):
        swap_two_by_mask = tables.swap_two_by_mask
        for a in range(nc):
            if cubes[mine + a]:
                rows = swap_two_by_mask[a]
                for b in range(a, nc):
                    if cubes[mine + b] >= 1 + (a == b):
                        legal.extend(rows[b - a][in_bag | 1 << a | 1 << b])
    if ability_ready(tables, state, seat, AB_EXTRA) and in_bag:
        legal.append(tables.extra_action)
    if ability_ready(tables, state, seat, AB_SWAP_ONE):
        swap_one_by_mask = tables.swap_one_by_mask
        for a in range(nc):
            if cubes[mine + a]:
                legal.extend(swap_one_by_mask[a][in_bag | 1 << a])
    if ability_ready(tables, state, seat, AB_PICK):
        legal.extend(tables.pick_by_mask[in_bag])


def trade(tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction) -> None:
    """A 3-for-1 trade or an ability (the redraw's first step: it opens the redraw)."""
    mine = seat * tables.num_colours
    cubes, bag = state.cubes, state.bag
    kind = action.kind
    if kind == TRADE3:
        given, got = action.a, action.b
        cubes[mine + given] = cubes[mine + given] - 3
        bag[given] = bag[given] + 3
        bag[got] = bag[got] - 1
        cubes[mine + got] = cubes[mine + got] + 1
        return
    state.used |= 1 << ABILITY_OF[kind]
    if kind == REDRAW_START:
        state.phase = REDRAW
    elif kind == EXTRA:
        draw(state, 1, cubes, mine)
    else:
        if kind == SWAP_TWO:
            for colour in (action.a, action.b):
                cubes[mine + colour] -= 1
                bag[colour] += 1
        elif kind == SWAP_ONE:
            cubes[mine + action.a] -= 1
            bag[action.a] += 1
        bag[action.c] -= 1
        cubes[mine + action.c] += 1


def put_aside(tables: BurgerTables, state: BurgerState, seat: int, colour: int) -> None:
    """Redraw: put one cube aside for the bag."""
    state.cubes[seat * tables.num_colours + colour] -= 1
    state.aside[colour] += 1


def redraw(tables: BurgerTables, state: BurgerState, seat: int) -> None:
    """Redraw: the cubes put aside go into the bag, and as many are drawn at random."""
    nc = tables.num_colours
    mine = seat * nc
    bag, aside, cubes = state.bag, state.aside, state.cubes
    count = total(aside)
    for colour in range(nc):
        bag[colour] += aside[colour]
        aside[colour] = 0
    draw(state, count, cubes, mine)
    state.phase = TRADE


def why_not_redraw_step(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """During the redraw ability: ``None`` if ``action`` (``put`` or ``draw``) is allowed."""
    if action.kind == PUT:
        if not state.cubes[seat * tables.num_colours + action.a]:
            return f"You have no {tables.colours[action.a]} cube to put into the bag."
        return None
    if action.kind == DRAW:
        return None
    return "Finish the redraw ability first: 'put <colour>' cubes, then 'draw'."


def legal_redraw_steps(tables: BurgerTables, state: BurgerState, seat: int) -> list[BurgerAction]:
    """During the redraw ability: a ``put`` per colour held, then ``draw``."""
    nc = tables.num_colours
    mine = seat * nc
    cubes = state.cubes
    held = 0
    for c in range(nc):
        if cubes[mine + c]:
            held |= 1 << c
    legal = list(tables.put_by_mask[held])
    legal.append(tables.draw_action)
    return legal
