"""Burger Joint's actions in words, for buttons and menus (``Game.describe_action``).

The canonical text (``publicity steal red and advance``) is the notation a player types;
these sentences say what the move does, with its cost and what it brings, so a button
never needs the notation to be understood.
"""

from __future__ import annotations

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.building import publicity_advance
from potluck.games.burger_joint.schema import ABILITIES, ABILITY_WORDS
from potluck.games.burger_joint.state import (
    BASIC,
    BISTRO,
    DINER,
    DISCARD_ONE,
    DRAW,
    END,
    EXTRA,
    PICK,
    PUB_ADVANCE,
    PUB_BOTH,
    PUB_STEAL,
    PUT,
    REDRAW_START,
    SWAP_ONE,
    SWAP_TWO,
    TAKE,
    TRADE3,
    BurgerState,
)
from potluck.games.burger_joint.tables import BurgerTables


def describe(game: BurgerTables, state: BurgerState, seat: int, action: BurgerAction) -> str:
    """A player-facing sentence for ``action``.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=0)
    >>> game.describe_action(state, 0, game.legal_actions(state, 0)[0])
    'Take a yellow cube from the production'
    """
    kind = action.kind
    col = game.colours
    side = game.sides[seat]
    if kind == TAKE:
        return f"Take a {col[action.a]} cube from the production"
    if kind == TRADE3:
        return f"Trade three {col[action.a]} cubes for one {col[action.b]} from the bag"
    if kind == REDRAW_START:
        return "Redraw (bistro ability): put cubes back, then draw as many"
    if kind == PUT:
        return f"Put a {col[action.a]} cube back for the redraw"
    if kind == DRAW:
        return "Draw the redraw's cubes from the bag"
    if kind == SWAP_TWO:
        return (
            f"Swap a {col[action.a]} and a {col[action.b]} cube for a {col[action.c]} one "
            "(bistro ability)"
        )
    if kind == EXTRA:
        return "Draw one extra cube from the bag (bistro ability)"
    if kind == SWAP_ONE:
        return f"Swap a {col[action.a]} cube for a {col[action.c]} one (bistro ability)"
    if kind == PICK:
        return f"Take a {col[action.c]} cube of your choice from the bag (bistro ability)"
    if kind in (PUB_BOTH, PUB_STEAL, PUB_ADVANCE):
        cost = game.cost_text(side.publicity_cost)
        if kind == PUB_STEAL:
            return f"Buy publicity for {cost}: steal a {col[action.a]} cube (the marker stays)"
        advance = publicity_advance(game, state, seat)
        if kind == PUB_ADVANCE:
            return f"Buy publicity for {cost}: {advance}, stealing nothing"
        return f"Buy publicity for {cost}: steal a {col[action.a]} cube and {advance}"
    if kind == BASIC:
        points = side.basic_points[min(state.basics[seat], len(side.basic_points) - 1)]
        return f"Build a basic restaurant for {game.cost_text(side.basic_cost)} ({points} VP)"
    if kind == DINER:
        cost = game.cost_text(side.diner_cost[action.a])
        return f"Build the {col[action.a]} diner for {cost} ({side.diner_points} VP)"
    if kind == BISTRO:
        k = action.b
        ability = ABILITY_WORDS[ABILITIES[side.bistro_ability[k]]]
        return (
            f"Upgrade the {col[action.a]} diner to bistro {k + 1}, {side.bistro_names[k]}, for "
            f"{game.cost_text(side.bistro_cost[k])} ({side.bistro_points[k]} VP; ability: "
            f"{ability})"
        )
    if kind == END:
        return "End your turn"
    if kind == DISCARD_ONE:
        return f"Discard a {col[action.a]} cube (down to {game.keep})"
    return action.text
