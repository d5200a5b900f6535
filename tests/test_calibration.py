"""Calibration helpers (`potluck.calibration`): Brier score, reliability bins, the
games-resampled interval, and the judge's win chances as probabilities."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.calibration import brier_interval, brier_score, reliability
from potluck.engine.errors import PotluckError
from potluck.judge import make_judge


def test_brier_score_of_known_forecasts() -> None:
    assert brier_score([1.0, 0.0], [1.0, 0.0]) == 0.0
    assert brier_score([0.0, 1.0], [1.0, 0.0]) == 1.0
    assert brier_score([0.25] * 4, [1.0, 0.0, 0.0, 0.0]) == pytest.approx(0.1875)  # p(1-p)
    assert brier_score([0.5], [0.5]) == 0.0  # a shared win is a share


def test_a_calibrated_forecast_bins_onto_the_diagonal() -> None:
    rng = random.Random(4)
    predictions = [rng.random() for _ in range(20000)]
    outcomes = [1.0 if rng.random() < p else 0.0 for p in predictions]
    table = reliability(predictions, outcomes, bins=10)
    assert [round(b.low, 1) for b in table] == [k / 10 for k in range(10)]
    assert sum(b.count for b in table) == 20000
    for row in table:
        assert row.low <= row.predicted < row.high
        assert abs(row.observed - row.predicted) < 0.04
        assert row.observed_low < row.observed < row.observed_high
    # an overconfident forecaster is caught: it says 0.9 where 0.6 comes true
    bad = reliability([0.9] * 1000, [1.0] * 600 + [0.0] * 400, bins=10)
    assert len(bad) == 1
    assert bad[0].observed_high < 0.9
    assert reliability([1.0], [1.0], bins=4)[0].high == 1.0  # 1 falls in the last bin


def test_the_interval_resamples_whole_games() -> None:
    games = [([0.8] * 30, [1.0] * 30), ([0.8] * 30, [0.0] * 30)] * 5
    low, high = brier_interval(games, resamples=500, seed=1)
    point = brier_score([p for g in games for p in g[0]], [o for g in games for o in g[1]])
    assert low < point < high
    # thirty positions of a game are one observation, not thirty: the interval is wide
    assert high - low > 0.15


@pytest.mark.parametrize(
    ("predictions", "outcomes", "words"),
    [
        ([0.5], [1.0, 0.0], "1 predictions but 2 outcomes"),
        ([], [], "no predictions"),
        ([1.5], [1.0], "a prediction is a chance from 0 to 1, not 1.5"),
        ([0.5], [-1.0], "a outcome is a chance from 0 to 1, not -1.0"),
    ],
)
def test_bad_input_is_refused(predictions: list[float], outcomes: list[float], words: str) -> None:
    with pytest.raises(PotluckError, match=words):
        brier_score(predictions, outcomes)


def test_reliability_refuses_no_bins() -> None:
    with pytest.raises(PotluckError, match="bins must be at least 1"):
        reliability([0.5], [1.0], bins=0)
    with pytest.raises(PotluckError, match="no games"):
        brier_interval([])


@pytest.mark.parametrize("game_id", ["cafe-carnage", "belly-battle", "burger-joint"])
def test_the_judges_win_chances_are_probabilities(game_id: str) -> None:
    """Every value the judge reports is a chance in 0..1 (a margin game's too), and at the
    start of a game the seats' chances add up to about 1."""
    game = potluck.load_game(game_id)
    players = 2 if game_id == "burger-joint" else 4
    state = game.new_game(players, seed=11)
    judge = make_judge(game, "playouts:worlds=40,min_worlds=40,time=0,candidates=3")
    total = 0.0
    for seat in range(players):
        played = game.legal_actions(state, seat)[0] if seat in state.acting else None
        if played is None:
            continue
        found = judge.judge(state, seat, played, (0.05, 0.10, 0.20), seed="p")
        for value in (found.before, found.after, *(m.value for m in found.compared)):
            assert 0.0 <= value <= 1.0
        total += found.before
    if len(state.acting) == players:  # everyone chooses now: their chances share 1
        assert 0.6 < total < 1.6
