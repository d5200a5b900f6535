"""Which mean loss tells a random seat from a greedy one? Every measure, side by side.

It reads the games ``examples/analysis_benchmark.py`` saved (``--out``: one random
seat and the greedy seat after it analysed in each game) and, per game, gives each
seat's mean of every measure of loss below (the first run's seed), the random
seat's over the greedy seat's, and a 95% interval for that ratio from resampling
whole games (a game's moves are not independent):

- ``win chance, shown``: the loss each move shows (shrunk by its noise), every move
  (what run 1 and run 2 compared);
- ``win chance, uncut``: the paired difference on the worlds every judgement plays
  before it may stop (``MoveReview.unbiased_difference``) over the moves with a
  choice: what ``potluck.review.summarise`` reports as the mean loss (analyses made
  before it was measured give ``difference`` here);
- ``win chance, uncut, stopped``: the paired difference over every judging world
  (``MoveReview.difference``), which the judge's stop biases low on small losses
  (what run 3 reported as the mean loss);
- ``win chance, uncut, every move``: the same with forced moves (loss 0) counted;
- ``win chance, open``: uncut, only where the win chance with the best move found
  was between 5% and 95% (positions still in play);
- ``log-odds``: the loss in the logit of the win chance (``logit(after +
  difference) - logit(after)``), which does not saturate near 0% or 100%;
- ``points, shown`` and ``points, uncut``: the points lost (score less the others'
  mean), shrunk and uncut (on the worlds before the judge may stop), over the moves
  with a choice for the uncut one;
- ``share of the stakes lost``: the sum of the uncut losses over the sum of the
  positions' stakes (``MoveReview.stakes``: what a random move would lose there),
  1 on average for random moves; here the ratio is of the two seats' shares (only
  for analyses that measured the stakes, from this session on).

    python examples/analysis_measures.py results/run3/cafe-carnage --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: A measure: what a move adds to the numerator and the denominator (None: not counted).
Term = Callable[[dict[str, Any]], tuple[float, float] | None]


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def _choice(value: Callable[[dict[str, Any]], float]) -> Term:
    return lambda m: None if m["forced"] else (value(m), 1.0)


def _loss(m: dict[str, Any]) -> float:
    """The move's uncut loss before the judge may stop (``difference`` in an older
    analysis, which did not measure it)."""
    fixed = m.get("fixed_difference")
    return float(m.get("difference", 0.0) if fixed is None else fixed)


def _points_lost(m: dict[str, Any]) -> float:
    fixed = m.get("fixed_point_difference")
    return float(m.get("point_difference", 0.0) if fixed is None else fixed)


def _open(m: dict[str, Any]) -> tuple[float, float] | None:
    if m["forced"] or not 0.05 <= m["before"] <= 0.95:
        return None
    return _loss(m), 1.0


def _stakes(m: dict[str, Any]) -> tuple[float, float] | None:
    if m["forced"] or "field_difference" not in m:
        return None
    return _loss(m), _loss(m) + m["field_difference"]


MEASURES: dict[str, Term] = {
    "win chance, shown": lambda m: (m["loss"], 1.0),
    "win chance, uncut": _choice(_loss),
    "win chance, uncut, stopped": _choice(lambda m: m.get("difference", 0.0)),
    "win chance, uncut, every move": lambda m: (_loss(m), 1.0),
    "win chance, open": _open,
    "log-odds": _choice(lambda m: _logit(m["after"] + _loss(m)) - _logit(m["after"])),
    "points, shown": lambda m: (m.get("point_loss", 0.0), 1.0),
    "points, uncut": _choice(_points_lost),
    "share of the stakes lost": _stakes,
}


def sums(results: list[dict[str, Any]], term: Term) -> list[tuple[float, float, float, float]]:
    """Per game: the random seat's numerator and denominator sums, then the greedy seat's."""
    rows = []
    for result in results:
        row: list[float] = []
        for label in ("random", "greedy"):
            terms = [term(m) for m in result["seats"][label]["runs"][0]["moves"]]
            kept = [t for t in terms if t is not None]
            row += [sum(t[0] for t in kept), sum(t[1] for t in kept)]
        rows.append((row[0], row[1], row[2], row[3]))
    return rows


def _ratio(rows: list[tuple[float, float, float, float]]) -> tuple[float, float, float]:
    """The random seat's mean, the greedy seat's and their ratio (inf where the greedy
    seat's mean is not above 0)."""
    num_r, den_r, num_g, den_g = (sum(row[i] for row in rows) for i in range(4))
    mean_r = num_r / den_r if den_r > 0 else math.nan
    mean_g = num_g / den_g if den_g > 0 else math.nan
    ratio = mean_r / mean_g if mean_g > 0 else math.inf
    return mean_r, mean_g, ratio


def measure(
    results: list[dict[str, Any]], term: Term, resamples: int = 2000, seed: int = 0
) -> dict[str, Any]:
    rows = sums(results, term)
    if not rows or not any(row[1] for row in rows):
        return {}
    mean_r, mean_g, ratio = _ratio(rows)
    rng = random.Random(seed)
    drawn = [_ratio([rows[rng.randrange(len(rows))] for _ in rows]) for _ in range(resamples)]
    ratios = sorted(r for _, _, r in drawn)
    low, high = ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]
    # the gap is well defined where the ratio is not (the greedy seat's mean near 0)
    gaps = sorted(a - b for a, b, _ in drawn if not (math.isnan(a) or math.isnan(b)))
    gap_95 = [gaps[int(0.025 * len(gaps))], gaps[int(0.975 * len(gaps)) - 1]] if gaps else None
    return {
        "random": mean_r,
        "greedy": mean_g,
        "ratio": ratio if math.isfinite(ratio) else None,  # None: greedy's mean <= 0
        "ratio_95": [b if math.isfinite(b) else None for b in (low, high)],
        "gap": mean_r - mean_g,
        "gap_95": gap_95,
        "moves": [
            sum(term(m) is not None for r in results for m in r["seats"][label]["runs"][0]["moves"])
            for label in ("random", "greedy")
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="+", help="a game's folder of saved games")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for folder in args.folder:
        results = [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*.json"))]
        out[folder.name] = {"games": len(results)}
        out[folder.name] |= {name: measure(results, term) for name, term in MEASURES.items()}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for game, found in out.items():
        print(f"{game} ({found['games']} games)")
        for name, figures in found.items():
            if name == "games" or not figures:
                continue
            low, high = figures["ratio_95"]
            ratio = "greedy's <= 0" if figures["ratio"] is None else f"{figures['ratio']:.2f}"
            ends = ["-" if end is None else f"{end:.2f}" for end in (low, high)]
            span = f"[{ends[0]}, {ends[1]}]"
            gap = figures["gap_95"] or [math.nan, math.nan]
            print(
                f"  {name:30s} random {figures['random']:9.4f}  greedy {figures['greedy']:9.4f}"
                f"  ratio {ratio} {span}  gap [{gap[0]:.4f}, {gap[1]:.4f}]"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
