"""The judge's stop and a seat's mean loss (``potluck.judge``, ``potluck.review``).

The judge stops judging a move once the difference it has seen settles a verdict,
which happens sooner where that difference ran low: the mean over every judging
world (``difference``) is biased low on small losses, the classic bias of optional
stopping. ``fixed_difference``, on the worlds every judgement plays before it may
stop, is not, and is what a seat's mean loss averages. These tests feed the judge
worlds whose outcomes they set (a stand-in for ``potluck.judge._Worlds``), so the
true difference between two moves is known.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
import potluck.judge as judge_module
from potluck.engine.action import Action
from potluck.judge import make_judge
from potluck.review import DEFAULT_THRESHOLDS, MoveReview, summarise
from potluck.search.information import InformationSet

_GAME = potluck.load_game("burger-joint")


def _position() -> tuple[Any, list[Action]]:
    """A Burger Joint position of seat 0 with three or more legal moves."""
    state = _GAME.new_game(2, seed=4)
    rng = random.Random(0)
    while len(_GAME.legal_actions(state, state.acting[0])) < 3 or state.acting[0] != 0:
        seat = state.acting[0]
        _GAME.step(state, seat, rng.choice(_GAME.legal_actions(state, seat)))
    return state, _GAME.legal_actions(state, 0)


class _SetWorlds:
    """Worlds whose outcomes a test sets: ``outcome(world, is_played)`` is the seat's win
    share on world number ``world`` after the played move (True) or any other move. Each
    world's pair of outcomes is kept, in order, for the test to read back."""

    outcome: ClassVar[Any] = None
    seen: ClassVar[list[tuple[int, Sequence[Action]]]] = []

    def __init__(self, judge: Any, info: Any, seat: int, seed: str, *_: Any) -> None:
        self.count = 0
        self.playouts = 0
        self.played: Action | None = None

    def play(self, moves: Sequence[Action]) -> list[tuple[float, float]]:
        world = self.count
        self.count += 1
        self.playouts += len(moves)
        type(self).seen.append((world, tuple(moves)))
        first = moves[0]  # the judge always puts the played move first
        return [(type(self).outcome(world, move == first), 0.0) for move in moves]


def _judge_with(outcome: Any, spec: str) -> tuple[Any, list[tuple[int, Sequence[Action]]]]:
    """The judge's verdict on the position's first legal move, on worlds ``outcome`` sets,
    and the worlds it asked for (their numbers and moves, in order)."""
    state, legal = _position()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_SetWorlds, "outcome", staticmethod(outcome))
        patch.setattr(_SetWorlds, "seen", [])
        patch.setattr(judge_module, "_Worlds", _SetWorlds)
        judge = make_judge(_GAME, spec)
        info = InformationSet(_GAME, state, 0)
        found = judge.assess(info, legal, legal[0], DEFAULT_THRESHOLDS, "stop")
        return found, _SetWorlds.seen


@settings(max_examples=60, deadline=None)
@given(
    wins=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=200, max_size=200),
    min_worlds=st.sampled_from([8, 16, 32]),
)
def test_the_fixed_difference_is_the_mean_of_the_first_judging_worlds(
    wins: list[tuple[bool, bool]], min_worlds: int
) -> None:
    """Whatever the worlds show, ``fixed_difference`` is the mean paired difference on
    the first ``min_worlds`` judging worlds, which are always played: so no stop, which
    looks at the worlds after them too, changes which worlds it averages."""

    def outcome(world: int, is_played: bool) -> float:
        played, other = wins[world % len(wins)]
        return float(played if is_played else other)

    spec = f"playouts:worlds=150,min_worlds={min_worlds},time=0,precision=0.04"
    found, seen = _judge_with(outcome, spec)
    judging = found.worlds - found.compared[0].worlds
    if found.best == found.played and found.difference == 0.0 and found.fixed_difference == 0.0:
        return  # the played move ranked first: judged alone, no loss
    assert judging >= min_worlds  # the judge never stops before them (no time bound)
    first = [w for w, _ in seen[len(seen) - judging :]][:min_worlds]
    diffs = [outcome(w, False) - outcome(w, True) for w in first]
    assert found.fixed_difference == pytest.approx(statistics.fmean(diffs))
    if judging == min_worlds:
        assert found.fixed_difference == pytest.approx(found.difference)


def test_the_stop_biases_the_mean_of_every_judging_world_and_not_the_fixed_one() -> None:
    """A nearly won position (the played move wins 90% of worlds) where every other move
    wins 2 points of win chance more, on the same worlds: the true loss is 0.02. Where the
    race found another move better (its judging worlds are fresh, so what the race saw
    does not bias them), over many judgements the fixed difference averages the true
    loss; the difference over every judging world averages well below it, because the
    judge stops early where it saw no loss."""
    rng = random.Random(7)
    draws: dict[int, float] = {}
    fixed, stopped = [], []
    for _ in range(400):
        draws.clear()

        def outcome(world: int, is_played: bool) -> float:
            u = draws.setdefault(world, rng.random())
            return float(u < (0.90 if is_played else 0.92))

        spec = "playouts:worlds=400,min_worlds=32,time=0"
        found, _ = _judge_with(outcome, spec)
        if found.raced == found.played:
            continue  # the race saw no lead (a tie goes to the played move): not judged
        fixed.append(found.fixed_difference)
        stopped.append(found.difference)
    assert len(fixed) > 100
    error = statistics.stdev(fixed) / len(fixed) ** 0.5
    assert abs(statistics.fmean(fixed) - 0.02) < 3 * error
    assert statistics.fmean(stopped) < 0.02 - 3 * error


def test_a_seats_mean_loss_averages_the_fixed_differences() -> None:
    """``summarise`` averages the fixed differences (and points); an analysis saved before
    they were measured reads back with its ``difference`` standing in."""
    made = [
        MoveReview(1, 0, "a", "b", 0.5, 0.4, "", 9, difference=0.01, fixed_difference=0.05),
        MoveReview(2, 0, "c", "d", 0.5, 0.4, "", 9, difference=0.0, fixed_difference=0.03),
        MoveReview(3, 0, "e", "e", 0.5, 0.5, "", 9, point_difference=2.0),
    ]
    summary = summarise(made)
    assert summary.mean_loss == pytest.approx(0.08 / 3)
    assert summary.mean_points_lost == pytest.approx(2.0 / 3)
    assert made[0].stakes == pytest.approx(0.05)
    old = {k: v for k, v in made[0].to_json().items() if not k.startswith("fixed")}
    assert MoveReview.from_json(old).unbiased_difference == 0.01
