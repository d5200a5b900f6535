"""The statistics the lab reports: intervals, paired and seat tests, correlations, ratings.

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
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as _stats

from potluck.intervals import Z95 as _Z95
from potluck.intervals import wilson_interval

__all__ = [
    "PairedDifference",
    "adjust_p",
    "binned_rates",
    "equal_seats_test",
    "format_p",
    "paired_difference",
    "pairwise_ratings",
    "proportion_test",
    "rank_correlation",
    "wilson_interval",
]

#: Two-sided 95%: every interval in the report uses it.
Z95 = _Z95


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


def equal_seats_test(wins: Sequence[float]) -> tuple[float, float]:
    """Chi-square test of "every seat wins as often": the statistic and its p-value.

    ``wins[s]`` is seat ``s``'s total win share (a shared win counts ``1/k``).

        >>> statistic, p = equal_seats_test([30, 20, 25, 25])
        >>> round(statistic, 2), round(p, 3)
        (2.0, 0.572)
    """
    total = sum(wins)
    if total <= 0 or len(wins) < 2:
        return math.nan, math.nan
    result = _stats.chisquare(list(wins))
    return float(result.statistic), float(result.pvalue)


def rank_correlation(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Spearman's rank correlation of two samples and its two-sided p-value.

    >>> rho, p = rank_correlation([1, 2, 3, 4, 5], [0, 0, 1, 1, 1])
    >>> round(rho, 2)
    0.87
    """
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return math.nan, math.nan
    result = _stats.spearmanr(xs, ys)
    return float(result.statistic), float(result.pvalue)


def binned_rates(
    values: Sequence[float], wins: Sequence[float], bins: int = 4
) -> list[dict[str, float]]:
    """The mean win share of the seats in each of ``bins`` equal-count ranges of ``values``.

    Ties stay in one bin, so a bin may hold more seats than another. Each bin has
    its range, its seat count, its win share and the share's 95% Wilson interval.

        >>> [(b["low_value"], b["high_value"], b["seats"]) for b in
        ...  binned_rates([1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 1, 0, 1, 1, 1], bins=2)]
        [(1.0, 4.0, 4), (5.0, 8.0, 4)]
    """
    ordered = sorted(zip(values, wins, strict=True))
    found: list[dict[str, float]] = []
    start = 0
    for k in range(1, bins + 1):
        end = round(k * len(ordered) / bins)
        while 0 < end < len(ordered) and ordered[end][0] == ordered[end - 1][0]:
            end += 1  # keep equal values together
        if end <= start:
            continue
        chunk = ordered[start:end]
        won = sum(w for _, w in chunk)
        low, high = wilson_interval(won, len(chunk))
        found.append(
            {
                "low_value": float(chunk[0][0]),
                "high_value": float(chunk[-1][0]),
                "seats": len(chunk),
                "share": won / len(chunk),
                "low": low,
                "high": high,
            }
        )
        start = end
    return found


def pairwise_ratings(pairs: Sequence[tuple[str, str]], alpha: float = 0.01) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) from ``(winner, loser)`` pairs: a Bradley-Terry model
    fitted by ``choix`` (iterative Luce spectral ranking, with a small ``alpha``
    regularisation so an unbeaten agent's rating stays finite). 400 Elo points
    mean ten times the odds of finishing ahead.

        >>> r = pairwise_ratings([("a", "b")] * 30 + [("b", "a")] * 10)
        >>> round(r["a"] - r["b"])
        191
    """
    import choix

    names = sorted({name for pair in pairs for name in pair})
    if len(names) < 2:
        return dict.fromkeys(names, 1500.0)
    index = {name: i for i, name in enumerate(names)}
    data = [(index[w], index[lo]) for w, lo in pairs]
    params = choix.ilsr_pairwise(len(names), data, alpha=alpha)
    return {name: 1500.0 + 400.0 * float(params[index[name]]) / math.log(10) for name in names}


def format_p(p: float) -> str:
    """A p-value as a report writes it: ``p < 0.001``, ``p = 0.03``, ``p = 0.41``.

    >>> format_p(0.0004), format_p(0.0312), format_p(0.5)
    ('p < 0.001', 'p = 0.031', 'p = 0.50')
    """
    if not math.isfinite(p):
        return "p n/a"
    if p < 0.001:
        return "p < 0.001"
    if p < 0.1:
        return f"p = {p:.3f}"
    return f"p = {p:.2f}"


def adjust_p(p_values: Sequence[float], method: str = "bh") -> list[float]:
    """p-values adjusted for testing many hypotheses at once.

    ``"bh"``: Benjamini-Hochberg (controls the false discovery rate: of the effects
    called significant, at most 5% are expected to be false); ``"holm"``: Holm's
    step-down (controls the chance of any false call). A NaN p-value stays NaN and
    does not count as a test.

        >>> [round(q, 3) for q in adjust_p([0.01, 0.04, 0.03, 0.5])]
        [0.04, 0.053, 0.053, 0.5]
        >>> [round(q, 3) for q in adjust_p([0.01, 0.04, 0.03, 0.5], "holm")]
        [0.04, 0.09, 0.09, 0.5]
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if math.isfinite(p))
    m = len(tested)
    adjusted = [math.nan] * len(p_values)
    if method == "bh":
        running = 1.0
        for rank in range(m, 0, -1):
            p, i = tested[rank - 1]
            running = min(running, p * m / rank)
            adjusted[i] = min(1.0, running)
    elif method == "holm":
        running = 0.0
        for rank, (p, i) in enumerate(tested):
            running = max(running, (m - rank) * p)
            adjusted[i] = min(1.0, running)
    else:
        raise ValueError(f"unknown correction {method!r}: use 'bh' or 'holm'")
    return adjusted
