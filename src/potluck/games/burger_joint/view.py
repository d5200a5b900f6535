"""What each seat may know in Burger Joint (``Game.view``).

Everything on the table is public: both boards, both players' cubes (the
storage areas sit on the shared resource board), the production cubes and
which area each lies in, the scoring markers, the abilities used this turn. The
bag's contents are public too, because anyone can count them (60 cubes minus
those in sight); only the order in which it will give cubes is unknown, and
that is not stored at all: each draw is made from the RNG when it happens.
"""

from __future__ import annotations

from typing import Any

from potluck.games.burger_joint.end_of_game import outcome
from potluck.games.burger_joint.production import reserved_for
from potluck.games.burger_joint.schema import ABILITIES
from potluck.games.burger_joint.scoring import capacity, points, tokens_on_board
from potluck.games.burger_joint.state import DRAFT, OVER, PHASE_NAMES, BurgerState
from potluck.games.burger_joint.tables import GAME_ID, BurgerTables


def _counts(game: BurgerTables, values: list[int]) -> dict[str, int]:
    return {game.colours[c]: values[c] for c in range(game.num_colours)}


def build_view(game: BurgerTables, state: BurgerState, seat: int | None) -> dict[str, Any]:
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
                "points_now": points(game, state, s),
                "basics": state.basics[s],
                "diners": [game.colours[c] for c in range(nc) if state.diners[s * nc + c]],
                "bistros": [k + 1 for k in range(nb) if state.bistros[s * nb + k]],
                "publicity": state.publicity[s],
                "capacity": capacity(game, state, s),
                "production": {"owed": state.owed[s], "taken": state.taken[s]},
                "tokens_on_board": tokens_on_board(game, state, s),
            }
        )
    view: dict[str, Any] = {
        "game": GAME_ID,
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
                owner = reserved_for(game, state, c)
                areas["general" if owner < 0 else names[owner]].append(game.colours[c])
        # Areas matter only until each player has made a first pick.
        view["areas"] = areas if 0 in state.taken else {}
    if state.phase == OVER:
        result = outcome(game, state)
        view["winners"] = list(result.winners)
        view["result"] = result.reason
    return view
