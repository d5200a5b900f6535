"""The move judge's arithmetic: verdict bands, win chances, losses shrunk by their
noise, points, and the race's halving (``potluck.judge`` plays the worlds; these
turn its tallies into figures).

    >>> verdict(shrunk_loss(0.30, 0.04), (0.05, 0.10, 0.20))
    'blunder'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["halve", "mean", "points", "rank", "shrunk_loss", "stderr", "verdict", "win_chance"]

#: A point's weight beside a world's win share when the race ranks moves.
_POINT_WEIGHT = 1e-9


def verdict(loss: float, thresholds: tuple[float, float, float]) -> str:
    """The verdict on a loss of win chance: ``""``, inaccuracy, mistake or blunder.

    >>> verdict(0.12, (0.05, 0.10, 0.20)), verdict(0.01, (0.05, 0.10, 0.20))
    ('mistake', '')
    """
    inaccuracy, mistake, blunder = thresholds
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    if loss >= inaccuracy:
        return "inaccuracy"
    return ""


def win_chance(won: float, worlds: int, players: int, prior: float = 2.0) -> float:
    """A win chance from ``won`` wins (shares summed) in ``worlds`` playouts, with
    ``prior`` worlds' worth of the fair share (1/players) added: the mean of a Beta
    posterior, so a finite sample never says 0% (a seat that won none of 32 worlds at
    four seats stands at about 1.5%, not at nothing) and a few worlds say little.

    >>> round(win_chance(0, 32, 4), 3), round(win_chance(32, 32, 4), 3), win_chance(0, 0, 4)
    (0.015, 0.956, 0.25)
    """
    return (won + prior / players) / (worlds + prior) if worlds + prior > 0 else 1.0 / players


def shrunk_loss(difference: float, stderr: float) -> float:
    """A loss estimated as ``difference`` with standard error ``stderr``, shrunk by its
    noise: ``difference * (1 - (stderr / difference)**2)`` when that is above 0, else 0
    (the positive-part James-Stein estimate). A loss within its noise of nothing shows
    as none, a clear one nearly whole; so a good move's noise is not counted as loss
    (cutting at 0 alone counted 0.4 standard errors on average).

    >>> round(shrunk_loss(0.30, 0.04), 4), shrunk_loss(0.03, 0.05), shrunk_loss(-0.1, 0.01)
    (0.2947, 0.0, 0.0)
    """
    if difference <= stderr:
        return 0.0
    return difference - stderr * stderr / difference


def points(scores: Sequence[float], seat: int) -> float:
    """The seat's points: its score minus the mean of the other seats' scores.

    >>> points((30.0, 20.0, 10.0), 0), points((6.0, 12.0), 0)
    (15.0, -6.0)
    """
    others = [s for q, s in enumerate(scores) if q != seat]
    return scores[seat] - sum(others) / len(others) if others else float(scores[seat])


def halve(alive: list[int], rewards: list[list[float]], keep: set[int], most: int = 0) -> list[int]:
    """The better half of ``alive`` by mean reward (the best ``most`` if given), with
    ``keep`` kept whatever theirs (and counted in ``most``).

    >>> rewards = [[0.1], [0.2], [0.9], [0.8], [0.3], [0.7]]
    >>> halve([0, 1, 2, 3, 4, 5], rewards, keep={0})
    [0, 2, 3]
    >>> halve([0, 2, 3, 5], rewards, keep={0}, most=2)
    [0, 2]
    """
    size = most if most else math.ceil(len(alive) / 2)
    kept = [i for i in alive if i in keep]
    ranked = sorted((i for i in alive if i not in keep), key=lambda i: -mean(rewards[i]))
    better = set(kept + ranked[: max(0, size - len(kept))])
    return [i for i in alive if i in better]


def rank(win: float, score: float) -> float:
    """How the race ranks a move on one world: its win share, then its points (a tie
    breaker far below a world's weight: where no compared move wins, points decide)."""
    return win + _POINT_WEIGHT * score


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def stderr(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
