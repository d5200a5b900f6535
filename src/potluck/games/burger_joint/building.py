"""3) Building: publicity, basic restaurants, specialty diners and upscale bistros.

The active player builds as much as their cubes pay for; paid cubes go back
into the bag, and once building has started no more trading (ruling BJ-8).

- **Publicity**: the first bought in a turn steals a cube from the opponent (the
  buyer chooses it, BJ-3; the steal may be declined, BJ-7) *and* moves the
  marker one space down (BJ-15); each further buy that turn does one or the other.
- **Basic restaurants** fill their column from the top (a token and a free space
  needed, BJ-12).
- **Specialty diners** upgrade the basic restaurant on the lowest occupied space;
  one per colour (BJ-6).
- **Upscale bistros** upgrade any diner of the player's; each bistro once (BJ-13).

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2)
    >>> publicity_advance(game, state, 0)
    "place your publicity marker on the column's first space (1 VP)"
"""

from __future__ import annotations

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.scoring import tokens_on_board
from potluck.games.burger_joint.state import (
    BASIC,
    BUILD,
    DINER,
    PUB_ADVANCE,
    PUB_BOTH,
    PUB_STEAL,
    BurgerState,
)
from potluck.games.burger_joint.tables import BurgerTables


def hand(tables: BurgerTables, state: BurgerState, seat: int) -> int:
    """``seat``'s cubes packed into one integer with every guard bit set
    (``BurgerTables._pack_costs``): it pays a packed cost when ``pays(tables, hand,
    cost)``."""
    nc = tables.num_colours
    cubes, shifts = state.cubes, tables.shifts
    base = seat * nc
    packed = tables.guard
    for colour in range(nc):
        packed += cubes[base + colour] << shifts[colour]
    return packed


def pays(tables: BurgerTables, hand: int, packed_cost: int) -> bool:
    """Whether a packed ``hand`` holds every cube of a packed cost: no field borrows."""
    guard = tables.guard
    return (hand - packed_cost) & guard == guard


def pay(tables: BurgerTables, state: BurgerState, seat: int, cost: tuple[int, ...]) -> None:
    """Pay a cost: the cubes go back into the bag."""
    base = seat * tables.num_colours
    cubes, bag = state.cubes, state.bag
    for colour, count in enumerate(cost):
        if count:
            cubes[base + colour] = cubes[base + colour] - count
            bag[colour] = bag[colour] + count


def publicity_advance(tables: BurgerTables, state: BurgerState, seat: int) -> str:
    """Where buying publicity moves ``seat``'s marker, and what it is then worth.

    The player's first publicity places the marker on the column's first space; later
    ones move it down one space.
    """
    side = tables.sides[seat]
    position = state.publicity[seat]
    if position >= len(side.publicity_points):
        return "go nowhere: the marker is at the bottom of the column"
    points = side.publicity_points[position]
    if position == 0:
        return f"place your publicity marker on the column's first space ({points} VP)"
    return f"move your publicity marker down to space {position + 1} ({points} VP)"


def why_not_build(
    tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction
) -> str | None:
    """For a build in the active player's phases: ``None`` if allowed, else why not."""
    kind = action.kind
    side = tables.sides[seat]
    nc, nb = tables.num_colours, tables.num_bistros
    col = tables.colours
    other = 1 - seat
    if kind in (PUB_BOTH, PUB_STEAL, PUB_ADVANCE):
        if state.publicity[seat] >= len(side.publicity_points):
            return "Your publicity marker is at the bottom of its column: no more publicity."
        if not pays(tables, hand(tables, state, seat), side.packed_publicity):
            return (
                f"You cannot pay for publicity: it costs {tables.cost_text(side.publicity_cost)}."
            )
        if kind == PUB_BOTH:
            if state.pub_buys:
                return (
                    "Only the first publicity of a turn both steals and advances; for this "
                    "one choose 'publicity steal <colour>' or 'publicity advance'."
                )
        elif kind == PUB_STEAL and not state.pub_buys:
            return (
                "The first publicity of a turn always moves the marker (ruling BJ-15): this "
                f"one would {publicity_advance(tables, state, seat)}. Write 'publicity steal "
                "<colour> and advance', or 'publicity advance' to steal nothing."
            )
        if kind != PUB_ADVANCE and not state.cubes[other * nc + action.a]:
            return f"Your opponent has no {col[action.a]} cube to steal."
        return None
    if kind == BASIC:
        if state.basics[seat] >= len(side.basic_points):
            return "Every space of your basic restaurant column is taken."
        if tokens_on_board(tables, state, seat) >= tables.tokens:
            return f"All {tables.tokens} of your development tokens are on your board."
        if not pays(tables, hand(tables, state, seat), side.packed_basic):
            return (
                f"You cannot pay for a basic restaurant: it costs "
                f"{tables.cost_text(side.basic_cost)}."
            )
        return None
    if kind == DINER:
        colour = action.a
        if state.diners[seat * nc + colour]:
            return f"You already own the {col[colour]} diner: one diner per specialty."
        if not state.basics[seat]:
            return (
                "A specialty diner upgrades a basic restaurant, and you have none: "
                "build a basic restaurant first."
            )
        if not pays(tables, hand(tables, state, seat), side.packed_diners[colour]):
            return (
                f"You cannot pay for the {col[colour]} diner: it costs "
                f"{tables.cost_text(side.diner_cost[colour])}."
            )
        return None
    # BISTRO: slot in action.b, upgraded diner's colour in action.a
    slot, colour = action.b, action.a
    name = side.bistro_names[slot]
    if state.bistros[seat * nb + slot]:
        return f"You have built bistro {slot + 1} ({name}) already: each bistro once."
    if not state.diners[seat * nc + colour]:
        return f"An upscale bistro upgrades a specialty diner, and you own no {col[colour]} diner."
    if not pays(tables, hand(tables, state, seat), side.packed_bistros[slot]):
        return (
            f"You cannot pay for bistro {slot + 1} ({name}): it costs "
            f"{tables.cost_text(side.bistro_cost[slot])}."
        )
    return None


def add_legal_builds(
    tables: BurgerTables, state: BurgerState, seat: int, legal: list[BurgerAction]
) -> None:
    """Append the legal builds in code order: the rules of ``why_not_build`` without
    the sentences (this is the hot path of random playouts). Sets of colours are bits
    here, and a row's actions for a set one tuple of ``BurgerTables.by_mask``."""
    nc, nb = tables.num_colours, tables.num_bistros
    side = tables.sides[seat]
    guard = tables.guard
    have = hand(tables, state, seat)
    cubes = state.cubes
    if (
        state.publicity[seat] < len(side.publicity_points)
        and (have - side.packed_publicity) & guard == guard
    ):
        other = (1 - seat) * nc
        theirs = 0  # the colours the opponent holds
        for c in range(nc):
            if cubes[other + c]:
                theirs |= 1 << c
        steals = tables.pub_steal_by_mask if state.pub_buys else tables.pub_both_by_mask
        legal.extend(steals[theirs])
        legal.append(tables.pub_advance_action)
    basics = state.basics[seat]
    diners, bistros = state.diners, state.bistros
    tokens = basics  # on the board: basic restaurants, diners and bistros
    owned = 0  # the colours of the diners owned
    mine = seat * nc  # where the seat's diners start (worked out once, not per colour)
    for c in range(nc):
        diner = diners[mine + c]
        if diner:
            owned |= 1 << c
            tokens += diner
    for k in range(seat * nb, seat * nb + nb):
        tokens += bistros[k]
    if (
        basics < len(side.basic_points)
        and tokens < tables.tokens
        and (have - side.packed_basic) & guard == guard
    ):
        legal.append(tables.basic_action)
    if basics:
        costs = side.packed_diners
        payable = 0  # the colours of the diners not owned that ``have`` pays for
        for c in range(nc):
            if not owned >> c & 1 and (have - costs[c]) & guard == guard:
                payable |= 1 << c
        legal.extend(tables.diner_by_mask[payable])
    if owned:
        costs = side.packed_bistros
        bistro_by_mask = tables.bistro_by_mask
        for k in range(nb):
            if not bistros[seat * nb + k] and (have - costs[k]) & guard == guard:
                legal.extend(bistro_by_mask[k][owned])


def build(tables: BurgerTables, state: BurgerState, seat: int, action: BurgerAction) -> None:
    """Build what ``action`` names, paying its cost; trading is over for the turn."""
    kind = action.kind
    side = tables.sides[seat]
    nc, nb = tables.num_colours, tables.num_bistros
    state.phase = BUILD
    if kind in (PUB_BOTH, PUB_STEAL, PUB_ADVANCE):
        pay(tables, state, seat, side.publicity_cost)
        if kind != PUB_ADVANCE:
            theirs = (1 - seat) * nc + action.a
            state.cubes[theirs] -= 1
            state.cubes[seat * nc + action.a] += 1
        if kind != PUB_STEAL:
            state.publicity[seat] += 1
        state.pub_buys += 1
    elif kind == BASIC:
        pay(tables, state, seat, side.basic_cost)
        state.basics[seat] += 1  # the highest open space
    elif kind == DINER:
        pay(tables, state, seat, side.diner_cost[action.a])
        state.basics[seat] -= 1  # the token comes from the lowest occupied space
        state.diners[seat * nc + action.a] = 1
    else:
        pay(tables, state, seat, side.bistro_cost[action.b])
        state.diners[seat * nc + action.a] = 0
        state.bistros[seat * nb + action.b] = 1
