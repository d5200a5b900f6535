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
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.greedy_board import (
    BASIC_READY,
    CAPACITY_VALUE,
    CUBE_VALUE,
    PLAN_BUILDS,
    STEAL_VALUE,
    Board,
    OwnBoard,
    Plans,
    Weights,
    plans_for,
)
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.state import DISCARD, DISCARD_ONE, DRAFT, REDRAW, TAKE, TRADE
from potluck.games.burger_joint.tables import BurgerTables


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
            CAPACITY_VALUE,
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
            BASIC_READY,
            "what owning a basic restaurant (one a diner can be built on) is worth, in VP",
            low=0,
            high=10,
        ),
        BotParam(
            "cube_cost",
            float,
            CUBE_VALUE,
            "what each cube a build costs is worth, in VP (a build must gain more)",
            low=0,
            high=5,
        ),
        BotParam(
            "steal_value",
            float,
            STEAL_VALUE,
            "what the cube stolen by a turn's first publicity is worth, in VP",
            low=0,
            high=10,
        ),
        BotParam(
            "plan_builds",
            int,
            PLAN_BUILDS,
            "how many of the builds that gain most per missing cube it gathers cubes for",
            low=1,
            high=10,
        ),
    )

    def __init__(
        self,
        capacity_value: float = CAPACITY_VALUE,
        ability_weight: float = 1.0,
        basic_ready_value: float = BASIC_READY,
        cube_cost: float = CUBE_VALUE,
        steal_value: float = STEAL_VALUE,
        plan_builds: int = PLAN_BUILDS,
    ) -> None:
        self.weights = Weights(
            float(capacity_value),
            float(ability_weight),
            float(basic_ready_value),
            float(cube_cost),
            float(steal_value),
            int(plan_builds),
        )
        # The plans of the last game this bot played (``plans_for``), kept at hand.
        self._game: BurgerTables | None = None
        self._plans: Plans | None = None
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
        me = OwnBoard(game, info, self.weights, plans)
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
    me: OwnBoard,
    phase: int,
    want: list[int],
    board: Board,
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
    game: BurgerTables, me: OwnBoard, board: Board, missing: list[int], at: list[Action | None]
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
