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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Final, cast

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.belle_of_the_ball.actions import INVITE, PLAY, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    SINGLES_SCORE,
    SLOTS,
)
from potluck.games.belle_of_the_ball.tables import BelleTables

#: Chance that a given interest is on a random guest (3 interests of 10 in the built-in data).
_SHARE: Final = 0.3
#: What one more guest needed costs a group: finishing sooner is worth something.
_NEED_COST: Final = 0.6
#: What a Belle in hand is worth (the variant's reason to invite one).
_BELLE_WORTH: Final = 3.0
#: How much better a Belle must make this turn before the bot plays her, in the
#: variant, where a played Belle is gone for good. In the base game the hand is
#: drawn back up to three every round, so a Belle kept is a draw lost: the bot
#: plays its best Belle every turn (measured: 64% against 33% for the bot that
#: waited for a 0.75-chip gain, 240 three-player games).
_PLAY_MARGIN: Final = 0.75
_REFILL_MARGIN = float("-inf")
#: Weight of a rival's loss (a chip taken from a rival is worth less than one gained).
_RIVAL_WEIGHT: Final = 0.5
#: The plans kept from earlier decisions are dropped when there are more than this many.
_PLANS: Final = 256


@dataclass(frozen=True)
class Weights:
    """The greedy bot's hand-set weights; each is a bot parameter (``greedy:belle_value=8``)."""

    belle_value: float = _BELLE_WORTH
    chip_value: float = 1.0
    need_cost: float = _NEED_COST
    interest_share: float = _SHARE
    play_margin: float = _PLAY_MARGIN
    rival_weight: float = _RIVAL_WEIGHT


_DEFAULT = Weights()

Group = list[tuple[int, ...]]


class _Counts:
    """A group's guests counted: how many, how many show each interest (by index), the
    chips its matches score so far, and its spread (over the interests shown: 2 for
    one shown once, 1 for one shared), what one more guest is likely to add."""

    def __init__(self, group: Group, width: int) -> None:
        counts = [0] * width
        for shown in group:
            for i in shown:
                counts[i] += 1
        matched = spread = 0
        for c in counts:
            if c >= 2:
                matched += c
                spread += 1
            elif c == 1:
                spread += 2
        self.size = len(group)
        self.counts = counts
        self.shown = sum(counts)
        self.matched = matched
        self.spread = spread


class _Memo:
    """What the bot works out once per plan (valid while its groups and expected
    invitations stay as they are; ``_replanned`` starts a new one, keeping the counts of
    the groups that did not change): each group's counts, values, and where each guest
    may go, by the bent rules.

    A plan that is read once (``_replanned``'s, for one Belle's move or a second
    invitation: ``shared`` false) keeps no guest's choices: ``_best_invite`` works
    them out as it goes, the same values in the same order, without lists of them."""

    def __init__(self, counts: list[_Counts] | None = None, shared: bool = True) -> None:
        self.counts = counts
        self.shared = shared
        #: Each group's value now, by (full, singles) as ``_rules``' number.
        self.now: dict[int, list[float]] = {}
        #: Per bent rules (``_rules``), per guest: ``_choices``.
        self.choices: dict[int, dict[int, list[tuple[float, float, int]]]] = {}
        #: Each group's ``group_value`` (its future and no singles), by the group size
        #: that is full (``_group_values``).
        self.values: dict[int, list[float]] = {}


def _rules(full: int, singles: bool, fifth: bool) -> int:
    """The bent rules that change where a guest may go and what a group is worth, as
    one number (a memo's key)."""
    return full * 4 + (2 if singles else 0) + (1 if fifth else 0)


@dataclass
class _Table:
    """The part of what the seat knows that the bot plans with."""

    seat: int
    n: int
    line: list[int]  # per card: the guest's index; -1 for a Belle
    line_chips: list[int]
    groups: list[Group]
    chips: int
    free: bool
    four_full: bool
    singles: bool
    fifth: bool
    invites_left: int
    future: int  # invitations the bot expects after this one
    # Per rival: seat, chips and groups (guests by index, every slot).
    rivals: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = field(default_factory=list)
    weights: Weights = _DEFAULT
    memo: _Memo = field(default_factory=_Memo)
    interests_of: Sequence[tuple[int, ...]] = ()
    #: How many interests there are (``_Counts`` counts each by index).
    width: int = 0


def _read(info: SeatInfo, weights: Weights, tables: BelleTables) -> _Table:
    """The bot's plan of the table from what its seat knows (``SeatInfo``); guests are
    planned by their interests (``BelleTables.guest_interests``, public card data)."""
    interests = tables.guest_interests
    seat, chips, parties = info.seat, info.chips, info.parties
    n = len(chips)
    line = [-1 if card >= BELLE_BASE else card for card in info.line]
    base = seat * SLOTS
    groups: list[Group] = [
        [interests[guest] for guest in parties[slot]] for slot in range(base, base + SLOTS)
    ]
    rivals = [(s, chips[s], parties[s * SLOTS : s * SLOTS + SLOTS]) for s in range(n) if s != seat]
    per_player = len(line) // n if line else 0
    future = per_player + 3 * info.rounds_left
    effects = info.effects
    return _Table(
        seat=seat,
        n=n,
        line=line,
        line_chips=list(info.line_chips),
        groups=groups,
        chips=chips[seat],
        free=bool(effects & FREE_SKIPS),
        four_full=bool(effects & FOUR_IS_FULL),
        singles=bool(effects & SINGLES_SCORE),
        fifth=bool(effects & FIFTH_GROUP),
        invites_left=info.invites_left,
        future=future,
        rivals=rivals,
        weights=weights,
        memo=_Memo(),
        interests_of=interests,
        width=len(tables.interest_names),
    )


def _copy(table: _Table) -> _Table:
    """A shallow copy of ``table`` sharing its memo (a compiled class has no ``__dict__``
    to copy, so every field is passed on, as ``dataclasses.replace`` would)."""
    return _Table(
        table.seat,
        table.n,
        table.line,
        table.line_chips,
        table.groups,
        table.chips,
        table.free,
        table.four_full,
        table.singles,
        table.fifth,
        table.invites_left,
        table.future,
        table.rivals,
        table.weights,
        table.memo,
        table.interests_of,
        table.width,
    )


def _replanned(
    table: _Table,
    groups: list[Group],
    changed: Sequence[int],
    counted: Sequence[_Counts] = (),
) -> _Table:
    """A copy of ``table`` with other ``groups`` (those in the slots ``changed``; their
    counts ``counted`` if the caller has them): a fresh memo, which keeps the counts of
    the groups that did not change."""
    twin = _copy(table)
    twin.groups = groups
    counts = table.memo.counts
    if counts is not None:
        counts = counts.copy()
        for k, slot in enumerate(changed):
            counts[slot] = counted[k] if counted else _Counts(groups[slot], table.width)
    twin.memo = _Memo(counts, shared=False)
    return twin


def group_value(
    group: Group,
    future: int,
    full: int = 5,
    singles: bool = False,
    weights: Weights = _DEFAULT,
) -> float:
    """What a group is worth: its score when full, else its matches so far plus what the
    guests it still needs are likely to add, if the bot can still finish it.

    The rule the bot's plans are held to: ``_value_of`` and ``_value_with`` give the
    same floats from a group's counts (``tests/test_belle_strategies.py``)."""
    if not group:
        return 0.0
    return _group_value(
        tuple(group), future, full, singles, weights.interest_share, weights.need_cost
    )


# A pure function of few distinct groups per game, asked ~100 times a decision: cached.
@lru_cache(maxsize=1 << 16)
def _group_value(
    group: tuple[tuple[int, ...], ...],
    future: int,
    full: int,
    singles: bool,
    interest_share: float,
    need_cost: float,
) -> float:
    if len(group) >= full:
        return float(score_group(group, singles))
    need = 5 - len(group)
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    counts: dict[int, int] = {}
    for shown in group:
        for i in shown:
            counts[i] = counts.get(i, 0) + 1
    matched = sum(c for c in counts.values() if c >= 2)
    # A further guest adds 2 for an interest shown once, 1 for one already shared.
    per_guest = interest_share * sum(2 if c == 1 else 1 for c in counts.values())
    return matched + need * (per_guest - need_cost)


def _best_invite(table: _Table, exclude: int = -1) -> tuple[float, int, int]:
    """The best (value, position, slot) of one invitation now; slot -1 for a Belle."""
    best_value, best_pos, best_slot = -1e9, -1, -1
    full = 4 if table.four_full else 5
    w = table.weights
    chip_value, belle_value = w.chip_value, w.belle_value
    free, chips, line_chips = table.free, table.chips, table.line_chips
    memo = table.memo
    by_card: dict[int, list[tuple[float, float, int]]] | None = None
    if memo.shared:
        rules = _rules(full, table.singles, table.fifth)
        by_card = memo.choices.get(rules)
        if by_card is None:
            by_card = memo.choices[rules] = {}
    slots: list[int] | None = None
    now: list[float] = []
    counts = memo.counts
    singles, future, interests_of = table.singles, table.future, table.interests_of
    for pos, card in enumerate(table.line):
        if pos == exclude:
            continue
        cost = 0 if free else pos
        if cost > chips:
            break
        gain = chip_value * (line_chips[pos] - cost)
        if card < 0:
            value = gain + belle_value
            if value > best_value:
                best_value, best_pos, best_slot = value, pos, -1
            continue
        if slots is None:
            slots, now = _open(table, full)
            counts = memo.counts
        if by_card is None:
            # (as ``_choices`` lists them, without the list: a plan read once)
            assert counts is not None
            shown = interests_of[card]
            for k, slot in enumerate(slots):
                value = gain + _value_with(counts[slot], shown, future, full, singles, w) - now[k]
                if value > best_value:
                    best_value, best_pos, best_slot = value, pos, slot
            continue
        choices = by_card.get(card)
        if choices is None:
            choices = by_card[card] = _choices(table, interests_of[card], full, slots, now)
        for after, before, slot in choices:
            value = gain + after - before
            if value > best_value:
                best_value, best_pos, best_slot = value, pos, slot
    return best_value, best_pos, best_slot


def _open(table: _Table, full: int) -> tuple[list[int], list[float]]:
    """The slots a guest may go to (Step 2, Group: an open group, or the first empty
    slot while a new group may start) and each one's group value now."""
    w = table.weights
    memo = table.memo
    counts = memo.counts
    if counts is None:
        counts = memo.counts = [_Counts(g, table.width) for g in table.groups]
    singles, future = table.singles, table.future
    key = _rules(full, singles, False)
    values = memo.now.get(key)
    if values is None:
        values = memo.now[key] = [_value_of(c, future, full, singles, w) for c in counts]
    used = 0
    for group in table.groups:
        if group:
            used += 1
    limit = 5 if table.fifth else 4
    slots: list[int] = []
    now: list[float] = []
    new_done = False
    for slot, group in enumerate(table.groups):
        if group:
            if len(group) >= 5:
                continue
        elif new_done or used >= limit:
            continue
        else:
            new_done = True
        slots.append(slot)
        now.append(values[slot])
    return slots, now


def _choices(
    table: _Table, card: tuple[int, ...], full: int, slots: list[int], now: list[float]
) -> list[tuple[float, float, int]]:
    """Where ``card`` may go (Step 2, Group), as (group's value after, before, slot):
    ``slots`` and ``now`` are ``_open``'s."""
    counts = table.memo.counts
    assert counts is not None
    singles, future, w = table.singles, table.future, table.weights
    return [
        (_value_with(counts[slot], card, future, full, singles, w), now[k], slot)
        for k, slot in enumerate(slots)
    ]


def _value_of(counted: _Counts, future: int, full: int, singles: bool, w: Weights) -> float:
    """``group_value`` of the group ``counted`` (the same value to the last bit)."""
    size = counted.size
    if not size:
        return 0.0
    if size >= full:
        return float(counted.shown if singles else counted.matched)
    need = 5 - size
    if need > future:
        return 0.0
    return counted.matched + need * (w.interest_share * counted.spread - w.need_cost)


def _value_with(
    counted: _Counts, card: tuple[int, ...], future: int, full: int, singles: bool, w: Weights
) -> float:
    """``group_value`` of the group ``counted`` with ``card`` added, from the counts (the
    same integers, so the same value to the last bit)."""
    size = counted.size + 1
    if size >= full and singles:
        return float(counted.shown + len(card))
    counts = counted.counts
    matched, spread = counted.matched, counted.spread
    for i in card:  # a guest shows each interest at most once
        c = counts[i]
        if c == 0:
            spread += 2
        elif c == 1:
            matched += 2
            spread -= 1
        else:
            matched += 1
    if size >= full:
        return float(matched)
    need = 5 - size
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    return matched + need * (w.interest_share * spread - w.need_cost)


def _value_now(table: _Table, first: tuple[float, int, int] | None = None) -> float:
    """What the best move(s) this turn are worth, counting a second invitation if any;
    ``first`` is ``_best_invite(table)`` if the caller has it."""
    value, pos, slot = _best_invite(table) if first is None else first
    if table.invites_left > 1 and pos >= 0:
        card = table.line[pos]
        groups = [list(g) for g in table.groups]
        if card >= 0 and slot >= 0:
            groups[slot].append(table.interests_of[card])
        second = _replanned(table, groups, [slot] if slot >= 0 else [])
        second.chips = table.chips + table.line_chips[pos] - (0 if table.free else pos)
        second.line = table.line[:pos] + table.line[pos + 1 :]
        second.line_chips = table.line_chips[:pos] + table.line_chips[pos + 1 :]
        value += max(0.0, _best_invite(second)[0])
    return value


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
        BotParam("belle_value", float, _BELLE_WORTH, "what a Belle in hand is worth, in chips"),
        BotParam(
            "chip_value", float, 1.0, "weight of chips collected or paid when inviting", low=0
        ),
        BotParam("need_cost", float, _NEED_COST, "what each guest a group still needs costs it"),
        BotParam(
            "interest_share",
            float,
            _SHARE,
            "chance an interest is on a random guest (how hopeful open groups are)",
            low=0,
            high=1,
        ),
        BotParam(
            "play_margin",
            float,
            _PLAY_MARGIN,
            "in the variant, how much a Belle must improve this turn before she is played",
        ),
        BotParam(
            "rival_weight", float, _RIVAL_WEIGHT, "what a rival's loss is worth against a gain"
        ),
    )

    def __init__(
        self,
        belle_value: float = _BELLE_WORTH,
        chip_value: float = 1.0,
        need_cost: float = _NEED_COST,
        interest_share: float = _SHARE,
        play_margin: float = _PLAY_MARGIN,
        rival_weight: float = _RIVAL_WEIGHT,
    ) -> None:
        self.weights = Weights(
            belle_value, chip_value, need_cost, interest_share, play_margin, rival_weight
        )
        # Plans (``_Memo``) of earlier decisions, by the seat, its groups (guest indices)
        # and the invitations it expects: a plan depends on those and the weights alone,
        # and a turn's decisions (a Belle, then the invitations) often share them.
        self._plans: dict[tuple[int, int, tuple[tuple[int, ...], ...]], _Memo] = {}
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
        table = _read(info, self.weights, tables)
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
        first = _best_invite(table)
        base = _value_now(table, first)
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

    def _belle_gain(self, table: _Table, effect: str, action: BelleAction, base: float) -> float:
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
        after = _copy(table)
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
        return direct + _value_now(after) - base

    def _move_gain(self, table: _Table, action: BelleAction) -> float:
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
        values = _group_values(table, full)
        left = _Counts(groups[action.group], table.width)
        joined = _Counts(groups[action.dest], table.width)
        before_v = after_v = 0.0
        for slot, value in enumerate(values):
            before_v += value
            if slot == action.group:
                value = _value_of(left, table.future, full, False, w)
            elif slot == action.dest:
                value = _value_of(joined, table.future, full, False, w)
            after_v += value
        direct = after_v - before_v
        if len(groups[action.dest]) >= 5:
            groups[action.dest] = []  # scored at the end of the turn
            joined = _Counts([], table.width)
        after = _replanned(table, groups, (action.group, action.dest), (left, joined))
        return direct + _value_now(after)


def _group_values(table: _Table, full: int) -> list[float]:
    """Each of ``table``'s groups' ``group_value`` (no singles, from its counts: the same
    floats), once per plan."""
    memo = table.memo
    known = memo.values.get(full)
    if known is None:
        counts = memo.counts
        if counts is None:
            counts = memo.counts = [_Counts(g, table.width) for g in table.groups]
        w, future = table.weights, table.future
        known = memo.values[full] = [_value_of(c, future, full, False, w) for c in counts]
    return known


def _is_play(action: Action) -> bool:
    return isinstance(action, BelleAction) and action.kind == PLAY
