"""What each seat may know in Burger Joint (``Game.view``).

Everything on the table is public: both boards, both players' cubes (the
storage areas sit on the shared resource board), the production cubes and
which area each lies in, the scoring markers, the abilities used this turn. The
bag's contents are public too, because anyone can count them (60 cubes minus
those in sight); only the order in which it will give cubes is unknown, and
that is not stored at all: each draw is made from the RNG when it happens.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from potluck.games.burger_joint.end import outcome
from potluck.games.burger_joint.production import reserved_for
from potluck.games.burger_joint.schema import ABILITIES
from potluck.games.burger_joint.scoring import points
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.state import DRAFT, OVER, PHASE_NAMES, BurgerState
from potluck.games.burger_joint.tables import GAME_ID, BurgerTables


def _players(game: BurgerTables, state: BurgerState) -> list[dict[str, Any]]:
    """Both players' boards and cubes."""
    nc, nb = game.num_colours, game.num_bistros
    colours = game.colours
    slots = range(1, nb + 1)  # bistro slots as the notation numbers them
    players = []
    for s in (0, 1):
        cubes = state.cubes[s * nc : s * nc + nc]
        diners = state.diners[s * nc : s * nc + nc]
        bistros = state.bistros[s * nb : s * nb + nb]
        built = sum(diners) + sum(bistros)  # the capacity: a token per diner and bistro
        players.append(
            {
                "seat": s,
                "side": game.sides[s].name,
                "cubes": dict(zip(colours, cubes, strict=True)),
                "cube_count": sum(cubes),
                "score": state.score[s],
                "points_now": points(game, state, s),
                "basics": state.basics[s],
                "diners": list(compress(colours, diners)),
                "bistros": list(compress(slots, bistros)),
                "publicity": state.publicity[s],
                "capacity": built,
                "production": {"owed": state.owed[s], "taken": state.taken[s]},
                "tokens_on_board": state.basics[s] + built,  # as scoring.tokens_on_board
            }
        )
    return players


def build_seat_info(game: BurgerTables, state: BurgerState, seat: int) -> SeatInfo:
    """What the greedy bot reads (``Game.bot_view``): the entries of the view that
    ``SeatInfo.from_view`` reads, copied from the state's lists they are built from."""
    return SeatInfo(
        seat,
        state.phase,
        tuple(state.bag),
        tuple(state.cubes),
        tuple(state.diners),
        tuple(state.bistros),
        tuple(state.basics),
        tuple(state.publicity),
        state.pub_buys,
    )


def build_view(game: BurgerTables, state: BurgerState, seat: int | None) -> dict[str, Any]:
    """The whole table as JSON-ready data (the same for every seat: nothing is private)."""
    nc, colours = game.num_colours, game.colours
    view: dict[str, Any] = {
        "game": GAME_ID,
        "seat": seat,
        "turn": state.turn,
        "active": state.active,
        "phase": PHASE_NAMES[state.phase],
        "to_act": list(state.acting),
        "options": dict(state.options),
        "bag": dict(zip(colours, state.bag, strict=True)),
        "pool": dict(zip(colours, state.pool, strict=True)),
        "players": _players(game, state),
        "abilities_used": [ABILITIES[a] for a in range(len(ABILITIES)) if state.used >> a & 1]
        if state.used
        else [],
        "publicity_bought": state.pub_buys,
        "redraw_aside": dict(zip(colours, state.aside, strict=True)),
        "win_points": game.win,
        "turn_limit": state.options["turn_limit"],
        # Static data, built once per game object and shared by every view: read it,
        # never change it (a fresh copy on each call would double the view's cost).
        "boards": game.boards,
    }
    if state.phase == DRAFT:
        # Areas matter only until each player has made a first pick.
        areas: dict[str, list[str]] = {}
        if 0 in state.taken:
            areas = {"general": [], "Burger": [], "Pizza": []}
            names = ("Burger", "Pizza")
            for c in range(nc):
                if state.pool[c]:
                    owner = reserved_for(game, state, c)
                    areas["general" if owner < 0 else names[owner]].append(colours[c])
        view["areas"] = areas
    if state.phase == OVER:
        result = outcome(game, state)
        view["winners"] = list(result.winners)
        view["result"] = result.reason
    return view
