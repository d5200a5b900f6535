"""Burger Joint's observation vector: the (entirely public) table as fixed-size numbers.

Per-player blocks list the observing seat first. Colours are in data order
(``BurgerTables.colours``); the development boards are fixed data, so only which
side is mine is encoded, not the boards themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter, seats_from
from potluck.games.burger_joint.end import outcome
from potluck.games.burger_joint.production import reserved_for
from potluck.games.burger_joint.schema import ABILITIES, MAX_TURN_LIMIT
from potluck.games.burger_joint.scoring import capacity, points, tokens_on_board
from potluck.games.burger_joint.state import DRAFT, OVER, PHASE_NAMES, BurgerState
from potluck.games.burger_joint.tables import BurgerTables

_AREAS = ("general", "mine", "theirs")


def most_points(game: BurgerTables) -> int:
    """The highest Current Score a side's board can give."""
    return max(
        max(side.publicity_points, default=0)
        + side.basics_value[-1]
        + side.diner_points * game.num_colours
        + sum(side.bistro_points)
        for side in game.sides
    )


def features(game: BurgerTables, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
    nc, nb = game.num_colours, game.num_bistros
    cubes = game.cubes_per_colour
    points = most_points(game)
    basics = max(len(side.basic_points) for side in game.sides)
    track = max(len(side.publicity_points) for side in game.sides)
    return [
        Feature("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        Feature("turn", 1, "the turn number (at most MAX_TURN_LIMIT)", high=MAX_TURN_LIMIT),
        Feature("i_am_active", 1, "1 if it is my turn (I am the active player)"),
        Feature("first_pick_german", 1, "1 if the option first_pick is 'german'"),
        Feature("my_side", 2, "one-hot: Burger, Pizza"),
        Feature("bag", nc, "cubes of each colour in the bag", high=cubes),
        Feature("pool", nc, "production cubes of each colour out to pick", high=cubes),
        Feature("areas", 3 * nc, "per area (general, mine, theirs), colour: 1 if cubes lie there"),
        Feature("redraw_aside", nc, "cubes set aside by a redraw, per colour", high=cubes),
        Feature("abilities_used", len(ABILITIES), "1 per bistro ability used this turn"),
        Feature("publicity_bought", 1, "publicity bought this turn", high=track),
        Feature("cubes", 2 * nc, "per player (me first) and colour: cubes in storage", high=cubes),
        Feature("score", 2, "scoring marker of each player, me first", high=points),
        Feature("points_now", 2, "Current Score of each player, me first", high=points),
        Feature("basics", 2, "basic restaurants of each player, me first", high=basics),
        Feature("diners", 2 * nc, "per player (me first) and colour: 1 if the diner is built"),
        Feature("bistros", 2 * nb, "per player (me first) and slot: 1 if the bistro is built"),
        Feature("publicity", 2, "publicity marker position, me first", high=track),
        Feature("capacity", 2, "production capacity, me first", high=game.tokens),
        Feature("owed", 2, "production cubes owed this round, me first", high=game.limit),
        Feature("taken", 2, "production cubes taken this round, me first", high=game.limit),
        Feature("tokens_on_board", 2, "tokens on the board, me first", high=game.tokens),
        Feature("winners", 2, "at the end: 1 for the winner, me first"),
    ]


def encode(game: BurgerTables, view: Mapping[str, Any], out: ObservationWriter) -> None:
    me = view["seat"]
    order = seats_from(me, 2)
    colours = game.colours
    nc = game.num_colours
    out.one_hot("phase", PHASE_NAMES.index(view["phase"]))
    out.set("turn", min(view["turn"], MAX_TURN_LIMIT))
    out.set("i_am_active", view["active"] == me)
    out.set("first_pick_german", view["options"].get("first_pick") == "german")
    out.one_hot("my_side", me)
    out.put("bag", [view["bag"][c] for c in colours])
    out.put("pool", [view["pool"][c] for c in colours])
    sides = {"general": "general", view["players"][me]["side"]: "mine"}
    for area, held in view.get("areas", {}).items():
        slot = _AREAS.index(sides.get(area, "theirs"))
        out.many_hot("areas", (slot * nc + colours.index(c) for c in held))
    out.put("redraw_aside", [view["redraw_aside"][c] for c in colours])
    out.many_hot("abilities_used", (ABILITIES.index(a) for a in view["abilities_used"]))
    out.set("publicity_bought", view["publicity_bought"])
    nb = game.num_bistros
    for slot, seat in enumerate(order):
        player = view["players"][seat]
        for c, colour in enumerate(colours):
            out.set("cubes", player["cubes"][colour], slot * nc + c)
        out.set("score", player["score"], slot)
        out.set("points_now", player["points_now"], slot)
        out.set("basics", player["basics"], slot)
        out.many_hot("diners", (slot * nc + colours.index(c) for c in player["diners"]))
        out.many_hot("bistros", (slot * nb + k - 1 for k in player["bistros"]))
        out.set("publicity", player["publicity"], slot)
        out.set("capacity", player["capacity"], slot)
        out.set("owed", player["production"]["owed"], slot)
        out.set("taken", player["production"]["taken"], slot)
        out.set("tokens_on_board", player["tokens_on_board"], slot)
        if seat in view.get("winners", ()):
            out.set("winners", 1.0, slot)


def encode_state(
    game: BurgerTables, state: BurgerState, seat: int, encoding: ObservationEncoding
) -> list[float]:
    """The same vector as ``encode(view(state, seat))``, written straight from the state.

    Everything in Burger Joint is public, and the conformance suite checks along its
    playouts that this gives exactly the view's vector.
    """
    nc, nb = game.num_colours, game.num_bistros
    at = encoding.starts
    v = [0.0] * encoding.size
    v[at["phase"] + state.phase] = 1.0
    v[at["turn"]] = min(state.turn, MAX_TURN_LIMIT)
    v[at["i_am_active"]] = 1.0 if state.active == seat else 0.0
    v[at["first_pick_german"]] = 1.0 if state.options.get("first_pick") == "german" else 0.0
    v[at["my_side"] + seat] = 1.0
    bag, pool, aside = at["bag"], at["pool"], at["redraw_aside"]
    for c in range(nc):
        v[bag + c] = state.bag[c]
        v[pool + c] = state.pool[c]
        v[aside + c] = state.aside[c]
    if state.phase == DRAFT and 0 in state.taken:
        for c in range(nc):
            if state.pool[c]:
                owner = reserved_for(game, state, c)
                area = 0 if owner < 0 else 1 if owner == seat else 2
                v[at["areas"] + area * nc + c] = 1.0
    for ability in range(len(ABILITIES)):
        if state.used >> ability & 1:
            v[at["abilities_used"] + ability] = 1.0
    v[at["publicity_bought"]] = state.pub_buys
    winners = outcome(game, state).winners if state.phase == OVER else ()
    # Each block's start read once, not once a seat and colour (a search encodes every
    # seat of every world it scores).
    cubes, diners, bistros = at["cubes"], at["diners"], at["bistros"]
    score, points_now, basics = at["score"], at["points_now"], at["basics"]
    publicity, room, owed = at["publicity"], at["capacity"], at["owed"]
    taken, tokens, won = at["taken"], at["tokens_on_board"], at["winners"]
    for slot in range(2):
        s = (seat + slot) % 2
        for c in range(nc):
            v[cubes + slot * nc + c] = state.cubes[s * nc + c]
            v[diners + slot * nc + c] = 1.0 if state.diners[s * nc + c] else 0.0
        for k in range(nb):
            v[bistros + slot * nb + k] = 1.0 if state.bistros[s * nb + k] else 0.0
        v[score + slot] = state.score[s]
        v[points_now + slot] = points(game, state, s)
        v[basics + slot] = state.basics[s]
        v[publicity + slot] = state.publicity[s]
        v[room + slot] = capacity(game, state, s)
        v[owed + slot] = state.owed[s]
        v[taken + slot] = state.taken[s]
        v[tokens + slot] = tokens_on_board(game, state, s)
        v[won + slot] = 1.0 if s in winners else 0.0
    return v
