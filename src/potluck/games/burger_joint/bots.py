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
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.state import DISCARD, DISCARD_ONE, DRAFT, PHASE_NAMES, TAKE
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
    bistro tables and the builds' gains by board (they do not
    depend on the cubes)."""

    def __init__(self, game: BurgerTables, weights: _Weights) -> None:
        ability = weights.ability_weight
        self.bistros = (_BistroTable(game.sides[0], ability), _BistroTable(game.sides[1], ability))
        #: The builds' gains by board (``_Me.board``).
        self.gains: dict[int, list[_Gain]] = {}


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
        self.seat = seat
        self.bistro_table = plans.bistros[seat]
        nc, nb = game.num_colours, game.num_bistros
        mine, other = seat * nc, (1 - seat) * nc
        cubes, diners = info.cubes, info.diners
        self.cubes = list(cubes[mine : mine + nc])
        self.theirs = cubes[other : other + nc]
        my_diners = their_diners = 0
        for c in range(nc):
            if diners[mine + c]:
                my_diners |= 1 << c
            if diners[other + c]:
                their_diners |= 1 << c
        #: Diners by colour, as masks: bit ``c`` for colour ``c``.
        self.diners = my_diners
        self.their_diners = their_diners
        self.diner_count = my_diners.bit_count()
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
        self.steals = self.pub_bought == 0 and any(self.theirs)

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

    def gains(self) -> list[_Gain]:
        """Every build allowed by the board that gains (``_gains``), kept per board."""
        if self.basics >= 1 << _COUNT_BITS or self.publicity >= 1 << _COUNT_BITS:
            return self._gains()  # beyond the key's room (no board has that many)
        plans, board = self.plans, self.board()
        found = plans.gains.get(board)
        if found is None:
            if len(plans.gains) >= _MAX_BOARDS:
                plans.gains.clear()
            found = plans.gains[board] = self._gains()
        return found

    def missing(self, gains: list[_Gain]) -> list[int]:
        """Per build of ``gains``: the cubes it lacks."""
        cubes = self.cubes
        lacking = [0] * len(gains)
        for i in range(len(gains)):
            missing = 0
            for c, n in gains[i][1]:
                if n > cubes[c]:
                    missing += n - cubes[c]
            lacking[i] = missing
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

    def demand(self, gains: list[_Gain], missing: list[int]) -> list[int]:
        """The cubes the plan wants: the most promising builds' costs together (the
        ``plan_builds`` that gain most per missing cube; of two alike, the later).

        Picked one by one, most promising first, as sorting every build by (gain per
        missing cube, position) from the top would: the same builds, no list of pairs."""
        want = [0] * self.game.num_colours
        count = len(gains)
        taken = [False] * count
        for _ in range(min(self.weights.plan_builds, count)):
            best, best_rank = -1, 0.0
            for i in range(count):
                if taken[i]:
                    continue
                rank = gains[i][0] / (1.0 + missing[i])
                if best < 0 or rank >= best_rank:
                    best, best_rank = i, rank
            taken[best] = True
            for c, n in gains[best][1]:
                want[c] += n
        return want


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
        gains = me.gains()
        missing = me.missing(gains)
        want = me.demand(gains, missing)
        cubes, nc = me.cubes, game.num_colours
        short = [0] * nc
        spare = [0] * nc
        for c in range(nc):
            short[c] = max(0, want[c] - cubes[c])
            spare[c] = max(0, cubes[c] - want[c])
        phase = info.phase
        if phase == DRAFT:
            # The colour the plan lacks most (the bag's most plentiful first), else
            # the one held least.
            bag = me.bag
            return _least_colour(
                legal,
                TAKE,
                [-short[c] for c in range(nc)],
                [-bag[c] if short[c] else cubes[c] for c in range(nc)],
            )
        if phase == DISCARD:
            # The colour the plan needs least, the most plentiful first.
            return _least_colour(
                legal, DISCARD_ONE, [-spare[c] for c in range(nc)], [-cubes[c] for c in range(nc)]
            )
        # The legal actions by index, in a list kept for the purpose and emptied again
        # (a dict made afresh for every decision cost more than the rest of it).
        at = self._legal_at
        if len(at) != len(game.actions):
            at = self._legal_at = [None] * len(game.actions)
        for action in legal:
            at[action.index] = action
        try:
            for wish in self._wishes(game, me, PHASE_NAMES[phase], short, spare, gains, missing):
                wished = at[wish.index]
                if wished is not None:
                    return wished
            return legal[0]
        finally:
            for action in legal:
                at[action.index] = None

    def _wishes(
        self,
        game: BurgerTables,
        me: _Me,
        phase: str,
        short: list[int],
        spare: list[int],
        gains: list[_Gain],
        missing: list[int],
    ) -> Iterator[BurgerAction]:
        """Actions in order of preference; the first legal one is taken."""
        colours = range(game.num_colours)
        if phase == "redraw":
            yield from (game.put_actions[c] for c in colours if spare[c])
            yield game.draw_action
            return
        # Builds first when one completes the best plan now; abilities come before
        # building, so they are tried whenever something is still short.
        needed = sorted(colours, key=lambda c: (-short[c], me.bag[c] == 0, c))
        need = needed[0] if short[needed[0]] else -1
        if phase == "trading" and need >= 0:
            yield game.pick_actions[need]
            yield game.extra_action
            extras = sorted(colours, key=lambda c: (-spare[c], c))
            first = extras[0]
            if spare[first]:
                yield game.swap_one_rows[first][need]
                second = first if spare[first] >= 2 else extras[1]
                if spare[second]:
                    a, b = min(first, second), max(first, second)
                    yield game.swap_two_rows[a][b - a][need]
                if spare[first] >= 3:
                    yield game.trade_rows[first][need]
            if sum(spare) >= 2:
                yield game.redraw_action
        elif phase == "trading":
            yield game.extra_action
        yield from self._builds(game, me, gains, missing)
        yield game.end_action

    def _builds(
        self, game: BurgerTables, me: _Me, gains: list[_Gain], missing: list[int]
    ) -> list[BurgerAction]:
        """Affordable builds that raise the position's worth, best first."""
        colours = range(game.num_colours)
        found: list[tuple[float, BurgerAction]] = []
        for i in range(len(gains)):
            if missing[i]:
                continue
            gain, needs, kind, x = gains[i]
            if kind == "publicity":
                after = me.cubes.copy()
                for c, n in needs:
                    after[c] -= n
                steal = max(
                    (c for c in colours if me.theirs[c]),
                    key=lambda c: (-after[c], me.theirs[c], -c),
                    default=-1,
                )
                if steal >= 0 and me.pub_bought == 0:
                    found.append((gain, game.pub_both_actions[steal]))
                else:
                    found.append((gain, game.pub_advance_action))
            elif kind == "basic":
                found.append((gain, game.basic_action))
            elif kind == "diner":
                found.append((gain, game.diner_actions[x]))
            else:
                # Upgrade the diner whose priority matters least: one both players own
                # (the lowest colour of those, else the lowest of its own).
                both = me.diners & me.their_diners
                lowest = both or me.diners
                found.append((gain, game.bistro_rows[x][(lowest & -lowest).bit_length() - 1]))
        found.sort(key=lambda t: -t[0])
        return [action for _, action in found]


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
