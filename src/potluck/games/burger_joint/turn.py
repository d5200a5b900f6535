"""Play Of A Turn: the five actions in order, and which one a step belongs to.

Players alternate as the active player. A turn is 1) Production
(``production``), 2) Trading & Special Abilities (``trading``), 3) Building
(``building``), 4) Calculate Current Score (``scoring``) and 5) Discard Excess
Cubes (``discard``); then the other player's turn starts, unless the option
``turn_limit`` ends the game (``end``). This module routes each action
to its chapter: what is legal now, why an action is not, and what it does.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=7)
    >>> [str(a) for a in legal_actions(game, state, 0)]
    ['take white', 'take yellow', 'take brown']
"""

from __future__ import annotations

from typing import Final

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.building import add_legal_builds, build, why_not_build
from potluck.games.burger_joint.discard import (
    discard,
    legal_discards,
    next_discarder,
    why_not_discard,
)
from potluck.games.burger_joint.end import turn_limit_reached, win_at_once
from potluck.games.burger_joint.production import legal_takes, start_turn, take, why_not_take
from potluck.games.burger_joint.scoring import score
from potluck.games.burger_joint.state import (
    DISCARD,
    DISCARD_ONE,
    DRAFT,
    DRAW,
    END,
    OVER,
    PUT,
    REDRAW,
    TAKE,
    TRADE,
    BurgerState,
)
from potluck.games.burger_joint.tables import BurgerTables
from potluck.games.burger_joint.trading import (
    IS_TRADE,
    add_legal_trades,
    legal_redraw_steps,
    put_aside,
    redraw,
    trade,
    why_not_redraw_step,
    why_not_trade,
)

_NOT_NOW: Final = {TAKE: "production", PUT: "a redraw", DRAW: "a redraw", DISCARD_ONE: "discard"}
#: ``_NOT_NOW`` by kind ("" for the kinds of the trading and building phase).
_NOT_NOW_BY_KIND: Final = tuple(_NOT_NOW.get(kind, "") for kind in range(DISCARD_ONE + 1))
#: ``state.acting`` for the seat to act, shared (a tuple is never changed).
_ACTING: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def legal_actions(tables: BurgerTables, state: BurgerState, seat: int) -> list[BurgerAction]:
    """Every action ``seat`` may take now, in code order (none if it is not to act)."""
    if seat not in state.acting:
        return []
    phase = state.phase
    if phase == DRAFT:
        return legal_takes(tables, state, seat)
    if phase == DISCARD:
        return legal_discards(tables, state, seat)
    if phase == REDRAW:
        return legal_redraw_steps(tables, state, seat)
    legal: list[BurgerAction] = []
    if phase == TRADE:
        add_legal_trades(tables, state, seat, legal)
    add_legal_builds(tables, state, seat, legal)
    legal.append(tables.end_action)
    return legal


def why_not(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """``None`` if ``seat`` (who is to act) may take ``action``, else the reason why not."""
    kind, phase = action.kind, state.phase
    if phase == DRAFT:
        return why_not_take(tables, state, seat, action)
    if phase == DISCARD:
        return why_not_discard(tables, state, seat, action)
    if phase == REDRAW:
        return why_not_redraw_step(tables, state, seat, action)
    if phase == OVER:  # pragma: no cover - the engine refuses first
        return "The game is over."
    # TRADE or BUILD: the active player's own phases.
    not_now = _NOT_NOW_BY_KIND[kind]
    if not_now:
        return f"This is not {not_now} time: it is your trading and building phase."
    if kind == END:
        return None
    if IS_TRADE[kind]:
        return why_not_trade(tables, state, seat, action)
    return why_not_build(tables, state, seat, action)


def apply(tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction) -> None:
    """Make the change of a legal ``action``, drawing any cubes it calls for."""
    kind = action.kind
    if kind == TAKE:
        take(tables, state, seat, action.a)
    elif kind == DISCARD_ONE:
        discard(tables, state, seat, action.a)
        end_turn(tables, state)
    elif kind == PUT:
        put_aside(tables, state, seat, action.a)
    elif kind == DRAW:
        redraw(tables, state, seat)
    elif kind == END:
        score(tables, state, seat)
        if not win_at_once(tables, state, seat):
            end_turn(tables, state)
    elif IS_TRADE[kind]:
        trade(tables, state, seat, action)
    else:
        build(tables, state, seat, action)


def end_turn(tables: BurgerTables, state: BurgerState) -> None:
    """After scoring: Discard Excess Cubes while someone must, then the turn limit or
    the other player's turn."""
    seat = next_discarder(tables, state)
    if seat >= 0:
        state.phase = DISCARD
        state.acting = _ACTING[seat]
        return
    if turn_limit_reached(state):
        state.phase = OVER
        state.acting = ()
        return
    state.active = 1 - state.active
    start_turn(tables, state)
