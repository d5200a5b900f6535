"""How well predicted chances match what happened: Brier score and reliability bins.

A forecast of 30% should come true about 30% of the time. The **Brier score** is
the mean squared difference between each predicted chance and the outcome (1 if
it happened, 0 if not, or a share, as for a shared win): 0 is perfect, and
always predicting the base rate ``p`` scores ``p * (1 - p)``. The **reliability
table** puts the predictions in bins and sets each bin's mean prediction beside
how often its outcomes came true, with a 95% Wilson interval.

    >>> predictions = [0.1, 0.2, 0.8, 0.9]
    >>> outcomes = [0.0, 0.0, 1.0, 1.0]
    >>> round(brier_score(predictions, outcomes), 3)
    0.025
    >>> bins = reliability(predictions, outcomes, 2)
    >>> [(b.count, round(b.predicted, 2), b.observed) for b in bins]
    [(2, 0.15, 0.0), (2, 0.85, 1.0)]

Outcomes of one game are not independent of each other (every position of a
game ends the same way), so the intervals, which treat them as independent, are
too narrow when many positions come from few games; :func:`brier_interval`
resamples whole games instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from potluck.engine.errors import PotluckError
from potluck.intervals import wilson_interval

__all__ = ["ReliabilityBin", "brier_interval", "brier_score", "reliability"]


def _check(predictions: Sequence[float], outcomes: Sequence[float]) -> None:
    if len(predictions) != len(outcomes):
        raise PotluckError(
            f"{len(predictions)} predictions but {len(outcomes)} outcomes: give one each"
        )
    if not predictions:
        raise PotluckError("no predictions to score")
    for name, values in (("prediction", predictions), ("outcome", outcomes)):
        bad = next((v for v in values if not 0.0 <= v <= 1.0), None)
        if bad is not None:
            raise PotluckError(f"a {name} is a chance from 0 to 1, not {bad}")


def brier_score(predictions: Sequence[float], outcomes: Sequence[float]) -> float:
    """The mean of ``(prediction - outcome) ** 2``: 0 is perfect."""
    _check(predictions, outcomes)
    return sum((p - o) ** 2 for p, o in zip(predictions, outcomes, strict=True)) / len(outcomes)


def brier_interval(
    groups: Sequence[tuple[Sequence[float], Sequence[float]]],
    resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float]:
    """A 95% interval for the Brier score of ``groups`` (each a game's predictions and
    outcomes), by resampling whole games with replacement (a cluster bootstrap).

        >>> games = [([0.9, 0.8], [1.0, 1.0]), ([0.3, 0.1], [0.0, 0.0]), ([0.5], [1.0])]
        >>> low, high = brier_interval(games, resamples=200)
        >>> 0.0 <= low <= high <= 1.0
        True
    """
    if not groups:
        raise PotluckError("no games to resample")
    sums = []
    for predictions, outcomes in groups:
        _check(predictions, outcomes)
        squared = sum((p - o) ** 2 for p, o in zip(predictions, outcomes, strict=True))
        sums.append((squared, len(outcomes)))
    rng = random.Random(seed)
    scores = []
    for _ in range(resamples):
        picked = [sums[rng.randrange(len(sums))] for _ in sums]
        scores.append(sum(s for s, _ in picked) / sum(n for _, n in picked))
    scores.sort()
    return scores[int(0.025 * (resamples - 1))], scores[int(0.975 * (resamples - 1))]


@dataclass(frozen=True)
class ReliabilityBin:
    """The predictions that fell in ``[low, high)`` (the last bin includes 1)."""

    low: float
    high: float
    count: int
    predicted: float  # mean prediction in the bin
    observed: float  # mean outcome in the bin
    observed_low: float  # 95% Wilson interval of the observed rate
    observed_high: float


def reliability(
    predictions: Sequence[float], outcomes: Sequence[float], bins: int = 10
) -> list[ReliabilityBin]:
    """The non-empty bins of equal width over 0..1, each with its mean prediction and
    observed rate (a reliability diagram's points)."""
    _check(predictions, outcomes)
    if bins < 1:
        raise PotluckError(f"bins must be at least 1, not {bins}")
    members: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for p, o in zip(predictions, outcomes, strict=True):
        members[min(int(p * bins), bins - 1)].append((p, o))
    table = []
    for k, inside in enumerate(members):
        if not inside:
            continue
        count = len(inside)
        observed = sum(o for _, o in inside) / count
        low, high = wilson_interval(observed * count, count)
        table.append(
            ReliabilityBin(
                low=k / bins,
                high=(k + 1) / bins,
                count=count,
                predicted=sum(p for p, _ in inside) / count,
                observed=observed,
                observed_low=low,
                observed_high=high,
            )
        )
    return table
