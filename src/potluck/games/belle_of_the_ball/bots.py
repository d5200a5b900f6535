"""Belle of the Ball bots. They decide from their seat's view only.

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
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.game import Game
from potluck.games.belle_of_the_ball.actions import INVITE, PLAY, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.scoring import score_group

#: Chance that a given interest is on a random guest (3 interests of 10 in the built-in data).
_SHARE = 0.3
#: What one more guest needed costs a group: finishing sooner is worth something.
_NEED_COST = 0.6
#: What a Belle in hand is worth (the variant's reason to invite one).
_BELLE_WORTH = 3.0
#: How much better a Belle must make this turn before the bot plays her, in the
#: variant, where a played Belle is gone for good. In the base game the hand is
#: drawn back up to three every round, so a Belle kept is a draw lost: the bot
#: plays its best Belle every turn (measured: 64% against 33% for the bot that
#: waited for a 0.75-chip gain, 240 three-player games).
_PLAY_MARGIN = 0.75
_REFILL_MARGIN = float("-inf")
#: Weight of a rival's loss (a chip taken from a rival is worth less than one gained).
_RIVAL_WEIGHT = 0.5


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


@dataclass
class _Table:
    """The part of the view the bot plans with."""

    seat: int
    n: int
    line: list[tuple[int, ...] | None]  # interests per card; None for a Belle
    line_chips: list[int]
    groups: list[Group]
    chips: int
    free: bool
    four_full: bool
    singles: bool
    fifth: bool
    invites_left: int
    future: int  # invitations the bot expects after this one
    rivals: list[tuple[int, int, list[Group]]] = field(default_factory=list)
    weights: Weights = _DEFAULT


def _interests(card: Mapping[str, Any], index: Mapping[str, int]) -> tuple[int, ...] | None:
    if "guest" not in card:
        return None
    return tuple(index[i] for i in card["interests"])


def _read(view: Mapping[str, Any], seat: int, weights: Weights = _DEFAULT) -> _Table:
    index = {name: i for i, name in enumerate(view["interests"])}
    n = int(view["num_players"])
    line = [_interests(card, index) for card in view["line"]]
    bent = set(view["this_turn"]["rules_bent"])
    players = view["players"]
    groups: list[Group] = [
        [tuple(index[i] for i in guest["interests"]) for guest in group]
        for group in players[seat]["groups"]
    ]
    rivals = []
    for player in players:
        if player["seat"] != seat:
            rival_groups: list[Group] = [
                [tuple(index[i] for i in guest["interests"]) for guest in group]
                for group in player["groups"]
            ]
            rivals.append((int(player["seat"]), int(player["chips"]), rival_groups))
    per_player = len(line) // n if line else 0
    future = per_player + 3 * int(view["rounds_left_after_this"])
    return _Table(
        seat=seat,
        n=n,
        line=line,
        line_chips=[int(card["chips"]) for card in view["line"]],
        groups=groups,
        chips=int(players[seat]["chips"]),
        free="free_skips" in bent,
        four_full="four_is_full" in bent,
        singles="singles_score" in bent,
        fifth="fifth_group" in bent,
        invites_left=int(view["this_turn"]["invites_left"]),
        future=future,
        rivals=rivals,
        weights=weights,
    )


def group_value(
    group: Group,
    future: int,
    full: int = 5,
    singles: bool = False,
    weights: Weights = _DEFAULT,
) -> float:
    """What a group is worth: its score when full, else its matches so far plus what the
    guests it still needs are likely to add, if the bot can still finish it."""
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
    best = (-1e9, -1, -1)
    used = sum(1 for g in table.groups if g)
    limit = 5 if table.fifth else 4
    full = 4 if table.four_full else 5
    w = table.weights
    now = [group_value(g, table.future, full, table.singles, w) for g in table.groups]
    for pos, card in enumerate(table.line):
        if pos == exclude:
            continue
        cost = 0 if table.free else pos
        if cost > table.chips:
            break
        gain = w.chip_value * (table.line_chips[pos] - cost)
        if card is None:
            value = gain + w.belle_value
            if value > best[0]:
                best = (value, pos, -1)
            continue
        new_done = False
        for slot, group in enumerate(table.groups):
            if group:
                if len(group) >= 5:
                    continue
            elif new_done or used >= limit:
                continue
            else:
                new_done = True
            after = group_value([*group, card], table.future, full, table.singles, w)
            value = gain + after - now[slot]
            if value > best[0]:
                best = (value, pos, slot)
    return best


def _value_now(table: _Table) -> float:
    """What the best move(s) this turn are worth, counting a second invitation if any."""
    value, pos, slot = _best_invite(table)
    if table.invites_left > 1 and pos >= 0:
        card = table.line[pos]
        second = replace(table)
        second.chips = table.chips + table.line_chips[pos] - (0 if table.free else pos)
        second.groups = [list(g) for g in table.groups]
        if card is not None and slot >= 0:
            second.groups[slot].append(card)
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
    needs_view = True
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

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        assert view is not None
        table = _read(view, seat, self.weights)
        plays = [a for a in legal if isinstance(a, BelleAction) and a.kind == PLAY]
        base = _value_now(table)
        best_play: Action | None = None
        margin = self.weights.play_margin
        best_gain = margin if view["options"].get("belles_in_guest_deck") else _REFILL_MARGIN
        for action in plays:
            assert isinstance(action, BelleAction)
            effect = next(
                b["effect"] for b in view["you"]["hand"] if b["belle"] == _slug_of(action)
            )
            gain = self._belle_gain(table, effect, action, base)
            if gain > best_gain:
                best_gain, best_play = gain, action
        if best_play is not None:
            return best_play
        _, pos, slot = _best_invite(table)
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
        after = replace(table)
        after.groups = [list(g) for g in table.groups]
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
            group = groups[action.group]
            loss = group_value(group, 12) - group_value(group[:-1], 12)
            return table.weights.rival_weight * loss
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
        elif effect == "move_guest":
            moved = after.groups[action.group].pop()
            after.groups[action.dest].append(moved)
            full = 4 if table.four_full else 5
            w = table.weights
            before_v = sum(group_value(g, table.future, full, weights=w) for g in table.groups)
            after_v = sum(group_value(g, table.future, full, weights=w) for g in after.groups)
            direct = after_v - before_v
            if len(after.groups[action.dest]) >= 5:
                after.groups[action.dest] = []  # scored at the end of the turn
        return direct + _value_now(after) - base


def _slug_of(action: BelleAction) -> str:
    return str(action).split()[1]


def _is_play(action: Action) -> bool:
    return isinstance(action, BelleAction) and action.kind == PLAY
