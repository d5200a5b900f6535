"""A sweep's answer: each metric against the parameter's value, and where it crosses a target.

The sweep's arms play the same deals (game ``i`` of every arm is dealt from
``seed + i``), so the crossing's interval comes from a bootstrap over the deals:
resample game indices (the same ones for every value), recompute each value's
mean, interpolate linearly where it crosses the target, and take the 2.5th and
97.5th percentiles of the crossings. A resample with no crossing inside the swept
range makes that end of the interval open ("below 20" or "above 45").

    >>> values, means = [30, 35, 40], [4.0, 2.5, 0.5]
    >>> crossing(values, means, 2.0)
    36.25
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from potluck.lab.metrics import SPREAD, measure, metric_unit
from potluck.lab.metrics import values as metric_values
from potluck.lab.study import Study

__all__ = ["analyse_sweep", "crossing"]

#: Bootstrap resamples for a crossing's interval.
RESAMPLES = 1000


def crossing(values: Sequence[float], means: Sequence[float], target: float) -> float | None:
    """Where the means first cross ``target`` going up the values, by linear interpolation;
    ``None`` if they stay on one side."""
    for k in range(len(values) - 1):
        a, b = means[k] - target, means[k + 1] - target
        if a == 0:
            return float(values[k])
        if a * b < 0 or b == 0:
            return float(values[k] + (values[k + 1] - values[k]) * a / (a - b))
    return None


def _crossing_interval(
    values: Sequence[float], per_game: list[dict[int, float]], target: float
) -> dict[str, Any]:
    import numpy as np

    common = sorted(set.intersection(*(set(g) for g in per_game)))
    if len(common) < 2:
        return {"low": None, "high": None, "open": "", "resamples": 0}
    matrix = np.array([[g[i] for i in common] for g in per_game])  # values x games
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(common), size=(RESAMPLES, len(common)))
    means = matrix[:, picks].mean(axis=2).T  # resamples x values
    rising = bool(matrix[-1].mean() >= matrix[0].mean())
    ends: list[float] = []
    for row in means:
        at = crossing(values, list(row), target)
        if at is None:
            above_target = bool(row.min() > target)
            # all above the target: a rising metric crosses below the range, a falling above
            at = -math.inf if above_target == rising else math.inf
        ends.append(at)
    ordered = np.array(ends)
    low = float(np.percentile(ordered, 2.5, method="lower"))
    high = float(np.percentile(ordered, 97.5, method="higher"))
    opened = []
    if low == -math.inf:
        opened.append(f"below {values[0]:g}")
    if high == math.inf:
        opened.append(f"above {values[-1]:g}")
    return {
        "low": low if math.isfinite(low) else None,
        "high": high if math.isfinite(high) else None,
        "open": " and ".join(opened),
        "resamples": RESAMPLES,
    }


def analyse_sweep(
    study: Study, groups: dict[tuple[int, str, str], list[dict[str, Any]]], sides: Sequence[str]
) -> list[dict[str, Any]]:
    """Per metric, table size and line-up: each value's measure and the target's crossing."""
    sweep = study.sweep
    if sweep is None:
        return []
    found = []
    for metric in sweep.metrics:
        for players in study.players:
            for lineup in study.lineup_names:
                points = []
                per_game: list[dict[int, float]] = []
                for value, arm in zip(sweep.values, sweep.arms, strict=True):
                    rows = [r for r in groups.get((players, lineup, arm), []) if r["error"] is None]
                    m = measure(rows, metric, sides)
                    points.append({"parameter_value": value, "arm": arm, **m.to_json()})
                    if metric != SPREAD:
                        xs = metric_values(rows, metric, sides)
                        per_game.append({r["index"]: x for r, x in zip(rows, xs, strict=True)})
                entry: dict[str, Any] = {
                    "metric": metric,
                    "unit": metric_unit(metric),
                    "parameter": str(sweep.parameter),
                    "players": players,
                    "lineup": lineup,
                    "points": points,
                }
                numeric = all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in sweep.values
                )
                if sweep.target is not None and metric == sweep.metrics[0] and numeric:
                    means = [p["value"] for p in points]
                    at = crossing([float(v) for v in sweep.values], means, sweep.target)
                    entry["target"] = sweep.target
                    entry["crossing"] = {
                        "value": at,
                        **(
                            _crossing_interval(
                                [float(v) for v in sweep.values], per_game, sweep.target
                            )
                            if per_game and all(per_game)
                            else {"low": None, "high": None, "open": "", "resamples": 0}
                        ),
                    }
                    if at is None:
                        entry["crossing"]["open"] = "never crosses in the swept range"
                best = _best(points, metric)
                if best is not None:
                    entry["lowest"] = best
                found.append(entry)
    return found


def _best(points: list[dict[str, Any]], metric: str) -> dict[str, Any] | None:
    """The value with the smallest metric (for a spread: the fairest seats)."""
    finite = [p for p in points if p["value"] is not None and math.isfinite(p["value"])]
    if not finite or metric != SPREAD:
        return None
    return min(finite, key=lambda p: p["value"])
