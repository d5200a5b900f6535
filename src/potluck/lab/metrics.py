"""Named metrics: what a sweep draws, a search optimises and a confirmation reports.

A metric is computed over the games of one arm at one table size and line-up (a
*cell*). The names:

- ``seat0_win_share``, ``seat1_win_share``, ... (%): a seat's share of the wins (a
  shared win counts 1/k to each of k winners);
- ``seat_win_share_spread`` (pts): the largest seat's win share minus the smallest's;
- ``<side>_win_share`` (%): where seats play sides (Burger Joint: ``burger_win_share``,
  ``pizza_win_share``);
- ``focal_win_share`` (%), ``focal_score`` (points): the focal seat's (table position 0,
  where a strategy arm's bot sits; it turns round the table);
- ``focal_<key>``: one of the game's seat metrics for the focal seat
  (``focal_belles_invited``);
- ``mean_score`` (points), ``length`` (steps);
- ``<key>``: one of the game's own metrics (``iou_players`` in Café Carnage).

    >>> import potluck
    >>> names = metric_names(potluck.load_game("burger-joint"), 2)
    >>> [n for n in names if n.endswith("win_share")][:4]
    ['burger_win_share', 'focal_win_share', 'pizza_win_share', 'seat0_win_share']
    >>> rows = [{"players": 2, "index": i, "winners": [i % 3 and 1 or 0], "scores": [1.0, 0.0],
    ...          "length": 9, "metrics": "{}", "seat_metrics": "[]"} for i in range(30)]
    >>> round(measure(rows, "seat1_win_share").value, 1)
    66.7
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.text import slugify
from potluck.lab.worker import focal_seat

__all__ = [
    "Measure",
    "MetricError",
    "check_metric",
    "combine",
    "measure",
    "metric_names",
    "metric_unit",
    "paired",
]

SPREAD = "seat_win_share_spread"
_SEAT = re.compile(r"seat(\d+)_win_share")
#: Resamples of a bootstrap interval (the spread's): enough for a stable 95% interval.
BOOTSTRAP = 2000


class MetricError(PotluckError):
    """A metric name that the lab does not know for this game."""


@dataclass(frozen=True, slots=True)
class Measure:
    """A metric over some games: its value, its 95% interval and how many games."""

    value: float
    low: float
    high: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "games": self.games}


def side_key(side: str) -> str:
    return slugify(side).replace("-", "_") + "_win_share"


_PROBED: dict[tuple[str, int], tuple[list[str], list[str]]] = {}


def _probe(game: Game[Any, Any], players: int) -> tuple[list[str], list[str]]:
    """The game's own metric keys and seat metric keys, from one game of random bots."""
    key = (game.id, players)
    if key not in _PROBED:
        from potluck.sim import play_game

        result = play_game(game, players, ["random"] * players, seed=0)
        game_keys = sorted(k for k, v in result.metrics.items() if _is_number(v))
        seat_keys = sorted(
            k
            for k, v in (result.seat_metrics[0] if result.seat_metrics else {}).items()
            if _is_number(v) and ":" not in k
        )
        _PROBED[key] = (game_keys, seat_keys)
    return _PROBED[key]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def metric_names(game: Game[Any, Any], players: int) -> list[str]:
    """Every metric name the lab knows for ``game`` at a table of ``players``."""
    game_keys, seat_keys = _probe(game, players)
    names = {f"seat{s}_win_share" for s in range(players)}
    names |= {SPREAD, "focal_win_share", "focal_score", "mean_score", "length"}
    names |= {side_key(side) for side in game.side_names(players)}
    names |= {f"focal_{k}" for k in seat_keys}
    names |= set(game_keys)
    return sorted(names)


def check_metric(game: Game[Any, Any], metric: str, players: int) -> None:
    """``MetricError`` naming the known metrics if ``metric`` is none of them."""
    if not isinstance(metric, str) or metric not in metric_names(game, players):
        known = ", ".join(metric_names(game, players))
        raise MetricError(f"{game.title} has no metric {metric!r}; its metrics are: {known}")


def metric_unit(metric: str) -> str:
    """``%`` for win shares, ``pts`` for the spread, ``points``, ``steps`` or ``""``.

    >>> metric_unit("focal_win_share"), metric_unit(SPREAD), metric_unit("iou_players")
    ('%', 'pts', '')
    """
    if metric == SPREAD:
        return "pts"
    if metric.endswith("win_share"):
        return "%"
    if metric in ("focal_score", "mean_score"):
        return "points"
    if metric == "length":
        return "steps"
    return ""


def _shares(row: dict[str, Any]) -> list[float]:
    found = [0.0] * row["players"]
    for seat in row["winners"]:
        found[seat] = 100.0 / len(row["winners"])
    return found


def _getter(metric: str, sides: Sequence[str] = ()) -> Callable[[dict[str, Any]], float]:
    """The per-game value of a mean-type metric (every metric but the spread)."""
    seat = _SEAT.fullmatch(metric)
    if seat:
        return lambda row: _shares(row)[int(seat.group(1))]
    for s, side in enumerate(sides):
        if metric == side_key(side):
            return lambda row, s=s: _shares(row)[s]  # type: ignore[misc]
    if metric == "focal_win_share":
        return lambda row: _shares(row)[focal_seat(row["players"], row["index"])]
    if metric == "focal_score":
        return lambda row: float(row["scores"][focal_seat(row["players"], row["index"])])
    if metric == "mean_score":
        return lambda row: statistics.fmean(row["scores"])
    if metric == "length":
        return lambda row: float(row["length"])
    if metric.startswith("focal_"):
        key = metric[len("focal_") :]

        def focal_metric(row: dict[str, Any]) -> float:
            per_seat = json.loads(row["seat_metrics"])
            value = per_seat[focal_seat(row["players"], row["index"])].get(key, 0.0)
            return float(value)

        return focal_metric

    def game_metric(row: dict[str, Any]) -> float:
        value = json.loads(row["metrics"]).get(metric, math.nan)
        return float(value) if _is_number(value) else math.nan

    return game_metric


def values(rows: Sequence[dict[str, Any]], metric: str, sides: Sequence[str] = ()) -> list[float]:
    """The per-game values of a mean-type metric."""
    get = _getter(metric, sides)
    return [get(row) for row in rows]


def _spread(matrix: Any) -> Any:
    means = matrix.mean(axis=-2)
    return means.max(axis=-1) - means.min(axis=-1)


def _spread_measure(rows: Sequence[dict[str, Any]]) -> Measure:
    """The largest seat's win share minus the smallest's, with an interval that holds when
    every seat's Wilson interval does (each at 95% / seats, Bonferroni): from the largest
    low end minus the smallest high end (at least 0) to the largest high end minus the
    smallest low end. The plain estimate is biased upward by noise (max minus min of
    noisy shares), so read a small spread by its interval."""
    from potluck.intervals import wilson_interval

    players = rows[0]["players"]
    n = len(rows)
    wins = [sum(_shares(r)[s] for r in rows) / 100 for s in range(players)]
    z = _z(0.05 / players)
    bounds = [wilson_interval(w, n, z=z) for w in wins]
    shares = [100 * w / n for w in wins]
    low = max(0.0, 100 * (max(b[0] for b in bounds) - min(b[1] for b in bounds)))
    high = 100 * (max(b[1] for b in bounds) - min(b[0] for b in bounds))
    return Measure(max(shares) - min(shares), low, high, n)


def _z(alpha: float) -> float:
    from scipy import stats

    return float(stats.norm.ppf(1 - alpha / 2))


def _t_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    from scipy import stats

    n = len(xs)
    mean = statistics.fmean(xs)
    if n < 2:
        return mean, math.nan, math.nan
    sd = statistics.stdev(xs)
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def measure(rows: Sequence[dict[str, Any]], metric: str, sides: Sequence[str] = ()) -> Measure:
    """The metric over the finished games ``rows`` (one cell), with its 95% interval.

    Win shares take Wilson's interval, the spread a bootstrap over games (percentile,
    seeded), every other metric the t interval of its mean.
    """
    rows = [r for r in rows if r.get("error") is None]
    n = len(rows)
    if n == 0:
        return Measure(math.nan, math.nan, math.nan, 0)
    if metric == SPREAD:
        return _spread_measure(rows)
    xs = values(rows, metric, sides)
    if metric.endswith("win_share"):
        from potluck.intervals import wilson_interval

        won = sum(xs) / 100
        low, high = wilson_interval(won, n)
        return Measure(100 * won / n, 100 * low, 100 * high, n)
    mean, low, high = _t_interval(xs)
    return Measure(mean, low, high, n)


def paired(
    rows: Sequence[dict[str, Any]],
    reference: Sequence[dict[str, Any]],
    metric: str,
    sides: Sequence[str] = (),
) -> Measure:
    """The metric of ``rows`` minus that of ``reference`` over the games both finished with
    the same index (same deal and seating), with its 95% interval (paired t, or a paired
    bootstrap for the spread)."""
    by_index = {r["index"]: r for r in reference if r.get("error") is None}
    pairs = [
        (r, by_index[r["index"]]) for r in rows if r.get("error") is None and r["index"] in by_index
    ]
    n = len(pairs)
    if n == 0:
        return Measure(math.nan, math.nan, math.nan, 0)
    if metric == SPREAD:
        import numpy as np

        mine = np.array([_shares(a) for a, _ in pairs])
        theirs = np.array([_shares(b) for _, b in pairs])
        rng = np.random.default_rng(0)
        picks = rng.integers(0, n, size=(BOOTSTRAP, n))
        diffs = _spread(mine[picks]) - _spread(theirs[picks])
        low, high = (float(x) for x in np.percentile(diffs, [2.5, 97.5]))
        return Measure(float(_spread(mine) - _spread(theirs)), low, high, n)
    get = _getter(metric, sides)
    mean, low, high = _t_interval([get(a) - get(b) for a, b in pairs])
    return Measure(mean, low, high, n)


def combine(measures: Sequence[Measure]) -> Measure:
    """The mean of several cells' measures (table sizes, line-ups): independent games, so
    the interval's half-width is the root of the summed squared half-widths over k."""
    if len(measures) == 1:
        return measures[0]
    k = len(measures)
    value = statistics.fmean(m.value for m in measures)
    half = math.sqrt(sum(((m.high - m.low) / 2) ** 2 for m in measures)) / k
    return Measure(value, value - half, value + half, sum(m.games for m in measures))


def by_cell(rows: Sequence[dict[str, Any]]) -> dict[tuple[int, str], list[dict[str, Any]]]:
    """Rows grouped by (table size, line-up), in the order first seen."""
    cells: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for row in rows:
        cells.setdefault((row["players"], row["lineup"]), []).append(row)
    return cells
