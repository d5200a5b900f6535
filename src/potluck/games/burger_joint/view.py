"""What each seat may know in Burger Joint, re-dealing, and the game's invariants.

Everything on the table is public: both boards, both players' cubes (the
storage areas sit on the shared resource board), the production cubes and
which area each lies in, the scoring markers, the abilities used this turn. The
bag's contents are public too, because anyone can count them (60 cubes minus
those in sight); only the order in which it will give cubes is unknown, and
that is not stored at all: each draw is made from the RNG when it happens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from potluck.games.burger_joint.schema import ABILITIES
from potluck.games.burger_joint.state import (
    DISCARD,
    DRAFT,
    NO_WINNER,
    OVER,
    PHASE_NAMES,
    BurgerState,
)

if TYPE_CHECKING:
    from potluck.games.burger_joint.rules import BurgerJoint


def _counts(game: BurgerJoint, values: list[int]) -> dict[str, int]:
    return {game.colours[c]: values[c] for c in range(game.num_colours)}


def _cost(game: BurgerJoint, cost: tuple[int, ...]) -> dict[str, int]:
    return {game.colours[c]: n for c, n in enumerate(cost) if n}


def boards_json(game: BurgerJoint) -> list[dict[str, Any]]:
    """Both development boards: what each item costs and is worth (public data)."""
    boards = []
    for side in game.sides:
        boards.append(
            {
                "side": side.name,
                "publicity": {
                    "cost": _cost(game, side.publicity_cost),
                    "track": list(side.publicity_points),
                },
                "basic": {
                    "cost": _cost(game, side.basic_cost),
                    "spaces": list(side.basic_points),
                },
                "diners": {
                    game.colours[c]: _cost(game, side.diner_cost[c])
                    for c in range(game.num_colours)
                },
                "diner_points": side.diner_points,
                "bistros": [
                    {
                        "slot": k + 1,
                        "name": side.bistro_names[k],
                        "points": side.bistro_points[k],
                        "ability": ABILITIES[side.bistro_ability[k]],
                        "cost": _cost(game, side.bistro_cost[k]),
                    }
                    for k in range(game.num_bistros)
                ],
            }
        )
    return boards


def build_view(game: BurgerJoint, state: BurgerState, seat: int | None) -> dict[str, Any]:
    """The whole table as JSON-ready data (the same for every seat: nothing is private)."""
    nc, nb = game.num_colours, game.num_bistros
    players = []
    for s in (0, 1):
        side = game.sides[s]
        players.append(
            {
                "seat": s,
                "side": side.name,
                "cubes": _counts(game, state.cubes[s * nc : s * nc + nc]),
                "cube_count": sum(state.cubes[s * nc : s * nc + nc]),
                "score": state.score[s],
                "points_now": game.points(state, s),
                "basics": state.basics[s],
                "diners": [game.colours[c] for c in range(nc) if state.diners[s * nc + c]],
                "bistros": [k + 1 for k in range(nb) if state.bistros[s * nb + k]],
                "publicity": state.publicity[s],
                "capacity": game.capacity(state, s),
                "production": {"owed": state.owed[s], "taken": state.taken[s]},
                "tokens_on_board": game.tokens_on_board(state, s),
            }
        )
    view: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "turn": state.turn,
        "active": state.active,
        "phase": PHASE_NAMES[state.phase],
        "to_act": list(state.acting),
        "options": dict(state.options),
        "bag": _counts(game, state.bag),
        "pool": _counts(game, state.pool),
        "players": players,
        "abilities_used": [ABILITIES[a] for a in range(len(ABILITIES)) if state.used >> a & 1],
        "publicity_bought": state.pub_buys,
        "redraw_aside": _counts(game, state.aside),
        "win_points": game.win,
        "turn_limit": state.options["turn_limit"],
        # Static data, built once per game object and shared by every view: read it,
        # never change it (a fresh copy on each call would double the view's cost).
        "boards": game.boards,
    }
    if state.phase == DRAFT:
        areas: dict[str, list[str]] = {"general": [], "Burger": [], "Pizza": []}
        names = ("Burger", "Pizza")
        for c in range(nc):
            if state.pool[c]:
                owner = game.reserved_for(state, c)
                areas["general" if owner < 0 else names[owner]].append(game.colours[c])
        # Areas matter only until each player has made a first pick.
        view["areas"] = areas if 0 in state.taken else {}
    if state.phase == OVER:
        outcome = game.outcome(state)
        view["winners"] = list(outcome.winners)
        view["result"] = outcome.reason
    return view


def _turn_problems(game: BurgerJoint, state: BurgerState) -> list[str]:
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


def invariant_problems(game: BurgerJoint, state: BurgerState) -> list[str]:
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
        if game.tokens_on_board(state, s) > game.tokens:
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
