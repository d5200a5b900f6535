"""Burger Joint bots. They decide from their seat's view and the public board data.

The greedy bot values a position as its victory points plus what its buildings
will produce: each unit of production capacity (up to the limit of four) and
each bistro ability is worth a fraction of a point. It plans towards the build
that gains most per missing cube, drafts and trades for that build's colours,
uses every ability that brings it closer, builds whatever raises its value, and
discards the cubes its plan needs least.

    >>> import potluck, random
    >>> g = potluck.load_game("burger-joint")
    >>> s = g.new_game(2, seed=1)
    >>> bot = g.make_bot("greedy")
    >>> seat = g.to_act(s)[0]
    >>> legal = g.legal_actions(s, seat)
    >>> bot.choose(g, g.view(s, seat), seat, legal, random.Random(0)) in legal
    True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from potluck.engine.action import Action
from potluck.engine.game import Game
from potluck.games.burger_joint.tables import BurgerTables, Side

#: What one unit of production capacity is worth, in victory points.
_CAPACITY_VALUE = 0.9
#: What each bistro ability is worth per game, in victory points (in the order of
#: ``schema.ABILITIES``: redraw, swap-two, extra, swap-one, pick, none).
_ABILITY_VALUE = (0.15, 0.35, 0.55, 0.35, 0.7, 0.0)
#: Worth of owning at least one basic restaurant (a diner can be built on it).
_BASIC_READY = 0.35
#: Worth of a cube spent, so that a build must gain more than it costs.
_CUBE_VALUE = 0.06
#: Worth of a stolen cube.
_STEAL_VALUE = 0.3


class _Me:
    """The bot's own board, read from the view, with the moves a build makes on it."""

    def __init__(self, game: BurgerTables, view: Mapping[str, Any], seat: int) -> None:
        self.game = game
        self.side: Side = game.sides[seat]
        me = view["players"][seat]
        them = view["players"][1 - seat]
        colours = game.colours
        self.cubes = [int(me["cubes"][c]) for c in colours]
        self.theirs = [int(them["cubes"][c]) for c in colours]
        self.their_diners = {colours.index(c) for c in them["diners"]}
        self.bag = [int(view["bag"][c]) for c in colours]
        self.basics = int(me["basics"])
        self.diners = {colours.index(c) for c in me["diners"]}
        self.bistros = {int(k) - 1 for k in me["bistros"]}
        self.publicity = int(me["publicity"])
        self.tokens = int(me["tokens_on_board"])
        self.points = int(me["points_now"])
        self.pub_bought = int(view["publicity_bought"])

    def value(self, basics: int, diners: int, bistros: set[int], publicity: int) -> float:
        """Victory points plus the worth of production and abilities."""
        side = self.side
        points = side.basics_value[basics] + side.diner_points * diners
        points += sum(side.bistro_points[k] for k in bistros)
        if publicity:
            points += side.publicity_points[publicity - 1]
        capacity = min(diners + len(bistros), self.game.limit)
        worth = points + _CAPACITY_VALUE * capacity
        worth += sum(_ABILITY_VALUE[side.bistro_ability[k]] for k in bistros)
        if basics:
            worth += _BASIC_READY
        return worth

    def now(self) -> float:
        return self.value(self.basics, len(self.diners), self.bistros, self.publicity)

    def options(self) -> list[tuple[float, tuple[int, ...], str, int]]:
        """Every build allowed by the board: (gain, cost, kind, colour or slot)."""
        side, game = self.side, self.game
        base = self.now()
        found: list[tuple[float, tuple[int, ...], str, int]] = []
        n = len(self.diners)
        if self.publicity < len(side.publicity_points):
            gain = self.value(self.basics, n, self.bistros, self.publicity + 1) - base
            if self.pub_bought == 0 and any(self.theirs):
                gain += _STEAL_VALUE
            found.append((gain, side.publicity_cost, "publicity", -1))
        if self.basics < len(side.basic_points) and self.tokens < game.tokens:
            gain = self.value(self.basics + 1, n, self.bistros, self.publicity) - base
            found.append((gain, side.basic_cost, "basic", -1))
        for colour in range(game.num_colours):
            if colour not in self.diners and self.basics:
                gain = self.value(self.basics - 1, n + 1, self.bistros, self.publicity) - base
                if colour in self.their_diners:
                    gain -= 0.05  # no priority for a colour both players own
                found.append((gain, side.diner_cost[colour], "diner", colour))
        if self.diners:
            for slot in range(game.num_bistros):
                if slot not in self.bistros:
                    after = self.value(self.basics, n - 1, self.bistros | {slot}, self.publicity)
                    found.append((after - base, side.bistro_cost[slot], "bistro", slot))
        return [(g - _CUBE_VALUE * sum(cost), cost, k, x) for g, cost, k, x in found]

    def missing(self, cost: tuple[int, ...]) -> int:
        return sum(max(0, n - self.cubes[c]) for c, n in enumerate(cost))

    def demand(self) -> list[int]:
        """The cubes the plan wants: the two most promising builds' costs together."""
        opts = self.options()
        ranked = sorted(
            (
                (gain / (1.0 + self.missing(cost)), i)
                for i, (gain, cost, _, _) in enumerate(opts)
                if gain > 0
            ),
            reverse=True,
        )
        want = [0] * self.game.num_colours
        for _, i in ranked[:2]:
            for c, n in enumerate(opts[i][1]):
                want[c] += n
        return want


class GreedyBot:
    """Plans builds from its cubes and the costs; see the module docstring."""

    name = "greedy"
    needs_view = True

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if view is None or not isinstance(game, BurgerTables):
            return legal[int(rng.random() * len(legal))]
        by_text = {str(a): a for a in legal}
        for text in self._wishes(game, view, seat):
            action = by_text.get(text)
            if action is not None:
                return action
        return legal[0]

    def _wishes(self, game: BurgerTables, view: Mapping[str, Any], seat: int) -> list[str]:
        """Actions in order of preference; the first legal one is taken."""
        me = _Me(game, view, seat)
        phase = view["phase"]
        col = game.colours
        want = me.demand()
        short = [max(0, want[c] - me.cubes[c]) for c in range(len(col))]
        spare = [max(0, me.cubes[c] - want[c]) for c in range(len(col))]
        if phase == "production":
            order = sorted(
                range(len(col)),
                key=lambda c: (-short[c], -me.bag[c] if short[c] else me.cubes[c], c),
            )
            return [f"take {col[c]}" for c in order]
        if phase == "discard":
            order = sorted(range(len(col)), key=lambda c: (-spare[c], -me.cubes[c], c))
            return [f"discard {col[c]}" for c in order]
        if phase == "redraw":
            return [f"put {col[c]}" for c in range(len(col)) if spare[c]] + ["draw"]
        wishes: list[str] = []
        # Builds first when one completes the best plan now; abilities come before
        # building, so they are tried whenever something is still short.
        needed = sorted(range(len(col)), key=lambda c: (-short[c], me.bag[c] == 0, c))
        need = needed[0] if short[needed[0]] else -1
        if phase == "trading" and need >= 0:
            wishes.append(f"pick {col[need]}")
            wishes.append("extra")
            extras = sorted(range(len(col)), key=lambda c: (-spare[c], c))
            first = extras[0]
            if spare[first]:
                wishes.append(f"swap-one {col[first]} for {col[need]}")
                second = first if spare[first] >= 2 else extras[1]
                if spare[second]:
                    a, b = min(first, second), max(first, second)
                    wishes.append(f"swap-two {col[a]} {col[b]} for {col[need]}")
                if spare[first] >= 3:
                    wishes.append(f"trade {col[first]} for {col[need]}")
            if sum(spare) >= 2:
                wishes.append("redraw")
        elif phase == "trading":
            wishes.append("extra")
        wishes.extend(self._builds(game, me))
        wishes.append("end")
        return wishes

    def _builds(self, game: BurgerTables, me: _Me) -> list[str]:
        """Affordable builds that raise the position's worth, best first."""
        col = game.colours
        texts: list[tuple[float, str]] = []
        for gain, cost, kind, x in me.options():
            if gain <= 0 or me.missing(cost):
                continue
            if kind == "publicity":
                after = [me.cubes[c] - cost[c] for c in range(len(col))]
                steal = max(
                    (c for c in range(len(col)) if me.theirs[c]),
                    key=lambda c: (-after[c], me.theirs[c], -c),
                    default=-1,
                )
                if steal < 0:
                    texts.append((gain, "publicity advance"))
                elif me.pub_bought == 0:
                    texts.append((gain, f"publicity steal {col[steal]} and advance"))
                else:
                    texts.append((gain, "publicity advance"))
            elif kind == "basic":
                texts.append((gain, "basic"))
            elif kind == "diner":
                texts.append((gain, f"diner {col[x]}"))
            else:
                # Upgrade the diner whose priority matters least: one both players own.
                diners = sorted(me.diners, key=lambda c: (c not in me.their_diners, c))
                texts.append((gain, f"bistro {x + 1} from {col[diners[0]]}"))
        texts.sort(key=lambda t: -t[0])
        return [t for _, t in texts]


__all__ = ["GreedyBot"]
