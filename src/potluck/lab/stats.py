"""The statistics the lab reports: intervals, paired tests and agent ratings.

Pure functions on plain numbers, so they are easy to test on their own::

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> d = paired_difference([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 4.0])
    >>> d.mean, d.n
    (0.75, 4)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scipy import stats as _stats

__all__ = [
    "PairedDifference",
    "bradley_terry",
    "elo_from_strengths",
    "paired_difference",
    "proportion_test",
    "wilson_interval",
]

#: Two-sided 95%: every interval in the report uses it.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike p ± 2 se).

    ``successes`` may be fractional: a shared win counts ``1/k`` to each winner.

        >>> wilson_interval(0, 0)
        (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion_test(successes: float, trials: float, expected: float) -> float:
    """Two-sided p-value of "the true rate is ``expected``" (normal approximation).

    >>> round(proportion_test(60, 100, 0.5), 4)
    0.0455
    """
    if trials <= 0 or not 0 < expected < 1:
        return 1.0
    se = math.sqrt(expected * (1 - expected) / trials)
    z = (successes / trials - expected) / se
    return float(2 * _stats.norm.sf(abs(z)))


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """The mean of ``arm - baseline`` over paired games, its 95% CI and a paired t-test."""

    mean: float
    low: float
    high: float
    p_value: float
    n: int


def paired_difference(arm: Sequence[float], baseline: Sequence[float]) -> PairedDifference:
    """Compare two arms game by game (same seeds and seats), so that the deal's luck cancels.

    The interval is the t interval of the mean difference and the p-value the
    paired t-test's; with fewer than two pairs or no spread there is no test
    (p = 1 when every difference is 0).
    """
    if len(arm) != len(baseline):
        raise ValueError(f"paired samples differ in length: {len(arm)} and {len(baseline)}")
    diffs = [a - b for a, b in zip(arm, baseline, strict=True)]
    n = len(diffs)
    if n == 0:
        return PairedDifference(math.nan, math.nan, math.nan, math.nan, 0)
    mean = sum(diffs) / n
    if n < 2:
        return PairedDifference(mean, math.nan, math.nan, math.nan, n)
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if variance == 0:
        return PairedDifference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n)
    se = math.sqrt(variance / n)
    t = float(_stats.t.ppf(0.975, n - 1))
    p = float(2 * _stats.t.sf(abs(mean / se), n - 1))
    return PairedDifference(mean, mean - t * se, mean + t * se, p, n)


def bradley_terry(
    wins: Mapping[tuple[str, str], float], iterations: int = 500, tolerance: float = 1e-10
) -> dict[str, float]:
    """Bradley-Terry strengths from ``wins[(a, b)]`` = how often ``a`` finished ahead of ``b``.

    Fitted with the classic MM iteration (Hunter 2004); strengths are scaled to a
    geometric mean of 1. Half a win each for a tie. A prior of one half-win each
    way between every pair that met keeps an unbeaten agent's strength finite.

        >>> s = bradley_terry({("a", "b"): 30, ("b", "a"): 10})
        >>> round(s["a"] / s["b"], 2)
        2.9
    """
    names = sorted({name for pair in wins for name in pair})
    if len(names) < 2:
        return dict.fromkeys(names, 1.0)
    met: dict[tuple[str, str], float] = {}
    won = dict.fromkeys(names, 0.0)
    for (a, b), count in wins.items():
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        met[key] = met.get(key, 0.0) + count
        won[a] += count
    for a, b in list(met):
        # The prior: half a win each way for every pair that met.
        met[(a, b)] += 1.0
        won[a] += 0.5
        won[b] += 0.5
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        updated = {}
        for name in names:
            denominator = sum(
                count / (strength[a] + strength[b])
                for (a, b), count in met.items()
                if name in (a, b)
            )
            updated[name] = won[name] / denominator if denominator else strength[name]
        scale = math.exp(sum(math.log(v) for v in updated.values()) / len(updated))
        updated = {name: value / scale for name, value in updated.items()}
        change = max(abs(updated[name] - strength[name]) for name in names)
        strength = updated
        if change < tolerance:
            break
    return strength


def elo_from_strengths(strengths: Mapping[str, float], base: float = 1500.0) -> dict[str, float]:
    """Bradley-Terry strengths on the Elo scale: 400 points = ten times as strong.

    >>> elo = elo_from_strengths({"a": 10.0, "b": 1.0})
    >>> elo["a"] - elo["b"]
    400.0
    """
    if not strengths:
        return {}
    mean_log = sum(math.log10(v) for v in strengths.values()) / len(strengths)
    return {name: base + 400 * (math.log10(v) - mean_log) for name, v in strengths.items()}
