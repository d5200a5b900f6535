"""Burger Joint's tables: the two development boards as count vectors, the constants
and every action, built once per game from the board data.

The rules chapter modules (``production``, ``trading``, ``building``, ...) and the
modules that show the game (``view``, ``encoding``, ``describe``, ``bots``) take a
``BurgerTables``; the ``BurgerJoint`` class (``game.py``) is one, so they never
import the class that imports them (docs/engine.md, "The shape of a game").

    >>> import potluck
    >>> tables = potluck.load_game("burger-joint")  # the game is its own tables
    >>> tables.colours[:2], len(tables.actions), tables.cost_text(tables.sides[0].publicity_cost)
    (('white', 'black'), 282, '1 white, 1 red')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from potluck.engine.game import Game
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.schema import ABILITIES, BoardData
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

#: The game's id in the registry (``BurgerJoint.id``).
GAME_ID = "burger-joint"


class Side:
    """One development board, turned into count vectors indexed by colour.

    >>> import potluck
    >>> burger = potluck.load_game("burger-joint").sides[0]
    >>> burger.name, burger.basic_cost, burger.basics_value
    ('Burger', (0, 1, 1, 0, 1, 0), (0, 0, 0, 1, 1, 2, 3))
    """

    def __init__(self, data: BoardData, index: int) -> None:
        spec = data.sides[index]
        colours = data.colours
        self.name = spec.name

        def vector(cost: list[str]) -> tuple[int, ...]:
            return tuple(cost.count(colour) for colour in colours)

        self.start_basics = spec.start_basics
        self.start_diners = tuple(1 if c in spec.start_diners else 0 for c in colours)
        self.publicity_cost = vector(spec.publicity_cost)
        self.publicity_points = tuple(spec.publicity_points)
        self.basic_cost = vector(spec.basic_cost)
        self.basic_points = tuple(spec.basic_points)
        # VP of the basic column holding k restaurants (they fill it from the top).
        self.basics_value = tuple(
            sum(spec.basic_points[:k]) for k in range(len(spec.basic_points) + 1)
        )
        self.diner_points = spec.diner_points
        by_colour = {d.colour: vector(d.cost) for d in spec.diners}
        self.diner_cost = tuple(by_colour[c] for c in colours)
        self.bistro_names = tuple(b.name for b in spec.bistros)
        self.bistro_cost = tuple(vector(b.cost) for b in spec.bistros)
        self.bistro_points = tuple(b.points for b in spec.bistros)
        self.bistro_ability = tuple(ABILITIES.index(b.ability) for b in spec.bistros)
        # Packed costs (``BurgerTables._pack_costs``), set once the field width is known.
        self.packed_publicity = self.packed_basic = 0
        self.packed_diners: tuple[int, ...] = ()
        self.packed_bistros: tuple[int, ...] = ()
        #: The bistro slot holding each ability, or -1.
        self.ability_slot = tuple(
            self.bistro_ability.index(a) if a in self.bistro_ability else -1
            for a in range(len(ABILITIES))
        )

    def all_costs(self) -> list[tuple[int, ...]]:
        """Every cost on the board."""
        return [self.publicity_cost, self.basic_cost, *self.diner_cost, *self.bistro_cost]


@mypyc_attr(allow_interpreted_subclasses=True)
class BurgerTables(Game[BurgerState, BurgerAction]):
    """What a game of Burger Joint fixes when it is built: boards, constants, actions.

    Action codes follow the notation table of ``docs/games/burger-joint.md``:
    ``take``, ``trade``, ``redraw``, ``put``, ``draw``, ``swap-two``, ``extra``,
    ``swap-one``, ``pick``, the publicity actions, ``basic``, ``diner``,
    ``bistro``, ``end``, ``discard``.
    """

    def __init__(self, data: BoardData) -> None:
        self.data = data
        self.colours = tuple(data.colours)
        self.num_colours = nc = len(self.colours)
        #: Seat 0's board, then seat 1's (typed as a tuple of any length, so that
        #: ``sides[seat]`` reads an item without boxing a fixed-length tuple first).
        self.sides: tuple[Side, ...] = (Side(data, 0), Side(data, 1))
        self.num_bistros = nb = len(data.sides[0].bistros)
        self.limit, self.keep, self.win = data.production_limit, data.keep, data.win_points
        self.tokens = data.tokens
        self.cubes_per_colour = data.cubes_per_colour

        actions: list[BurgerAction] = []

        def add(text: str, kind: int, a: int = -1, b: int = -1, c: int = -1) -> BurgerAction:
            action = BurgerAction(len(actions), text, kind, a, b, c)
            actions.append(action)
            return action

        col = self.colours
        self.take_actions = tuple(add(f"take {col[c]}", TAKE, c) for c in range(nc))
        self.trade_actions = tuple(
            add(f"trade {col[a]} for {col[b]}", TRADE3, a, b) for a in range(nc) for b in range(nc)
        )
        self.redraw_action = add("redraw", REDRAW_START)
        self.put_actions = tuple(add(f"put {col[c]}", PUT, c) for c in range(nc))
        self.draw_action = add("draw", DRAW)
        self.swap_two_actions = tuple(
            add(f"swap-two {col[a]} {col[b]} for {col[c]}", SWAP_TWO, a, b, c)
            for a in range(nc)
            for b in range(a, nc)
            for c in range(nc)
        )
        self.extra_action = add("extra", EXTRA)
        self.swap_one_actions = tuple(
            add(f"swap-one {col[a]} for {col[c]}", SWAP_ONE, a, -1, c)
            for a in range(nc)
            for c in range(nc)
        )
        self.pick_actions = tuple(add(f"pick {col[c]}", PICK, -1, -1, c) for c in range(nc))
        self.pub_both_actions = tuple(
            add(f"publicity steal {col[c]} and advance", PUB_BOTH, c) for c in range(nc)
        )
        self.pub_steal_actions = tuple(
            add(f"publicity steal {col[c]}", PUB_STEAL, c) for c in range(nc)
        )
        self.pub_advance_action = add("publicity advance", PUB_ADVANCE)
        self.basic_action = add("basic", BASIC)
        self.diner_actions = tuple(add(f"diner {col[c]}", DINER, c) for c in range(nc))
        self.bistro_actions = tuple(
            add(f"bistro {k + 1} from {col[c]}", BISTRO, c, k) for k in range(nb) for c in range(nc)
        )
        self.end_action = add("end", END)
        self.discard_actions = tuple(add(f"discard {col[c]}", DISCARD_ONE, c) for c in range(nc))
        self.actions = tuple(actions)
        self.by_text = {a.text: a for a in actions}
        #: ``(seat, action)`` for both seats and every action, by the action's index: the
        #: entries of ``state.history``, shared rather than a new tuple made at every step
        #: (typed ``Any``: compiled code would unpack a typed pair and pack it again).
        self.moves: tuple[tuple[Any, ...], ...] = tuple(
            tuple((seat, action) for action in actions) for seat in range(2)
        )
        # Rows of the action tables, for generating legal actions without index sums.
        self.trade_rows = tuple(self.trade_actions[a * nc : a * nc + nc] for a in range(nc))
        rows = iter(
            self.swap_two_actions[i : i + nc] for i in range(0, len(self.swap_two_actions), nc)
        )
        #: ``swap_two_rows[a][b - a]``: the swap-two actions giving up ``a`` and ``b`` (a <= b).
        self.swap_two_rows = tuple(tuple(next(rows) for _ in range(a, nc)) for a in range(nc))
        self.swap_one_rows = tuple(self.swap_one_actions[a * nc : a * nc + nc] for a in range(nc))
        self.bistro_rows = tuple(self.bistro_actions[k * nc : k * nc + nc] for k in range(nb))
        # The same rows by a set of colours as bits (bit ``c``: colour ``c``), each the
        # row's actions for those colours in colour order: a legal list extends one
        # tuple instead of testing and appending action by action.
        self.take_by_mask = self.by_mask(self.take_actions)
        self.trade_by_mask = tuple(self.by_mask(row) for row in self.trade_rows)
        self.swap_two_by_mask = tuple(
            tuple(self.by_mask(row) for row in rows) for rows in self.swap_two_rows
        )
        self.swap_one_by_mask = tuple(self.by_mask(row) for row in self.swap_one_rows)
        self.pick_by_mask = self.by_mask(self.pick_actions)
        self.pub_both_by_mask = self.by_mask(self.pub_both_actions)
        self.pub_steal_by_mask = self.by_mask(self.pub_steal_actions)
        self.diner_by_mask = self.by_mask(self.diner_actions)
        self.bistro_by_mask = tuple(self.by_mask(row) for row in self.bistro_rows)
        self.discard_by_mask = self.by_mask(self.discard_actions)
        self.put_by_mask = self.by_mask(self.put_actions)
        self._pack_costs()
        #: Both boards' costs and values as JSON-ready data (shared by every view).
        self.boards = boards_json(self)

    def by_mask(self, row: tuple[BurgerAction, ...]) -> tuple[tuple[BurgerAction, ...], ...]:
        """``row`` (one action per colour) for every set of colours as bits: entry
        ``mask`` holds ``row[c]`` for each bit ``c`` of ``mask``, in colour order.

            >>> import potluck
            >>> [str(a) for a in potluck.load_game("burger-joint").take_by_mask[0b101]]
            ['take white', 'take yellow']
        """
        nc = self.num_colours
        return tuple(tuple(row[c] for c in range(nc) if mask >> c & 1) for mask in range(1 << nc))

    def _pack_costs(self) -> None:
        """Costs as packed integers, so that whether a hand pays one is one subtraction.

        Colour ``c`` takes the bits ``c * W`` to ``c * W + W - 1`` of an integer, the
        top one a guard bit. A hand packed with every guard bit set (``hand``) pays a
        packed cost when no field borrows: ``(hand - cost) & guard == guard``, since
        each field's count and cost fit below its guard bit.
        """
        largest = max(
            [self.cubes_per_colour]
            + [n for side in self.sides for cost in side.all_costs() for n in cost]
        )
        width = largest.bit_length() + 1
        #: The bit offset of each colour's field.
        self.shifts = tuple(width * c for c in range(self.num_colours))
        #: Every field's guard bit.
        self.guard = sum(1 << (shift + width - 1) for shift in self.shifts)
        for side in self.sides:
            side.packed_publicity = self.pack(side.publicity_cost)
            side.packed_basic = self.pack(side.basic_cost)
            side.packed_diners = tuple(self.pack(cost) for cost in side.diner_cost)
            side.packed_bistros = tuple(self.pack(cost) for cost in side.bistro_cost)

    def pack(self, counts: Sequence[int]) -> int:
        """Counts per colour as one integer (see ``_pack_costs``), without guard bits."""
        return sum(n << shift for n, shift in zip(counts, self.shifts, strict=True))

    def cost_text(self, cost: tuple[int, ...]) -> str:
        """A cost in words: ``2 white, 1 red``."""
        return ", ".join(f"{n} {self.colours[c]}" for c, n in enumerate(cost) if n)


def _cost(tables: BurgerTables, cost: tuple[int, ...]) -> dict[str, int]:
    return {tables.colours[c]: n for c, n in enumerate(cost) if n}


def boards_json(tables: BurgerTables) -> list[dict[str, Any]]:
    """Both development boards: what each item costs and is worth (public data)."""
    boards = []
    for side in tables.sides:
        boards.append(
            {
                "side": side.name,
                "publicity": {
                    "cost": _cost(tables, side.publicity_cost),
                    "track": list(side.publicity_points),
                },
                "basic": {
                    "cost": _cost(tables, side.basic_cost),
                    "spaces": list(side.basic_points),
                },
                "diners": {
                    tables.colours[c]: _cost(tables, side.diner_cost[c])
                    for c in range(tables.num_colours)
                },
                "diner_points": side.diner_points,
                "bistros": [
                    {
                        "slot": k + 1,
                        "name": side.bistro_names[k],
                        "points": side.bistro_points[k],
                        "ability": ABILITIES[side.bistro_ability[k]],
                        "cost": _cost(tables, side.bistro_cost[k]),
                    }
                    for k in range(tables.num_bistros)
                ],
            }
        )
    return boards
