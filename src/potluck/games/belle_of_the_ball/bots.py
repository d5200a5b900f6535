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

from mypy_extensions import i64

from potluck.engine.action import Action
from potluck.engine.bots import EarlyChooser
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.belle_of_the_ball.actions import PLAY, BelleAction
from potluck.games.belle_of_the_ball.greedy_counts import GROUP_SIZE, Terms
from potluck.games.belle_of_the_ball.greedy_plan import BOUND_MARGIN, Planner
from potluck.games.belle_of_the_ball.greedy_value import (
    BELLE_WORTH,
    NEED_COST,
    PLAY_MARGIN,
    RIVAL_WEIGHT,
    SHARE,
    Weights,
    group_value,
)
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import (
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    SINGLES_SCORE,
    SLOTS,
)
from potluck.games.belle_of_the_ball.tables import (
    EFFECT_BANK_CHIPS,
    EFFECT_FIFTH_GROUP,
    EFFECT_FOUR_IS_FULL,
    EFFECT_FREE_SKIPS,
    EFFECT_GOSSIP,
    EFFECT_INVITE_TWICE,
    EFFECT_LATE_ARRIVAL,
    EFFECT_MOVE_GUEST,
    EFFECT_PICKPOCKET,
    EFFECT_REVERSE_LINE,
    EFFECT_SCANDAL,
    EFFECT_SINGLES_SCORE,
    BelleTables,
)

#: In the base game the bot plays its best Belle every turn (``PLAY_MARGIN``).
_REFILL_MARGIN: Final = float("-inf")
#: The gain to beat before any Belle is valued (``_belle_gain``: none).
_NOTHING_TO_BEAT: Final = float("-inf")
#: How many groups may be open without Grand Dame Gwendolyn (``Planner.best_invite``).
_GROUPS_OPEN: Final = 4
#: No party's list: what ``_kept_scandal_loss`` starts from.
_NO_GUESTS: Final[list[int]] = [-1]


class _KeptLoss:
    """Scandalous Scarlett's loss of one party (``GreedyBot._kept_scandal_loss``) and the
    guests it was worked out for, the first ``size`` of the list ``group``: typed fields,
    where three lists boxed each size and loss kept."""

    def __init__(self) -> None:
        self.group: list[int] = _NO_GUESTS
        self.size: i64 = 0
        self.loss = 0.0


class GreedyBot(EarlyChooser):
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
        # The two weights a decision reads, as typed fields (``Weights`` is a Python
        # class, ``greedy_value``: read by name, each read was a dictionary look-up).
        self._play_margin = play_margin
        self._rival_weight = rival_weight
        # Each seat's groups counted, reused from decision to decision (a seat's groups
        # change by a guest or two a turn; nothing else of a decision outlives it).
        self._planners: list[Planner] = []
        self._planner = Planner(self.weights)  # the deciding seat's
        self._game: object = None  # the game whose card data the fields below are read from
        #: Each guest's interests as ``Planner.add_fields`` takes them.
        self._fields: tuple[int, ...] = ()
        self._effects: tuple[int, ...] = ()
        # The seat's groups valued as they stand (no singles), per slot and summed: the
        # same for every guest move of a decision, so worked out at its first.
        self._groups_valued = False
        # The group Persuasive Prudence's last move left (-1: none yet), its value with
        # the guest gone and, once worked out (``_bound_left``), its bound: her moves are
        # listed source by source. The guest (``_left_fields``) stays out of its counts
        # from the first move out of it to the first out of another (``_move_gain``).
        self._left_slot = -1
        self._left_fields: i64 = 0
        self._left_value = 0.0
        self._bound_left = False
        self._left_bound = 0.0
        self._groups_value = 0.0
        # Scandalous Scarlett's loss per party (``seat * SLOTS + slot``) with the guests
        # it was worked out for: a function of those guests alone, and a rival's group
        # mostly stands as it was at the seat's last decision.
        self._scandal_kept: list[_KeptLoss] = []
        # A decision's terms and a Belle's re-plan's, filled for each (``Terms.fill``).
        self._terms_now = Terms((), (), 0)
        self._terms_bent = Terms((), (), 0)

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
        planner = self._begin(tables, info)
        # (read as a list, by index, on the compiled build; the engine passes one)
        actions = legal if isinstance(legal, list) else list(legal)
        action = self._decide(info, tables, actions, True, planner)
        planner.busy = False
        if action is None:  # no Belle worth playing and no invitation found
            return next((a for a in actions if not _is_play(a)), actions[0])
        return action

    def choose_early(self, game: Any, seen: Any, seat: int) -> Action | None:
        """``choose``'s answer without the legal list (``EarlyChooser``; issue 36: the list
        and its walk were about a twentieth of a greedy game). The list is the Belle plays,
        when one may be played, then the invitations, among which the planner's best always
        is (its reach is the skip cost's, its groups Step 2's places): with no Belle to play
        the answer is that invitation, else ``choose``'s over the Belle plays that
        ``Game.bot_view`` gave (``SeatInfo.plays``) and that invitation. ``None`` when
        neither is found, or from a ``SeatInfo`` built from a view when a Belle may be
        played (``tests/test_belle_greedy_early.py`` holds it equal to ``choose``)."""
        if not isinstance(seen, SeatInfo):
            return None
        tables = cast(BelleTables, game)
        if seen.may_play and seen.hand:
            plays = seen.plays
            if plays is None:
                return None
            planner = self._begin(tables, seen)
            action = self._decide(seen, tables, plays, False, planner)
            planner.busy = False
            return action
        planner = self._begin(tables, seen)
        planner.future = len(seen.line) // len(seen.chips) + 3 * seen.rounds_left
        planner.best_invite(_terms(seen, self._terms_now))
        planner.busy = False
        return self._invitation(tables, planner)

    def _begin(self, tables: BelleTables, info: SeatInfo) -> Planner:
        """The deciding seat's planner, with its groups counted as ``info`` shows them
        (``busy`` until the decision ends)."""
        if self._game is not tables:
            self._game = tables
            self._fields = tables.guest_interest_fields
            self._effects = tables.belle_effect_codes
            self._planners = []
            self._scandal_kept = []
        me = info.seat
        planners = self._planners
        while len(planners) <= me:
            planners.append(Planner(self.weights))
        # (no guest moves of the last decision to reuse; one a caller of ``_belle_gain``
        # left out of its group's counts is counted there again before any is loaded)
        self.forget_moves()
        planner = self._planner = planners[me]
        planner.use_guests(tables)
        planner.forget()
        if planner.busy:  # an earlier decision stopped half-way: its counts are unknown
            for slot in range(SLOTS):
                planner.clear(slot)
        planner.busy = True
        lists = info.party_lists
        first_slot = me * SLOTS
        for slot in range(SLOTS):
            group = lists[first_slot + slot]
            planner.load_party(slot, group, len(group))
        return planner

    @staticmethod
    def _invitation(tables: BelleTables, planner: Planner) -> Action | None:
        """The interned action of ``planner``'s best invitation (``best_pos`` and
        ``best_slot``): by position and group, or a Belle to hand; ``None`` if none."""
        pos, slot = planner.best_pos, planner.best_slot
        if pos < 0:
            return None
        if slot < 0:
            return tables.take_actions[pos]
        return tables.invite_actions[pos * SLOTS + slot]

    def _decide(
        self,
        info: SeatInfo,
        tables: BelleTables,
        actions: Sequence[Action],
        listed: bool,
        planner: Planner,
    ) -> Action | None:
        """``choose`` once the seat's groups are counted in ``planner``: the Belle play
        in ``actions`` that gains most, else the planner's best invitation if
        ``actions`` holds it (``listed``: the whole legal list) or if ``actions`` are
        the Belle plays alone (not ``listed``: the invitation is legal), else ``None``."""
        planner.future = len(info.line) // len(info.chips) + 3 * info.rounds_left
        terms = _terms(info, self._terms_now)
        first = planner.best_invite(terms)
        pos, slot = planner.best_pos, planner.best_slot
        # (read as a list, by index, on the compiled build: both callers pass one)
        listing = actions if isinstance(actions, list) else list(actions)
        best_play: Action | None = None
        best_index: i64 = -1  # (where ``best_play`` is in ``listing``)
        # (the turn's worth without a Belle, and the gain to beat at first)
        base = planner.value_now(terms, first)
        best_gain = self._play_margin if info.variant else _REFILL_MARGIN
        kinds = self._effects
        # Persuasive Prudence's moves (neighbours in the list) are valued last, against
        # the highest gain to beat (their bound skips more searches); the choice is the
        # list's first play of the most gain (a move ties with a best after it and wins).
        moves_start: i64 = -1
        moves_stop: i64 = -1
        index: i64 = -1
        for action in listing:
            index += 1
            if not isinstance(action, BelleAction) or action.kind != PLAY:
                continue
            effect = kinds[action.belle]
            if effect == EFFECT_MOVE_GUEST:
                if moves_start < 0:
                    moves_start = index
                moves_stop = index + 1
                continue
            planner.trial_terms = None  # (set by her re-plan, if she has one)
            gain = self._belle_gain(info, terms, effect, action, base, best_gain)
            if gain > best_gain:
                best_gain, best_play, best_index = gain, action, index
                planner.keep_trial()
        for index in range(moves_start, moves_stop):  # (none: -1 to -1)
            move = listing[index]
            assert isinstance(move, BelleAction)
            planner.trial_terms = None  # (she has no re-plan to keep)
            gain = self._belle_gain(info, terms, EFFECT_MOVE_GUEST, move, base, best_gain)
            if gain > best_gain or (gain == best_gain and index < best_index):
                best_gain, best_play, best_index = gain, move, index
                planner.keep_trial()
        self.forget_moves()  # (the last move's guest back in its group's counts)
        if best_play is not None:
            return best_play
        if pos >= 0:
            # The best invitation's interned action (``ActionTable``): by position and
            # group, or a Belle to hand.
            if slot < 0:
                chosen = tables.take_actions[pos]
            else:
                chosen = tables.invite_actions[pos * SLOTS + slot]
            if not listed or _listed(chosen, listing):
                return chosen
        return None

    def forget_moves(self) -> None:
        """A new decision, or new groups: what ``_move_gain`` worked out for the last
        one's guest moves (the groups' values, the group left) is not to be reused, and
        the guest its last move took out of her group's counts is counted there again."""
        self._groups_valued = False
        left = self._left_slot
        if left >= 0:
            self._left_slot = -1
            self._planner.add_fields(left, self._left_fields)

    def _belle_gain(
        self,
        info: SeatInfo,
        terms: Terms,
        effect: int,
        action: BelleAction,
        base: float,
        to_beat: float = _NOTHING_TO_BEAT,
    ) -> float:
        """How much better this turn goes with the Belle ``action`` than without her:
        ``base`` is the turn's worth without her (``Planner.value_now`` on ``terms``).
        A gain that cannot exceed ``to_beat`` (the best Belle's so far) may be given as
        an upper bound of it instead (``_move_gain``)."""
        rival_weight = self._rival_weight
        me = info.seat
        if effect == EFFECT_BANK_CHIPS:
            return 3.0
        if effect == EFFECT_PICKPOCKET:
            chips = info.chips
            has = chips[action.seat]
            leader = -1  # (the most chips a rival holds, with no list made)
            for s in range(len(chips)):
                if s != me and chips[s] > leader:
                    leader = chips[s]
            # Robbing the leader is worth a little more than robbing anyone else.
            return min(2, has) * (1 + rival_weight) + (0.5 if has == leader else 0.0)
        if effect == EFFECT_SCANDAL:
            party = action.seat * SLOTS + action.group
            loss = self._kept_scandal_loss(info.party_lists[party], info.party_size(party), party)
            return rival_weight * loss
        if effect == EFFECT_MOVE_GUEST:
            return self._move_gain(info, terms, action, base, to_beat) - base
        if to_beat >= 0.0 and self._bends_nothing(effect, terms):
            # (exactly her re-plan's gain, which does not beat ``to_beat``; searched, it
            # is kept as the next decision's hint if she is best: ``Planner.keep_trial``)
            return 0.0
        line, line_chips = terms.line, terms.line_chips
        free, full, singles, fifth = terms.free, terms.full, terms.singles, terms.fifth
        invites_left = terms.invites_left
        direct = 0.0
        if effect == EFFECT_GOSSIP:
            paid = 0
            for s, c in enumerate(info.chips):
                if s != me and c > 0:
                    paid += 1
            # (a tuple added to a slice: a starred tuple was built as a list, extended
            # and copied)
            line_chips = (line_chips[0] + paid,) + line_chips[1:]  # noqa: RUF005
            direct = paid * rival_weight
        elif effect == EFFECT_FREE_SKIPS:
            free = True
        elif effect == EFFECT_FOUR_IS_FULL:
            full = GROUP_SIZE - 1
        elif effect == EFFECT_SINGLES_SCORE:
            singles = True
        elif effect == EFFECT_FIFTH_GROUP:
            fifth = True
        elif effect == EFFECT_INVITE_TWICE:
            invites_left = 2
        elif effect == EFFECT_REVERSE_LINE:
            line = line[::-1]
            line_chips = line_chips[::-1]
        elif effect == EFFECT_LATE_ARRIVAL:
            line = line[1:] + line[:1]
            line_chips = line_chips[1:] + line_chips[:1]
        bent = self._terms_bent.fill(
            line, line_chips, terms.chips, free, full, singles, fifth, invites_left
        )
        planner = self._planner
        planner.trying = True  # her re-plan is searched again next decision if she is played
        return direct + planner.plan_value(bent) - base

    def _bends_nothing(self, effect: int, terms: Terms) -> bool:
        """Whether the re-plan of a Belle of ``effect`` (``_belle_gain``) finds what the
        decision's first search on ``terms`` did (one invitation, the seat's groups as
        counted): a full size of four changes only groups of three guests or more with
        the guest, Romantic Rosalind only those that score with the guest, a fifth group
        only a seat with four open (``tests/test_belle_greedy_bound.py``: a gain of 0.0)."""
        if terms.invites_left > 1:
            return False
        groups = self._planner.groups
        if effect == EFFECT_FOUR_IS_FULL:
            if terms.full < GROUP_SIZE:
                return True
            largest = GROUP_SIZE - 3
        elif effect == EFFECT_SINGLES_SCORE:
            if terms.singles:
                return True
            largest = terms.full - 2
        elif effect == EFFECT_FIFTH_GROUP:
            if terms.fifth:
                return True
            used = 0  # (counted in a loop: ``sum`` of a list made one a call)
            for slot in range(SLOTS):
                if groups[slot].size:
                    used += 1
            return used < _GROUPS_OPEN
        else:
            return False
        return all(groups[slot].size <= largest for slot in range(SLOTS))

    def _kept_scandal_loss(self, group: list[int], size: i64, party: int) -> float:
        """``Planner.rival_loss`` of the first ``size`` guests of ``group``, the list of party
        ``party``, kept for the party while it is the same list as long (a party's list
        only grows in place, ``BelleState.parties``)."""
        kept = self._scandal_kept
        while len(kept) <= party:
            kept.append(_KeptLoss())
        party_kept = kept[party]
        if party_kept.group is group and party_kept.size == size:
            return party_kept.loss
        loss = self._planner.rival_loss(group, size)
        party_kept.group = group
        party_kept.size = size
        party_kept.loss = loss
        return loss

    def _move_gain(
        self, info: SeatInfo, terms: Terms, action: BelleAction, base: float, to_beat: float
    ) -> float:
        """What this turn is worth once Persuasive Prudence moved the last guest of one
        group to another (``_belle_gain`` takes ``base``, its worth without her, off): the
        groups' change in value, then the best invitation(s). The move is made on the
        planner's counts and undone after, but the guest leaving ``source`` stays out until
        the first move out of another group or ``forget_moves``.

        With one invitation to make, every group but the two the move changes offers what
        it offered at the decision's first search (best: ``base``), so the best invitation
        is at most ``base`` or those two groups' ``GuestBounds.bound``; when even that
        cannot bring the gain to ``to_beat``, that bound is given without the search (only
        a gain of ``to_beat`` or more can change the bot's choice)."""
        planner = self._planner
        fields_of = self._fields
        full = terms.full
        source, dest = action.group, action.dest
        first_slot = info.seat * SLOTS
        # Every group's value (no singles), summed in slot order before and after: only
        # the two groups the move changes differ (the same floats in the same order).
        groups = planner.groups
        if not self._groups_valued:
            self._groups_valued = True
            before = 0.0
            for slot in range(SLOTS):
                value = planner.value_of(slot, full, False)
                groups[slot].move_value = value
                before += value
            self._groups_value = before
        before = self._groups_value
        if source != self._left_slot:
            # (the last source's guest back, this one's out while moves out of
            # ``source`` are valued: its value and bound read its counts alone)
            last = self._left_slot
            if last >= 0:
                planner.add_fields(last, self._left_fields)
            party = first_slot + source
            moved: i64 = fields_of[info.party_lists[party][info.party_size(party) - 1]]
            self._left_slot = source
            self._left_fields = moved
            planner.remove_fields(source, moved)
            self._left_value = planner.value_of(source, full, False)
            self._bound_left = False
        else:
            moved = self._left_fields
        left = self._left_value
        planner.add_fields(dest, moved)
        joined_value = planner.value_of(dest, full, False)
        after = 0.0
        for slot in range(SLOTS):
            if slot == source:
                after += left
            elif slot == dest:
                after += joined_value
            else:
                after += groups[slot].move_value
        direct = after - before
        scored = planner.groups[dest].size >= GROUP_SIZE
        joined = _NO_GUESTS
        joined_size: i64 = 0
        if scored:  # scored at the end of the turn: the group is gone
            joined = info.party_lists[first_slot + dest]
            joined_size = info.party_size(first_slot + dest)
            planner.remove_fields(dest, moved)
            for index in range(joined_size):
                planner.remove_fields(dest, fields_of[joined[index]])
        value = 0.0
        searched = True
        if terms.invites_left <= 1 and to_beat > _NOTHING_TO_BEAT:
            # (the margin: the bound's sums round otherwise than the search's)
            least = to_beat - BOUND_MARGIN
            if not self._bound_left:  # (the same for every move out of ``source``)
                self._bound_left = True
                self._left_bound = planner.group_bound(source, terms)
            # (the best invitation but into the group joined is at most this)
            value = self._left_bound
            if base > value:
                value = base
            if direct + value - base < least:
                # (needed only when the rest is below: a larger value cannot lower it)
                joined_bound = planner.group_bound(dest, terms)
                if joined_bound > value:
                    value = joined_bound
                searched = direct + value - base >= least
        if searched:
            value = planner.plan_value(terms)
        if scored:
            for index in range(joined_size):
                planner.add_fields(dest, fields_of[joined[index]])
        else:
            planner.remove_fields(dest, moved)
        return direct + value


def _terms(info: SeatInfo, into: Terms | None = None) -> Terms:
    """The terms of the seat's searches this decision, the rules as bent this turn: in
    ``into`` (``Terms.fill``), or new terms."""
    effects = info.effects
    made = into if into is not None else Terms((), (), 0)
    return made.fill(
        info.line,
        info.line_chips,
        info.chips[info.seat],
        bool(effects & FREE_SKIPS),
        GROUP_SIZE - 1 if effects & FOUR_IS_FULL else GROUP_SIZE,
        bool(effects & SINGLES_SCORE),
        bool(effects & FIFTH_GROUP),
        info.invites_left,
    )


def _listed(chosen: Action, actions: list[Action]) -> bool:
    """``chosen in actions``, looked for by identity first: the legal list holds the
    game's interned actions, and ``in`` compared each one before it by ``__eq__``."""
    for action in actions:
        if action is chosen:
            return True
    return chosen in actions


def _is_play(action: Action) -> bool:
    return isinstance(action, BelleAction) and action.kind == PLAY


__all__ = ["GreedyBot", "Weights", "group_value"]
