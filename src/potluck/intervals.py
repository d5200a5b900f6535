"""Confidence intervals that need no statistics library: the lab, the arena and the
benchmarks share them.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson_interval"]

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
    # min/max: at p = 0 or 1 rounding must not leave p itself outside its interval.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))
