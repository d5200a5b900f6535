"""The upper bounds Belle of the Ball's greedy bot skips searches by (issue 36,
``greedy_bound.GuestBounds``), held to the rule and to the searches they skip:

- ``Planner.group_bound`` is at least the value of every guest the seat can reach in the
  line, each valued by ``group_value`` (the rule the planner's estimates are held to),
  for random groups, lines, bent rules and weights;
- a Belle's gain given a gain to beat (``GreedyBot._belle_gain``) is her gain, or an
  upper bound of it when her gain cannot exceed the gain to beat: the bot's choice,
  which takes a Belle only for a gain above the best so far, is the same;
- Persuasive Prudence's moves valued in the legal list's order, each move out of a group
  reusing that group's value and bound from the move before (``GreedyBot._move_gain``),
  give the gains each move gives worked out afresh (``GreedyBot.forget_moves`` first),
  and so do they valued in any order; the guest a move keeps out of her group's counts
  is counted there again by ``forget_moves`` and by the end of a decision;
- a Belle whose re-plan ``GreedyBot._bends_nothing`` skips gains exactly nothing, and
  the Belle plays, valued with Prudence's moves last, are chosen as in the legal list's order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from belle_of_the_ball_helpers import GREEDY_WEIGHTS, random_play_states
from potluck.engine.action import Action
from potluck.games.belle_of_the_ball.actions import PLAY, BelleAction
from potluck.games.belle_of_the_ball.bots import GreedyBot, _terms
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.greedy_bound import NO_GUEST
from potluck.games.belle_of_the_ball.greedy_counts import Terms
from potluck.games.belle_of_the_ball.greedy_plan import Planner, Weights, group_value
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS, BelleState
from potluck.games.belle_of_the_ball.tables import (
    EFFECT_FIFTH_GROUP,
    EFFECT_FOUR_IS_FULL,
    EFFECT_MOVE_GUEST,
    EFFECT_SINGLES_SCORE,
)

G = BelleOfTheBall()
#: Sums rounded otherwise than the search's: the bot's margin is 1e-9.
ROUNDING = 1e-12


def _best_by_the_rule(
    weights: Weights, future: int, terms: Terms, group: list[tuple[int, ...]]
) -> float:
    """The best guest's value for ``group`` on ``terms``, each guest valued by
    ``group_value`` with and without it (``NO_GUEST`` if the seat reaches none)."""
    full, singles = terms.full, terms.singles
    before = group_value(group, future, full, singles, weights)
    best = NO_GUEST
    for pos, card in enumerate(terms.line):
        cost = 0 if terms.free else pos
        if cost > terms.chips:
            break
        if card < BELLE_BASE:
            after = group_value([*group, G.guest_interests[card]], future, full, singles, weights)
            best = max(best, weights.chip_value * (terms.line_chips[pos] - cost) + after - before)
    return best


_RULES = st.tuples(st.booleans(), st.sampled_from((4, 5)), st.booleans())


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    rules=_RULES,
    guests=st.lists(st.integers(0, len(G.guest_interests) - 1), max_size=5, unique=True),
    future=st.integers(0, 12),
    chips=st.integers(0, 9),
    pick=st.integers(0, 10_000),
)
def test_a_group_bound_is_at_least_every_guest_the_rule_values(
    seed: int,
    variant: bool,
    weights: Weights,
    rules: tuple[bool, int, bool],
    guests: list[int],
    future: int,
    chips: int,
    pick: int,
) -> None:
    states = random_play_states(G, seed, variant)
    state = states[pick % len(states)]
    free, full, singles = rules
    terms = Terms(tuple(state.line), tuple(state.line_chips), chips, free, full, singles)
    planner = Planner(weights)
    planner.use_guests(G)
    planner.future = future
    group = [G.guest_interests[guest] for guest in guests]
    for shown in group:
        planner.add(1, shown)
    best = _best_by_the_rule(weights, future, terms, group)
    bound = planner.group_bound(1, terms)
    assert bound >= best - ROUNDING
    if best == NO_GUEST:
        assert bound == NO_GUEST


#: States of a random game and gains to beat around a Belle's own (as shifts of it).
_GAINS_TO_BEAT = given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    shifts=st.lists(st.floats(-3, 3), min_size=1, max_size=4),
)


def _bot(weights: Weights) -> GreedyBot:
    return GreedyBot(
        weights.belle_value, weights.chip_value, weights.need_cost, weights.interest_share
    )


def _decision_base(
    bot: GreedyBot, state: BelleState, seat: int, legal: Sequence[Action]
) -> tuple[SeatInfo, Terms, float]:
    """The seat's ``SeatInfo``, its terms and the turn's worth without a Belle, with the
    seat's planner counted by a decision (``GreedyBot.choose``) and searched afresh."""
    info = G.bot_view(state, seat)
    bot.choose(G, info, seat, legal, random.Random(0))
    planner = bot._planner
    planner.forget()
    planner.future = len(info.line) // len(info.chips) + 3 * info.rounds_left
    terms = _terms(info)
    return info, terms, planner.value_now(terms, planner.best_invite(terms))


@settings(max_examples=40, deadline=None)
@_GAINS_TO_BEAT
def test_a_belle_gain_given_a_gain_to_beat_decides_alike(
    seed: int, variant: bool, weights: Weights, shifts: list[float]
) -> None:
    """Every Belle the seat to act may play, in states of random play, with gains to
    beat around her own (and equal to it): her gain, or a bound of it when it cannot
    beat the gain to beat."""
    bot = _bot(weights)
    for state in random_play_states(G, seed, variant)[::3]:
        seat = state.acting[0]
        legal = G.legal_actions(state, seat)
        plays = [a for a in legal if isinstance(a, BelleAction) and a.kind == PLAY]
        if not plays:
            continue
        info, terms, base = _decision_base(bot, state, seat, legal)
        for number, action in enumerate(plays):
            bot.forget_moves()
            effect = G.belle_effect_codes[action.belle]
            gain = bot._belle_gain(info, terms, effect, action, base)
            for to_beat in (gain, gain + shifts[number % len(shifts)]):
                given_beat = bot._belle_gain(info, terms, effect, action, base, to_beat)
                assert given_beat >= gain - ROUNDING
                if gain > to_beat:
                    assert given_beat == gain


def _prudence_moves(legal: Sequence[Action]) -> list[BelleAction]:
    """Persuasive Prudence's moves in ``legal``, in its order."""
    return [
        a
        for a in legal
        if isinstance(a, BelleAction)
        and a.kind == PLAY
        and G.belle_effect_codes[a.belle] == EFFECT_MOVE_GUEST
    ]


def _counts(planner: Planner) -> list[tuple[int, ...]]:
    """The seat's groups as the planner counts them."""
    return [
        (g.size, g.shown, g.matched, g.spread, g.packed, g.once, g.shared)
        for g in planner.groups[:SLOTS]
    ]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=GREEDY_WEIGHTS,
    shifts=st.lists(st.floats(-3, 3), min_size=1, max_size=4),
    order=st.randoms(use_true_random=False),
)
def test_guest_moves_out_of_one_group_share_its_value_and_bound(
    seed: int, variant: bool, weights: Weights, shifts: list[float], order: random.Random
) -> None:
    """Every state of random play where the seat to act may play Persuasive Prudence:
    her moves valued one after another, with gains to beat around each one's own (so
    both the bound and the search are taken), equal to each valued afresh, in the legal
    list's order and in a random one (a group left again after moves out of others);
    ``forget_moves`` leaves the groups counted as before the first move, and a decision
    (``GreedyBot.choose``), after moves or not, as its ``SeatInfo`` shows them."""
    bot = _bot(weights)
    states = random_play_states(G, seed, variant)
    for number, state in enumerate(states):
        seat = state.acting[0]
        legal = G.legal_actions(state, seat)
        moves = _prudence_moves(legal)
        if not moves:
            continue
        info, terms, base = _decision_base(bot, state, seat, legal)
        planner = bot._planner
        loaded = Planner(weights)
        loaded.use_guests(G)
        for slot in range(SLOTS):
            party = seat * SLOTS + slot
            loaded.load_party(slot, info.party_lists[party], info.party_size(party))
        assert _counts(planner) == _counts(loaded)  # (as the decision left them)
        afresh: list[float] = []
        for pick, action in enumerate(moves):
            bot.forget_moves()
            to_beat = base + shifts[pick % len(shifts)]
            afresh.append(bot._belle_gain(info, terms, EFFECT_MOVE_GUEST, action, base, to_beat))
            bot.forget_moves()
            assert _counts(planner) == _counts(loaded)
        in_order = list(range(len(moves)))
        shuffled = in_order * 2
        order.shuffle(shuffled)
        for picks in (in_order, shuffled):
            bot.forget_moves()
            for pick in picks:
                to_beat = base + shifts[pick % len(shifts)]
                gain = bot._belle_gain(info, terms, EFFECT_MOVE_GUEST, moves[pick], base, to_beat)
                assert gain == afresh[pick]
        # A decision next, with a guest still out: another seat's (the next state's, if
        # another seat acts there), else this one's again; either leaves this seat's
        # groups counted as they stand.
        later = states[number + 1] if number + 1 < len(states) else state
        other = later.acting[0]
        if other == seat:
            later, other = state, seat
        bot.choose(
            G, G.bot_view(later, other), other, G.legal_actions(later, other), random.Random(0)
        )
        assert _counts(planner) == _counts(loaded)


#: The Belles whose re-plan ``GreedyBot._bends_nothing`` may find the same as the
#: decision's first search, each as her one play.
_BENDERS = [
    G.single_plays[G.belle_effect_codes.index(effect)]
    for effect in (EFFECT_FOUR_IS_FULL, EFFECT_SINGLES_SCORE, EFFECT_FIFTH_GROUP)
]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.booleans(), weights=GREEDY_WEIGHTS)
def test_a_replan_that_bends_nothing_gains_nothing(
    seed: int, variant: bool, weights: Weights
) -> None:
    """In every state of a random game, for the seat to act (its groups as they stand,
    the rules as bent this turn, one or two invitations to make): wherever
    ``_bends_nothing`` says so of Chaperone Clementine, Romantic Rosalind or Grand Dame
    Gwendolyn, her re-plan (searched: no gain to beat) finds exactly the turn's worth
    without her, a gain of 0.0, which is what the bot gives without it."""
    bot = _bot(weights)
    for state in random_play_states(G, seed, variant):
        seat = state.acting[0]
        legal = G.legal_actions(state, seat)
        info, terms, base = _decision_base(bot, state, seat, legal)
        for action in _BENDERS:
            assert action is not None
            effect = G.belle_effect_codes[action.belle]
            if bot._bends_nothing(effect, terms):
                assert bot._belle_gain(info, terms, effect, action, base) == 0.0
                assert bot._belle_gain(info, terms, effect, action, base, 0.0) == 0.0


#: Weights that value in whole chips (no share, no need cost, Belles in line worth
#: nothing), so that two plays often gain exactly alike: ties to break.
_WHOLE = Weights(0.0, 1.0, 0.0, 0.0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.booleans(),
    weights=st.one_of(GREEDY_WEIGHTS, st.just(_WHOLE)),
    margin=st.sampled_from((0.75, 0.0, -1.0)),
    rival_weight=st.sampled_from((0.5, 0.0, 1.0)),
)
def test_the_belle_chosen_is_the_first_of_the_most_gain_in_the_legal_list(
    seed: int, variant: bool, weights: Weights, margin: float, rival_weight: float
) -> None:
    """The bot values Persuasive Prudence's moves last, not in the legal list's order
    (``GreedyBot._decide``); in every state of a random game where the seat to act may
    play a Belle, its choice is the one of the legal list's order: the first play whose
    gain, worked out afresh with nothing to beat, is the most and above the margin (in
    the variant; in the base game any), else no Belle. Whole-chip weights make ties."""
    bot = GreedyBot(
        weights.belle_value,
        weights.chip_value,
        weights.need_cost,
        weights.interest_share,
        margin,
        rival_weight,
    )
    for state in random_play_states(G, seed, variant):
        seat = state.acting[0]
        legal = G.legal_actions(state, seat)
        plays = [a for a in legal if isinstance(a, BelleAction) and a.kind == PLAY]
        if not plays:
            continue
        chosen = bot.choose(G, G.bot_view(state, seat), seat, legal, random.Random(0))
        info, terms, base = _decision_base(bot, state, seat, legal)
        best_gain = margin if variant else float("-inf")
        best: Action | None = None
        for action in plays:
            bot.forget_moves()
            gain = bot._belle_gain(info, terms, G.belle_effect_codes[action.belle], action, base)
            if gain > best_gain:
                best_gain, best = gain, action
        if best is None:
            assert chosen not in plays
        else:
            assert chosen is best
