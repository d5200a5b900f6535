"""Burger Joint bots. They decide from what their seat knows (``seat_info.SeatInfo``, built
from the state or from the seat's view) and the public board data.

The greedy bot values a position as its victory points plus what its buildings
will produce: each unit of production capacity (up to the limit of four) and
each bistro ability is worth a fraction of a point. It plans towards the build
that gains most per missing cube, drafts and trades for that build's colours,
uses every ability that brings it closer, builds whatever raises its value, and
discards the cubes its plan needs least.

Its hand-set weights are parameters (``potluck bots burger-joint`` lists them):
``greedy:capacity_value=1.2,cube_cost=0.1`` values production more and spends
cubes more reluctantly; the defaults play exactly as the bot did before they
were parameters.

    >>> import potluck, random
    >>> g = potluck.load_game("burger-joint")
    >>> s = g.new_game(2, seed=1)
    >>> bot = g.make_bot("greedy")
    >>> seat = g.to_act(s)[0]
    >>> legal = g.legal_actions(s, seat)
    >>> bot.choose(g, g.view(s, seat), seat, legal, random.Random(0)) in legal
    True
    >>> g.make_bot("greedy:plan_builds=1").weights.plan_builds
    1
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.state import DISCARD, DISCARD_ONE, DRAFT, REDRAW, TAKE, TRADE
from potluck.games.burger_joint.tables import BurgerTables, Side

#: What one unit of production capacity is worth, in victory points.
_CAPACITY_VALUE: Final = 0.9
#: What each bistro ability is worth per game, in victory points (in the order of
#: ``schema.ABILITIES``: redraw, swap-two, extra, swap-one, pick, none).
_ABILITY_VALUE: Final = (0.15, 0.35, 0.55, 0.35, 0.7, 0.0)
#: Worth of owning at least one basic restaurant (a diner can be built on it).
_BASIC_READY: Final = 0.35
#: Worth of a cube spent, so that a build must gain more than it costs.
_CUBE_VALUE: Final = 0.06
#: Worth of a stolen cube.
_STEAL_VALUE: Final = 0.3
#: How many of the most promising builds make up the plan whose cubes it gathers.
_PLAN_BUILDS: Final = 2


class _Weights(NamedTuple):
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
        ability = [_ABILITY_VALUE[side.bistro_ability[k]] * ability_weight for k in slots]
        self.worth = [sum(ability[k] for k in slots if m >> k & 1) for m in masks]


#: A build the board allows: (gain, cost, kind, colour or slot).
_Option = tuple[float, tuple[int, ...], str, int]
#: A build that gains: (gain, cost as (colour, count) pairs, kind, colour or slot).
_Gain = tuple[float, tuple[tuple[int, int], ...], str, int]


class _Plans:
    """What bots with the same weights reuse within one game object: both sides'
    bistro tables, the builds' gains by board (they do not depend on the cubes) and
    the layout of cube counts packed into one whole number (``pack``).

    Packed, every colour has a field of ``width`` bits, the top one a guard bit that
    no count or cost reaches: a player holds at most ``cubes_per_colour`` of a colour
    and all the builds of a board together cost fewer cubes of it than that bound,
    so sums of costs never carry from one field into the next (``_Me.demand``)."""

    def __init__(self, game: BurgerTables, weights: _Weights) -> None:
        ability = weights.ability_weight
        self.bistros = (_BistroTable(game.sides[0], ability), _BistroTable(game.sides[1], ability))
        #: The builds' gains by board (``_Me.board``).
        self.gains: dict[int, _Board] = {}
        bound = game.cubes_per_colour
        for side in game.sides:
            # Every build at once: the most a plan can add up.
            every = sum(sum(cost) for cost in side.all_costs())
            bound = max(bound, every)
        self.width = width = bound.bit_length() + 1
        self.shifts = [width * c for c in range(game.num_colours)]
        #: Every field's guard bit, the field's lower bits (at field 0), all its bits.
        self.guard = sum(1 << (shift + width - 1) for shift in self.shifts)
        self.low = (1 << (width - 1)) - 1
        self.full = (1 << width) - 1

    def pack(self, counts: Sequence[int]) -> int:
        """``counts`` per colour as one whole number, a field per colour."""
        packed = 0
        for c in range(len(counts)):
            packed |= counts[c] << self.shifts[c]
        return packed


class _Board:
    """The builds one board allows that gain (``_Me._gains``), with their gains and
    costs also laid out as numbers for the loops that every decision on that board runs
    (``_Me.missing``, ``_Me.demand``): no tuple of pairs unpacked per build and
    decision. Held in tuples, which Python's cyclic garbage collector stops visiting
    once it finds they hold only numbers, strings and such tuples (lists it visits at
    every collection, and thousands of boards are kept)."""

    def __init__(self, gains: list[_Gain], plans: _Plans, colours: int) -> None:
        self.gains = tuple(gains)
        self.count = len(gains)
        #: Per build: its gain.
        self.gain = tuple([gains[i][0] for i in range(len(gains))])
        #: Per build: its cost packed (``_Plans.pack``).
        packed = [0] * len(gains)
        for i in range(len(gains)):
            cost = [0] * colours
            for c, n in gains[i][1]:
                cost[c] = n
            packed[i] = plans.pack(cost)
        self.packed = tuple(packed)


#: Each game's plans by the weights they were made with, made on the first decision.
_PLANS: weakref.WeakKeyDictionary[BurgerTables, dict[_Weights, _Plans]] = (
    weakref.WeakKeyDictionary()
)
#: Boards remembered per game and weights before the memory starts afresh.
_MAX_BOARDS: Final = 50_000
#: Sets of weights whose plans are kept per game (a tuning run tries many) before
#: they are all forgotten.
_MAX_WEIGHTS: Final = 8


def plans_for(game: BurgerTables, weights: _Weights) -> _Plans:
    """The plans bots with ``weights`` share in ``game`` (made on the first call)."""
    by_weights = _PLANS.get(game)
    if by_weights is None:
        by_weights = _PLANS[game] = {}
    plans = by_weights.get(weights)
    if plans is None:
        if len(by_weights) >= _MAX_WEIGHTS:
            by_weights.clear()
        plans = by_weights[weights] = _Plans(game, weights)
    return plans


#: Bits of a board's key given to its basics and to its publicity (``_Me.board``).
_COUNT_BITS: Final = 8


class _Me:
    """The bot's own board, read from its ``SeatInfo``, with the moves a build makes on it.

    Diners are colour masks (bit ``c``: colour ``c``) and bistros a slot mask, so that
    reading the board makes no sets; the builds' gains are kept per board, keyed by one
    whole number (``board``)."""

    def __init__(
        self, game: BurgerTables, info: SeatInfo, weights: _Weights, plans: _Plans
    ) -> None:
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
        #: The cubes held, packed (``_Plans.pack``).
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

    def gains(self) -> _Board:
        """Every build allowed by the board that gains (``_gains``), kept per board."""
        nc = self.game.num_colours
        if self.basics >= 1 << _COUNT_BITS or self.publicity >= 1 << _COUNT_BITS:
            # Beyond the key's room (no board has that many).
            return _Board(self._gains(), self.plans, nc)
        plans, board = self.plans, self.board()
        found = plans.gains.get(board)
        if found is None:
            if len(plans.gains) >= _MAX_BOARDS:
                plans.gains.clear()
            found = plans.gains[board] = _Board(self._gains(), plans, nc)
        return found

    def missing(self, board: _Board) -> list[int]:
        """Per build of ``board``: the cubes it lacks.

        Worked out on the packed numbers (``_Plans``), all colours at once: with the
        guard bits set, a field minus the cubes held borrows nothing and keeps its guard
        bit where the cost is at least what is held; the fields' lower bits there are
        what the build lacks of that colour, and their sum is the packed number's
        remainder by ``2 ** width - 1`` (each field's place is 1 modulo that, and the
        sum is smaller). ``tests/test_burger_joint_bots.py`` holds it equal to the
        plain sum over colours."""
        plans, held, packed = self.plans, self.held, board.packed
        guard, low, full, top = plans.guard, plans.low, plans.full, plans.width - 1
        lacking = [0] * board.count
        for i in range(board.count):
            left = (packed[i] | guard) - held
            lacking[i] = (left & ((left & guard) >> top) * low) % full
        return lacking

    def _gains(self) -> list[_Gain]:
        """The builds allowed by the board that gain, net of the cubes they cost, each
        with its cost's (colour, count) pairs."""
        side, game = self.side, self.game
        base = self.now()
        found: list[_Option] = []
        n = self.diner_count
        if self.publicity < len(side.publicity_points):
            gain = self.value(self.basics, n, self.bistros, self.publicity + 1) - base
            if self.steals:
                gain += self.weights.steal_value
            found.append((gain, side.publicity_cost, "publicity", -1))
        if self.basics < len(side.basic_points) and self.tokens < game.tokens:
            gain = self.value(self.basics + 1, n, self.bistros, self.publicity) - base
            found.append((gain, side.basic_cost, "basic", -1))
        if self.basics:
            # Every new diner brings the same; only the colours differ.
            upgrade = self.value(self.basics - 1, n + 1, self.bistros, self.publicity) - base
            for colour in range(game.num_colours):
                if not self.diners >> colour & 1:
                    gain = upgrade
                    if self.their_diners >> colour & 1:
                        gain -= 0.05  # no priority for a colour both players own
                    found.append((gain, side.diner_cost[colour], "diner", colour))
        if self.diners:
            for slot in range(game.num_bistros):
                if not self.bistros >> slot & 1:
                    bistros = self.bistros | 1 << slot
                    after = self.value(self.basics, n - 1, bistros, self.publicity)
                    found.append((after - base, side.bistro_cost[slot], "bistro", slot))
        gains: list[_Gain] = []
        cube_cost = self.weights.cube_cost
        for gain, cost, kind, x in found:
            gain -= cube_cost * sum(cost)
            if gain > 0:
                needs = tuple((c, n) for c, n in enumerate(cost) if n)
                gains.append((gain, needs, kind, x))
        return gains

    def demand(self, board: _Board, missing: list[int]) -> list[int]:
        """The cubes the plan wants: the most promising builds' costs together (the
        ``plan_builds`` that gain most per missing cube; of two alike, the later).

        Picked one by one, most promising first, as sorting every build by (gain per
        missing cube, position) from the top would: the same builds, no list of pairs;
        their costs added up packed (``_Plans``)."""
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


class GreedyBot:
    """Plans builds from its cubes and the costs; see the module docstring.

    Its weights, in victory points, are parameters (``params``)."""

    name = "greedy"
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "greedy"
    needs_view = True
    #: Reads the seat's ``SeatInfo`` (``Game.bot_view``), or builds it from a whole view.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "capacity_value",
            float,
            _CAPACITY_VALUE,
            "what one unit of production capacity (up to the limit) is worth, in VP",
            low=0,
            high=10,
        ),
        BotParam(
            "ability_weight",
            float,
            1.0,
            "multiplies the hand-set VP worth of each bistro ability (pick 0.7, extra 0.55,"
            " swap-one and swap-two 0.35, redraw 0.15); 0 ignores abilities",
            low=0,
            high=10,
        ),
        BotParam(
            "basic_ready_value",
            float,
            _BASIC_READY,
            "what owning a basic restaurant (one a diner can be built on) is worth, in VP",
            low=0,
            high=10,
        ),
        BotParam(
            "cube_cost",
            float,
            _CUBE_VALUE,
            "what each cube a build costs is worth, in VP (a build must gain more)",
            low=0,
            high=5,
        ),
        BotParam(
            "steal_value",
            float,
            _STEAL_VALUE,
            "what the cube stolen by a turn's first publicity is worth, in VP",
            low=0,
            high=10,
        ),
        BotParam(
            "plan_builds",
            int,
            _PLAN_BUILDS,
            "how many of the builds that gain most per missing cube it gathers cubes for",
            low=1,
            high=10,
        ),
    )

    def __init__(
        self,
        capacity_value: float = _CAPACITY_VALUE,
        ability_weight: float = 1.0,
        basic_ready_value: float = _BASIC_READY,
        cube_cost: float = _CUBE_VALUE,
        steal_value: float = _STEAL_VALUE,
        plan_builds: int = _PLAN_BUILDS,
    ) -> None:
        self.weights = _Weights(
            float(capacity_value),
            float(ability_weight),
            float(basic_ready_value),
            float(cube_cost),
            float(steal_value),
            int(plan_builds),
        )
        # The plans of the last game this bot played (``plans_for``), kept at hand.
        self._game: BurgerTables | None = None
        self._plans: _Plans | None = None
        # Per action index: the legal action of the decision being made, else None.
        self._legal_at: list[Action | None] = []

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if view is None or not isinstance(game, BurgerTables):
            return legal[int(rng.random() * len(legal))]
        if len(legal) == 1:
            return legal[0]  # what every branch below takes when nothing else is legal
        info = view if isinstance(view, SeatInfo) else SeatInfo.from_view(game, view, seat)
        plans = self._plans
        if game is not self._game or plans is None:
            plans = self._plans = plans_for(game, self.weights)
            self._game = game
        me = _Me(game, info, self.weights, plans)
        board = me.gains()
        missing = me.missing(board)
        want = me.demand(board, missing)
        cubes, nc = me.cubes, game.num_colours
        phase = info.phase
        if phase == DRAFT:
            # The colour the plan lacks most (the bag's most plentiful first), else
            # the one held least.
            bag = me.bag
            first = [0] * nc
            second = [0] * nc
            for c in range(nc):
                short = want[c] - cubes[c]
                if short > 0:
                    first[c], second[c] = -short, -bag[c]
                else:
                    second[c] = cubes[c]
            return _least_colour(legal, TAKE, first, second)
        if phase == DISCARD:
            # The colour the plan needs least, the most plentiful first.
            first = [0] * nc
            second = [0] * nc
            for c in range(nc):
                spare = cubes[c] - want[c]
                if spare > 0:
                    first[c] = -spare
                second[c] = -cubes[c]
            return _least_colour(legal, DISCARD_ONE, first, second)
        # The legal actions by index, in a list kept for the purpose and emptied again
        # (a dict made afresh for every decision cost more than the rest of it).
        at = self._legal_at
        if len(at) != len(game.actions):
            at = self._legal_at = [None] * len(game.actions)
        for action in legal:
            at[action.index] = action
        try:
            wished = _first_wish(game, me, phase, want, board, missing, at)
            return legal[0] if wished is None else wished
        finally:
            for action in legal:
                at[action.index] = None


def _first_wish(
    game: BurgerTables,
    me: _Me,
    phase: int,
    want: list[int],
    board: _Board,
    missing: list[int],
    at: list[Action | None],
) -> Action | None:
    """The legal action (``at``: the legal actions by index) the bot wishes most in
    the trading, building or redraw phase, or None when it wishes none of them.

    The wishes in order of preference: in the redraw, putting back a colour the plan
    can spare (the lowest first), else drawing; otherwise, while the plan lacks a
    colour, the trading abilities that bring it (pick it, the extra cube, swap one or
    two spare cubes for it, trade three, redraw), then (or while it lacks none, the
    extra cube) the affordable build that gains most (of two alike, the earlier in
    ``board``), then ending the turn. Each wish is looked up as it comes, and the first
    legal one taken: no list or generator of wishes, no sort."""
    nc, cubes = game.num_colours, me.cubes
    if phase == REDRAW:
        for c in range(nc):
            if cubes[c] > want[c]:
                wished = at[game.put_actions[c].index]
                if wished is not None:
                    return wished
        return at[game.draw_action.index]
    if phase == TRADE:
        # The colour lacked most (of two alike, one the bag still holds, then the
        # lowest), if any is lacked.
        need, need_short, need_empty = -1, 0, False
        bag = me.bag
        for c in range(nc):
            short = want[c] - cubes[c]
            if short <= 0:
                continue
            empty = bag[c] == 0
            if need < 0 or short > need_short or (short == need_short and need_empty and not empty):
                need, need_short, need_empty = c, short, empty
        if need >= 0:
            wished = at[game.pick_actions[need].index]
            if wished is not None:
                return wished
            wished = at[game.extra_action.index]
            if wished is not None:
                return wished
            # The colour the plan can spare most (of two alike, the lowest), then the
            # next one in that order.
            first = second = -1
            first_spare = second_spare = total_spare = 0
            for c in range(nc):
                spare = cubes[c] - want[c]
                if spare < 0:
                    spare = 0
                total_spare += spare
                if first < 0 or spare > first_spare:
                    second, second_spare = first, first_spare
                    first, first_spare = c, spare
                elif second < 0 or spare > second_spare:
                    second, second_spare = c, spare
            if first_spare:
                wished = at[game.swap_one_rows[first][need].index]
                if wished is not None:
                    return wished
                if first_spare >= 2:
                    second, second_spare = first, first_spare
                if second_spare:
                    low, high = min(first, second), max(first, second)
                    wished = at[game.swap_two_rows[low][high - low][need].index]
                    if wished is not None:
                        return wished
                if first_spare >= 3:
                    wished = at[game.trade_rows[first][need].index]
                    if wished is not None:
                        return wished
            if total_spare >= 2:
                wished = at[game.redraw_action.index]
                if wished is not None:
                    return wished
        else:
            wished = at[game.extra_action.index]
            if wished is not None:
                return wished
    wished = _best_build(game, me, board, missing, at)
    if wished is not None:
        return wished
    return at[game.end_action.index]


def _best_build(
    game: BurgerTables, me: _Me, board: _Board, missing: list[int], at: list[Action | None]
) -> Action | None:
    """The legal build, of the affordable ones in ``board``, that gains most (of two
    alike, the earlier), or None."""
    gains = board.gains
    best: Action | None = None
    best_gain = 0.0
    for i in range(board.count):
        if missing[i]:
            continue
        gain, needs, kind, x = gains[i]
        if best is not None and gain <= best_gain:
            continue
        action: BurgerAction
        if kind == "publicity":
            action = game.pub_advance_action
            if me.pub_bought == 0:
                # Steal the colour the other player holds that leaves the bot fewest of
                # it after paying (of two alike, the one they hold most, then the lowest).
                after = me.cubes.copy()
                for c, n in needs:
                    after[c] -= n
                theirs, other = me.info.cubes, me.other
                steal, steal_after, steal_theirs = -1, 0, 0
                for c in range(game.num_colours):
                    held = theirs[other + c]
                    if not held:
                        continue
                    if (
                        steal < 0
                        or after[c] < steal_after
                        or (after[c] == steal_after and held > steal_theirs)
                    ):
                        steal, steal_after, steal_theirs = c, after[c], held
                if steal >= 0:
                    action = game.pub_both_actions[steal]
        elif kind == "basic":
            action = game.basic_action
        elif kind == "diner":
            action = game.diner_actions[x]
        else:
            # Upgrade the diner whose priority matters least: one both players own
            # (the lowest colour of those, else the lowest of its own).
            both = me.diners & me.their_diners
            lowest = both or me.diners
            action = game.bistro_rows[x][(lowest & -lowest).bit_length() - 1]
        legal = at[action.index]
        if legal is not None:
            best, best_gain = legal, gain
    return best


def _least_colour(
    legal: Sequence[Action], kind: int, first: list[int], second: list[int]
) -> Action:
    """The legal action of ``kind`` whose colour ``c`` has the least
    ``(first[c], second[c], c)``, or the first legal action if none is of that kind.

    The keys are worked out per colour beforehand and compared in a plain loop: no
    tuple or lambda per action (issue 36: the greedy bot's decision is a few µs)."""
    best: Action | None = None
    best_first = best_second = best_colour = 0
    for action in legal:
        if not isinstance(action, BurgerAction) or action.kind != kind:
            continue
        c = action.a
        key_first, key_second = first[c], second[c]
        if (
            best is None
            or key_first < best_first
            or (
                key_first == best_first
                and (key_second < best_second or (key_second == best_second and c < best_colour))
            )
        ):
            best, best_first, best_second, best_colour = action, key_first, key_second, c
    return legal[0] if best is None else best


__all__ = ["GreedyBot"]
