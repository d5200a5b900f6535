"""How many games does `potluck lab tune` need, against a grid and a bisection, on a
problem whose answer is known?

The problem: Café Carnage at 4 players between greedy bots, the starting budget
(a whole number of dollars from 20 to 45) at which half the table (2 of 4
players) ends with an IOU.

- **grid**: the sweep ``studies/cafe-budget-sweep.toml`` (every budget, 300 games
  each on the same deals): the budget whose mean is closest to 2.0. Its answer is
  the known one (the means around it are several intervals apart).
- **bisection**: the metric falls as the budget rises, so halve [20, 45] with 300
  games an evaluation until the bracket is one dollar wide; read from the sweep's
  games (the same deals), counting the games each evaluation would play.
- **search**: ``studies/cafe-budget-tune.toml`` (300 games at the last rung, 16
  distinct points, successive halving), once per seed: the study's own seed (the
  grid's deals) and others.

Each method is judged by the sweep's distance from 2.0 of the budget it picks.

    potluck lab run studies/cafe-budget-sweep.toml --out results/cafe-budget-sweep --workers 2
    python examples/lab_search_benchmark.py results/cafe-budget-sweep --seeds 0,1,2 --workers 2

``--seeds``: offsets added to the study's seed (0 is the grid's own deals). The
search's confirmation run is not counted as search games (a grid's or a
bisection's pick would need one as much); it is reported apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from potluck.lab import load_results, parse_study
from potluck.lab.metrics import measure
from potluck.lab.tune import tune

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2.0


def grid_means(folder: Path) -> tuple[dict[int, float], int]:
    """Each swept budget's mean IOU players, and the games per budget."""
    study, rows = load_results(folder)
    assert study.sweep is not None, f"{folder} is not the results of a sweep"
    means: dict[int, float] = {}
    games = 0
    for value, arm in zip(study.sweep.values, study.sweep.arms, strict=True):
        mine = [r for r in rows if r["arm"] == arm]
        means[int(value)] = measure(mine, "iou_players").value
        games = len(mine)
    return means, games


def bisection(means: dict[int, float]) -> tuple[int, int]:
    """The budget bisection picks and how many budgets it evaluates."""
    low, high = min(means), max(means)
    evaluated = {low, high}
    while high - low > 1:
        middle = (low + high) // 2
        evaluated.add(middle)
        if means[middle] > TARGET:
            low = middle
        else:
            high = middle
    return min((low, high), key=lambda b: abs(means[b] - TARGET)), len(evaluated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep", type=Path, help="results of studies/cafe-budget-sweep.toml")
    parser.add_argument("--seeds", default="0,1,2", help="offsets to the study's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    means, per_budget = grid_means(args.sweep)
    distance = {b: abs(m - TARGET) for b, m in means.items()}
    answer = min(distance, key=lambda b: distance[b])
    pick, evaluations = bisection(means)
    found: dict[str, Any] = {
        "known_answer": answer,
        "means": means,
        "grid": {"games": per_budget * len(means), "pick": answer, "distance": distance[answer]},
        "bisection": {"games": per_budget * evaluations, "pick": pick, "distance": distance[pick]},
        "search": [],
    }
    raw = tomllib.loads((ROOT / "studies" / "cafe-budget-tune.toml").read_text("utf-8"))
    for offset in (int(s) for s in args.seeds.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            result = tune(
                parse_study({**raw, "seed": raw["seed"] + offset}), folder, workers=args.workers
            )
        chosen = result["best"]["data:table.budget"]
        found["search"].append(
            {
                "seed_offset": offset,
                "games": result["search"]["games_played"],
                "points": result["search"]["points"],
                "confirmation_games": 2 * result["confirmation"]["games"],
                "pick": chosen,
                "distance": distance[chosen],
                "confirmed": result["confirmation"],
            }
        )
        print(f"seed +{offset}: {found['search'][-1]}", file=sys.stderr)
    grid = found["grid"]
    print(
        f"Known answer: budget {answer} (the sweep: {per_budget} games a budget; mean IOU "
        f"players {means[answer]:.2f}; next best {sorted(distance.values())[1]:.2f} from 2)"
    )
    print("method    | games             | budget picked | distance from 2 (the sweep's)")
    print(f"grid      | {grid['games']:>17} | {answer:>13} | {grid['distance']:.2f}")
    b = found["bisection"]
    print(f"bisection | {b['games']:>17} | {pick:>13} | {b['distance']:.2f}")
    for run in found["search"]:
        print(
            f"search +{run['seed_offset']} | {run['games']:>17} | {run['pick']:>13} | "
            f"{run['distance']:.2f}"
        )
    mean = statistics.fmean(r["games"] for r in found["search"])
    print(
        f"search games / grid games: {mean / grid['games']:.3f} (mean of {len(found['search'])} "
        f"runs); each search's confirmation plays {found['search'][0]['confirmation_games']} "
        "more games"
    )
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
