"""Belle of the Ball bots. They decide from what their seat knows only (``seat_info.SeatInfo``,
``Game.bot_view``, or the seat's whole view).

``GreedyBot`` plans groups toward shared interests, completes groups it can
still finish before the game ends, spends chips to skip only when the guest it
reaches is worth more than the chips it leaves in line, and plays a Belle when
she improves its best move this turn (in the base game, whose hands are drawn
back up every round, it plays its most useful Belle every turn).

    >>> import random, potluck
    >>> g = potluck.load_game("belle-of-the-ball")
    >>> s = g.new_game(2, seed=3)
    >>> bot = g.make_bot("greedy")
    >>> a = bot.choose(g, g.view(s, 0), 0, g.legal_actions(s, 0), random.Random(0))
    >>> a in g.legal_actions(s, 0)
    True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, cast

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.belle_of_the_ball.actions import INVITE, PLAY, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.greedy_plan import (
    BELLE_WORTH,
    NEED_COST,
    PLAY_MARGIN,
    RIVAL_WEIGHT,
    SHARE,
    Counts,
    Memo,
    Table,
    Weights,
    best_invite,
    copy_table,
    group_value,
    group_values,
    read_table,
    replanned,
    value_now,
    value_of,
)
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import (
    SLOTS,
)
from potluck.games.belle_of_the_ball.tables import BelleTables

#: In the base game the bot plays its best Belle every turn (``PLAY_MARGIN``).
_REFILL_MARGIN = float("-inf")
#: The plans kept from earlier decisions are dropped when there are more than this many.
_PLANS: Final = 256


class GreedyBot:
    """Plans groups toward shared interests and plays Belles when they pay this turn.

    Its weights are parameters: ``greedy:belle_value=0`` ignores Belles in line,
    ``greedy:belle_value=12`` chases them (the variant's strategies).
    """

    name = "greedy"
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "greedy"
    needs_view = True
    #: Reads the seat's ``SeatInfo`` (``Game.bot_view``), or builds it from a whole view.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam("belle_value", float, BELLE_WORTH, "what a Belle in hand is worth, in chips"),
        BotParam(
            "chip_value", float, 1.0, "weight of chips collected or paid when inviting", low=0
        ),
        BotParam("need_cost", float, NEED_COST, "what each guest a group still needs costs it"),
        BotParam(
            "interest_share",
            float,
            SHARE,
            "chance an interest is on a random guest (how hopeful open groups are)",
            low=0,
            high=1,
        ),
        BotParam(
            "play_margin",
            float,
            PLAY_MARGIN,
            "in the variant, how much a Belle must improve this turn before she is played",
        ),
        BotParam(
            "rival_weight", float, RIVAL_WEIGHT, "what a rival's loss is worth against a gain"
        ),
    )

    def __init__(
        self,
        belle_value: float = BELLE_WORTH,
        chip_value: float = 1.0,
        need_cost: float = NEED_COST,
        interest_share: float = SHARE,
        play_margin: float = PLAY_MARGIN,
        rival_weight: float = RIVAL_WEIGHT,
    ) -> None:
        self.weights = Weights(
            belle_value, chip_value, need_cost, interest_share, play_margin, rival_weight
        )
        # Plans (``Memo``) of earlier decisions, by the seat, its groups (guest indices)
        # and the invitations it expects: a plan depends on those and the weights alone,
        # and a turn's decisions (a Belle, then the invitations) often share them.
        self._plans: dict[tuple[int, int, tuple[tuple[int, ...], ...]], Memo] = {}
        self._plans_game: object = None  # the game whose card data the plans are for

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        assert view is not None
        tables = cast(BelleTables, game)
        info = view if isinstance(view, SeatInfo) else SeatInfo.from_view(tables, view, seat)
        table = read_table(info, self.weights, tables)
        plans = self._plans
        if len(plans) > _PLANS or self._plans_game is not game:
            plans.clear()
            self._plans_game = game
        first_slot = info.seat * SLOTS
        key = (info.seat, table.future, info.parties[first_slot : first_slot + SLOTS])
        plan = plans.get(key)
        if plan is None:
            plans[key] = table.memo
        else:
            table.memo = plan
        plays = [a for a in legal if isinstance(a, BelleAction) and a.kind == PLAY]
        first = best_invite(table)
        base = value_now(table, first)
        best_play: Action | None = None
        margin = self.weights.play_margin
        best_gain = margin if info.variant else _REFILL_MARGIN
        effects = tables.belle_effects
        for action in plays:
            assert isinstance(action, BelleAction)
            gain = self._belle_gain(table, effects[action.belle], action, base)
            if gain > best_gain:
                best_gain, best_play = gain, action
        if best_play is not None:
            return best_play
        _, pos, slot = first
        for candidate in legal:
            assert isinstance(candidate, BelleAction)
            if candidate.pos == pos and (
                (candidate.kind == INVITE and candidate.group == slot)
                or (candidate.kind == TAKE_BELLE and slot == -1)
            ):
                return candidate
        return next((a for a in legal if not _is_play(a)), legal[0])

    def _belle_gain(self, table: Table, effect: str, action: BelleAction, base: float) -> float:
        """How much better this turn goes with the Belle ``action`` than without her."""
        direct = 0.0
        if effect == "bank_chips":
            return 3.0
        if effect == "pickpocket":
            has = next(c for s, c, _ in table.rivals if s == action.seat)
            leader = max(c for _, c, _ in table.rivals)
            # Robbing the leader is worth a little more than robbing anyone else.
            rival = table.weights.rival_weight
            return min(2, has) * (1 + rival) + (0.5 if has == leader else 0.0)
        if effect == "scandal":
            groups = next(g for s, _, g in table.rivals if s == action.seat)
            group = [table.interests_of[guest] for guest in groups[action.group]]
            loss = group_value(group, 12) - group_value(group[:-1], 12)
            return table.weights.rival_weight * loss
        if effect == "move_guest":
            return self._move_gain(table, action) - base
        # (the groups are shared with ``table``: nothing below changes them)
        after = copy_table(table)
        if effect == "gossip":
            paid = sum(1 for _, c, _ in table.rivals if c > 0)
            after.line_chips = [table.line_chips[0] + paid, *table.line_chips[1:]]
            direct = paid * table.weights.rival_weight
        elif effect == "free_skips":
            after.free = True
        elif effect == "four_is_full":
            after.four_full = True
        elif effect == "singles_score":
            after.singles = True
        elif effect == "fifth_group":
            after.fifth = True
        elif effect == "invite_twice":
            after.invites_left = 2
        elif effect == "reverse_line":
            after.line = table.line[::-1]
            after.line_chips = table.line_chips[::-1]
        elif effect == "late_arrival":
            after.line = [*table.line[1:], table.line[0]]
            after.line_chips = [*table.line_chips[1:], table.line_chips[0]]
        return direct + value_now(after) - base

    def _move_gain(self, table: Table, action: BelleAction) -> float:
        """What this turn is worth once the Belle moved the last guest of one group to
        another (``_belle_gain``'s move_guest, before the turn's worth without her is
        taken off): the groups' change in value, then the best invitation(s)."""
        groups = list(table.groups)  # (the two changed groups are new lists)
        source = groups[action.group]
        moved = source[-1]
        groups[action.group] = source[:-1]
        groups[action.dest] = [*groups[action.dest], moved]
        full = 4 if table.four_full else 5
        w = table.weights
        # Each group's value (``group_value``, from its counts: the same floats), summed
        # in order as before: those of the groups she leaves alone are worked out once
        # a decision.
        values = group_values(table, full)
        left = Counts(groups[action.group], table.width)
        joined = Counts(groups[action.dest], table.width)
        before_v = after_v = 0.0
        for slot, value in enumerate(values):
            before_v += value
            if slot == action.group:
                value = value_of(left, table.future, full, False, w)
            elif slot == action.dest:
                value = value_of(joined, table.future, full, False, w)
            after_v += value
        direct = after_v - before_v
        if len(groups[action.dest]) >= 5:
            groups[action.dest] = []  # scored at the end of the turn
            joined = Counts([], table.width)
        after = replanned(table, groups, (action.group, action.dest), (left, joined))
        return direct + value_now(after)


def _is_play(action: Action) -> bool:
    return isinstance(action, BelleAction) and action.kind == PLAY


__all__ = ["GreedyBot", "Weights", "group_value"]
