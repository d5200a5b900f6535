"""Burger Joint's greedy bot's model of its own board (``bots.GreedyBot``): its weights,
the plans that bots with the same weights share in a game (both sides' bistro tables and
the builds' gains by board) and the cube counts packed into one whole number per build,
on which the bot works out what each build lacks and what its plan wants (issue 36;
``tests/test_burger_joint_bots.py`` holds the packed sums equal to the plain ones).

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> weights = Weights(CAPACITY_VALUE, 1.0, BASIC_READY, CUBE_VALUE, STEAL_VALUE, 2)
    >>> plans = plans_for(game, weights)
    >>> plans is plans_for(game, weights), plans.pack([1, 0, 2]) == 1 + (2 << 2 * plans.width)
    (True, True)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Final, NamedTuple

from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.tables import BurgerTables, Side

#: What one unit of production capacity is worth, in victory points.
CAPACITY_VALUE: Final = 0.9
#: What each bistro ability is worth per game, in victory points (in the order of
#: ``schema.ABILITIES``: redraw, swap-two, extra, swap-one, pick, none).
ABILITY_VALUE: Final[tuple[float, ...]] = (0.15, 0.35, 0.55, 0.35, 0.7, 0.0)
#: Worth of owning at least one basic restaurant (a diner can be built on it).
BASIC_READY: Final = 0.35
#: Worth of a cube spent, so that a build must gain more than it costs.
CUBE_VALUE: Final = 0.06
#: Worth of a stolen cube.
STEAL_VALUE: Final = 0.3
#: How many of the most promising builds make up the plan whose cubes it gathers.
PLAN_BUILDS: Final = 2


class Weights(NamedTuple):
    """The greedy bot's parameters (``GreedyBot.params`` says what each means); part
    of the key of the plans it shares between bots, since the gains depend on them."""

    capacity_value: float
    ability_weight: float
    basic_ready_value: float
    cube_cost: float
    steal_value: float
    plan_builds: int


class _BistroTable:
    """A side's bistros by set (bit ``k`` of a mask: slot ``k`` built): VP, count and
    ability worth, so that valuing a board is a few look-ups.

    The ability worths are summed in slot order, as a loop over the set of slots
    would, so every value is the same float."""

    def __init__(self, side: Side, ability_weight: float) -> None:
        slots = range(len(side.bistro_points))
        masks = range(1 << len(slots))
        self.points = [sum(side.bistro_points[k] for k in slots if m >> k & 1) for m in masks]
        self.count = [sum(1 for k in slots if m >> k & 1) for m in masks]
        # At the default weight of 1.0 every product is the hand-set worth exactly.
        ability = [ABILITY_VALUE[side.bistro_ability[k]] * ability_weight for k in slots]
        self.worth = [sum(ability[k] for k in slots if m >> k & 1) for m in masks]


#: A build that gains: (gain, cost as (colour, count) pairs, kind, colour or slot).
Gain = tuple[float, tuple[tuple[int, int], ...], str, int]


class Plans:
    """What bots with the same weights reuse within one game object: both sides'
    bistro tables, the builds' gains by board (they do not depend on the cubes) and
    the layout of cube counts packed into one whole number (``pack``).

    Packed, every colour has a field of ``width`` bits, the top one a guard bit that
    no count or cost reaches: a player holds at most ``cubes_per_colour`` of a colour
    and all the builds of a board together cost fewer cubes of it than that bound,
    so sums of costs never carry from one field into the next (``OwnBoard.demand``)."""

    def __init__(self, game: BurgerTables, weights: Weights) -> None:
        ability = weights.ability_weight
        self.bistros = (_BistroTable(game.sides[0], ability), _BistroTable(game.sides[1], ability))
        #: The builds' gains by board (``OwnBoard.board``).
        self.gains: dict[int, Board] = {}
        bound = game.cubes_per_colour
        for side in game.sides:
            # Every build at once: the most a plan can add up.
            every = sum(sum(cost) for cost in side.all_costs())
            bound = max(bound, every)
        self.width = width = bound.bit_length() + 1
        self.shifts = [width * c for c in range(game.num_colours)]
        #: Every field's guard bit, and all the bits of a field (at field 0).
        self.guard = sum(1 << (shift + width - 1) for shift in self.shifts)
        self.full = (1 << width) - 1
        #: Each side's builds' costs as the bot reads them, by seat (``SideCosts``).
        self.costs = (SideCosts(game.sides[0], self), SideCosts(game.sides[1], self))

    def pack(self, counts: Sequence[int]) -> int:
        """``counts`` per colour as one whole number, a field per colour."""
        packed = 0
        for c in range(len(counts)):
            packed |= counts[c] << self.shifts[c]
        return packed


class Cost:
    """A build's cost as the bot reads it: the cubes in all, the (colour, count) pairs of
    the colours it takes, and the counts packed (``Plans.pack``). Worked out once per
    side and build when the plans are made, not at every new board the bot meets (each
    new board's builds were a quarter of 30 greedy games' instructions, issue 36)."""

    def __init__(self, cost: tuple[int, ...], plans: Plans) -> None:
        self.total = sum(cost)
        self.needs = tuple([(c, n) for c, n in enumerate(cost) if n])
        self.packed = plans.pack(cost)


class SideCosts:
    """Every build's ``Cost`` on one side's board, named as ``tables.Side`` names the
    costs."""

    def __init__(self, side: Side, plans: Plans) -> None:
        self.publicity = Cost(side.publicity_cost, plans)
        self.basic = Cost(side.basic_cost, plans)
        self.diner = tuple([Cost(cost, plans) for cost in side.diner_cost])
        self.bistro = tuple([Cost(cost, plans) for cost in side.bistro_cost])


class Board:
    """The builds one board allows that gain (``OwnBoard._gains``), with their gains and
    costs also laid out as numbers for the loops that every decision on that board runs
    (``OwnBoard.missing``, ``OwnBoard.demand``): no tuple of pairs unpacked per build and
    decision. Held in tuples, which Python's cyclic garbage collector stops visiting
    once it finds they hold only numbers, strings and such tuples (lists it visits at
    every collection, and thousands of boards are kept)."""

    def __init__(self, gains: list[Gain], gain: list[float], packed: list[int]) -> None:
        self.gains = tuple(gains)
        self.count = len(gains)
        #: Per build: its gain.
        self.gain = tuple(gain)
        #: Per build: its cost packed (``Plans.pack``).
        self.packed = tuple(packed)


class _Builds:
    """The builds that gain, gathered for a ``Board`` (``OwnBoard._gains``): each one's
    ``Gain`` and, apart, its gain and packed cost."""

    def __init__(self, cube_cost: float) -> None:
        self.cube_cost = cube_cost
        self.gains: list[Gain] = []
        self.gain: list[float] = []
        self.packed: list[int] = []

    def add(self, gain: float, cost: Cost, kind: str, x: int) -> None:
        """The build, if it gains once the cubes it costs are counted."""
        gain -= self.cube_cost * cost.total
        if gain > 0:
            self.gains.append((gain, cost.needs, kind, x))
            self.gain.append(gain)
            self.packed.append(cost.packed)

    def board(self) -> Board:
        return Board(self.gains, self.gain, self.packed)


#: Each game's plans by the weights they were made with, made on the first decision.
_PLANS: weakref.WeakKeyDictionary[BurgerTables, dict[Weights, Plans]] = weakref.WeakKeyDictionary()
#: Boards remembered per game and weights before the memory starts afresh.
_MAX_BOARDS: Final = 50_000
#: Sets of weights whose plans are kept per game (a tuning run tries many) before
#: they are all forgotten.
_MAX_WEIGHTS: Final = 8


def plans_for(game: BurgerTables, weights: Weights) -> Plans:
    """The plans bots with ``weights`` share in ``game`` (made on the first call)."""
    by_weights = _PLANS.get(game)
    if by_weights is None:
        by_weights = _PLANS[game] = {}
    plans = by_weights.get(weights)
    if plans is None:
        if len(by_weights) >= _MAX_WEIGHTS:
            by_weights.clear()
        plans = by_weights[weights] = Plans(game, weights)
    return plans


#: Bits of a board's key given to its basics and to its publicity (``OwnBoard.board``).
_COUNT_BITS: Final = 8


class OwnBoard:
    """The bot's own board, read from its ``SeatInfo``, with the moves a build makes on it.

    Diners are colour masks (bit ``c``: colour ``c``) and bistros a slot mask, so that
    reading the board makes no sets; the builds' gains are kept per board, keyed by one
    whole number (``board``)."""

    def __init__(self, game: BurgerTables, info: SeatInfo, weights: Weights, plans: Plans) -> None:
        seat = info.seat
        self.game = game
        self.side: Side = game.sides[seat]
        self.plans = plans
        self.weights = weights
        self.plan_builds = weights.plan_builds
        self.seat = seat
        self.info = info
        self.bistro_table = plans.bistros[seat]
        nc, nb = game.num_colours, game.num_bistros
        mine, other = seat * nc, (1 - seat) * nc
        #: Where the other player's entries start in the per-seat-and-colour fields.
        self.other = other
        cubes, diners = info.cubes, info.diners
        held = [0] * nc
        my_diners = their_diners = diner_count = packed = 0
        theirs = False
        shifts = plans.shifts
        for c in range(nc):
            count = cubes[mine + c]
            held[c] = count
            packed |= count << shifts[c]
            if cubes[other + c]:
                theirs = True
            if diners[mine + c]:
                my_diners |= 1 << c
                diner_count += 1
            if diners[other + c]:
                their_diners |= 1 << c
        self.cubes = held
        #: The cubes held, packed (``Plans.pack``).
        self.held = packed
        #: Diners by colour, as masks: bit ``c`` for colour ``c``.
        self.diners = my_diners
        self.their_diners = their_diners
        self.diner_count = diner_count
        self.bag = info.bag
        self.basics = info.basics[seat]
        #: The bistros built, as a mask: bit ``k`` for slot ``k``.
        bistros = built = 0
        first = seat * nb
        for k in range(nb):
            if info.bistros[first + k]:
                bistros |= 1 << k
                built += 1
        self.bistros = bistros
        self.publicity = info.publicity[seat]
        # As the view's ``tokens_on_board`` (``scoring.tokens_on_board``): a token on each
        # basic restaurant, diner and bistro.
        self.tokens = self.basics + self.diner_count + built
        self.pub_bought = info.publicity_bought
        self.steals = self.pub_bought == 0 and theirs

    def board(self) -> int:
        """What the builds' gains depend on, as one number: the seat, whether a token is
        left, whether a publicity steals, the basics, the publicity, the bistros and both
        players' diners (the cubes do not count)."""
        game = self.game
        nc = game.num_colours
        key = self.seat * 2 + (1 if self.tokens < game.tokens else 0)
        key = key * 2 + (1 if self.steals else 0)
        key = (key << _COUNT_BITS | self.basics) << _COUNT_BITS | self.publicity
        key = (key << game.num_bistros | self.bistros) << nc | self.diners
        return key << nc | self.their_diners

    def value(self, basics: int, diners: int, bistros: int, publicity: int) -> float:
        """Victory points plus the worth of production and abilities (``bistros``: a mask)."""
        side, table = self.side, self.bistro_table
        points = side.basics_value[basics] + side.diner_points * diners
        points += table.points[bistros]
        if publicity:
            points += side.publicity_points[publicity - 1]
        capacity = min(diners + table.count[bistros], self.game.limit)
        worth = points + self.weights.capacity_value * capacity
        worth += table.worth[bistros]
        if basics:
            worth += self.weights.basic_ready_value
        return worth

    def now(self) -> float:
        return self.value(self.basics, self.diner_count, self.bistros, self.publicity)

    def gains(self) -> Board:
        """Every build allowed by the board that gains (``_gains``), kept per board."""
        if self.basics >= 1 << _COUNT_BITS or self.publicity >= 1 << _COUNT_BITS:
            # Beyond the key's room (no board has that many).
            return self._gains().board()
        plans, board = self.plans, self.board()
        found = plans.gains.get(board)
        if found is None:
            if len(plans.gains) >= _MAX_BOARDS:
                plans.gains.clear()
            found = plans.gains[board] = self._gains().board()
        return found

    def missing(self, board: Board) -> list[int]:
        """Per build of ``board``: the cubes it lacks.

        Worked out on the packed numbers (``Plans``), all colours at once: with the
        guard bits set, a field minus the cubes held borrows nothing and keeps its guard
        bit where the cost is at least what is held; the fields' lower bits there are
        what the build lacks of that colour, and their sum is the packed number's
        remainder by ``2 ** width - 1`` (each field's place is 1 modulo that, and the
        sum is smaller). ``tests/test_burger_joint_bots.py`` holds it equal to the
        plain sum over colours.

        The fields' lower bits are picked by a mask made with a shift and a subtraction
        (``ones << top`` less ``ones`` is ``ones * low``): compiled code multiplies whole
        numbers at C speed only while both are below 2 ** 30, and a product that could
        exceed it went through Python's long numbers, 7% of a greedy game (issue 36)."""
        plans, held, packed = self.plans, self.held, board.packed
        guard, full, top = plans.guard, plans.full, plans.width - 1
        lacking = [0] * board.count
        for i in range(board.count):
            left = (packed[i] | guard) - held
            ones = (left & guard) >> top
            lacking[i] = (left & ((ones << top) - ones)) % full
        return lacking

    def _gains(self) -> _Builds:
        """The builds allowed by the board that gain, net of the cubes they cost, each
        with its cost's (colour, count) pairs, in this order: publicity, a basic
        restaurant, the diners by colour, the bistros by slot."""
        side, game = self.side, self.game
        costs = self.plans.costs[self.seat]
        base = self.now()
        found = _Builds(self.weights.cube_cost)
        n = self.diner_count
        if self.publicity < len(side.publicity_points):
            gain = self.value(self.basics, n, self.bistros, self.publicity + 1) - base
            if self.steals:
                gain += self.weights.steal_value
            found.add(gain, costs.publicity, "publicity", -1)
        if self.basics < len(side.basic_points) and self.tokens < game.tokens:
            gain = self.value(self.basics + 1, n, self.bistros, self.publicity) - base
            found.add(gain, costs.basic, "basic", -1)
        if self.basics:
            # Every new diner brings the same; only the colours differ.
            upgrade = self.value(self.basics - 1, n + 1, self.bistros, self.publicity) - base
            for colour in range(game.num_colours):
                if not self.diners >> colour & 1:
                    gain = upgrade
                    if self.their_diners >> colour & 1:
                        gain -= 0.05  # no priority for a colour both players own
                    found.add(gain, costs.diner[colour], "diner", colour)
        if self.diners:
            for slot in range(game.num_bistros):
                if not self.bistros >> slot & 1:
                    bistros = self.bistros | 1 << slot
                    after = self.value(self.basics, n - 1, bistros, self.publicity)
                    found.add(after - base, costs.bistro[slot], "bistro", slot)
        return found

    def demand(self, board: Board, missing: list[int]) -> list[int]:
        """The cubes the plan wants: the most promising builds' costs together (the
        ``plan_builds`` that gain most per missing cube; of two alike, the later).

        Picked one by one, most promising first, as sorting every build by (gain per
        missing cube, position) from the top would: the same builds, no list of pairs;
        their costs added up packed (``Plans``)."""
        count, gain, packed = board.count, board.gain, board.packed
        want = taken = 0
        for _ in range(min(self.plan_builds, count)):
            best, best_rank = -1, 0.0
            for i in range(count):
                if taken >> i & 1:
                    continue
                rank = gain[i] / (1.0 + missing[i])
                if best < 0 or rank >= best_rank:
                    best, best_rank = i, rank
            taken |= 1 << best
            want += packed[best]
        plans = self.plans
        shifts, full = plans.shifts, plans.full
        return [want >> shifts[c] & full for c in range(self.game.num_colours)]


__all__ = [
    "ABILITY_VALUE",
    "BASIC_READY",
    "CAPACITY_VALUE",
    "CUBE_VALUE",
    "PLAN_BUILDS",
    "STEAL_VALUE",
    "Board",
    "Cost",
    "Gain",
    "OwnBoard",
    "Plans",
    "SideCosts",
    "Weights",
    "plans_for",
]
