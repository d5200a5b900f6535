"""How many games does `potluck lab tune` need, against a grid and a bisection, on a
problem whose answer is known?

The problem: Café Carnage at 4 players between greedy bots, the starting budget
(a whole number of dollars from 20 to 45) at which half the table (2 of 4
players) ends with an IOU. The known answer comes from a reference run of many
games at the budgets around the crossing; every method is judged by the true
distance from 2.0 (the reference's figure) of the budget it picks.

- grid: every budget from 20 to 45, ``--games`` games each on the same deals, the
  budget whose mean is closest to 2.0;
- bisection: the metric falls as the budget rises, so halve [20, 45] with
  ``--games`` games an evaluation until the bracket is one dollar wide;
- search: ``potluck.lab.tune`` with ``--games`` at its last rung and ``--trials``
  trials (successive halving stops most trials early), once per seed.

    python examples/lab_search_benchmark.py --games 300 --trials 16 --seeds 1,2,3,4,5 --workers 2

Prints one table (games each method played, the budget it picked and that budget's
true distance from the target) and writes it as JSON with ``--json``. The search's
confirmation run is not counted (a grid's or bisection's pick would need one as
much); it is reported apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from potluck.lab import load_results, parse_study, run_study
from potluck.lab.metrics import measure
from potluck.lab.tune import tune

TARGET = 2.0
LOW, HIGH = 20, 45


def _study(seed: int, games: int, budgets: list[int]) -> dict[str, Any]:
    return {
        "game": "cafe-carnage",
        "players": 4,
        "games": games,
        "seed": seed,
        "agents": ["greedy"],
        "arms": {f"b{b}": {"data_patch": {"table.budget": b}} for b in budgets},
    }


def evaluate(budgets: list[int], games: int, seed: int, workers: int) -> dict[int, float]:
    """The mean IOU players at each budget over ``games`` games dealt from ``seed``."""
    with tempfile.TemporaryDirectory() as folder:
        study = parse_study(_study(seed, games, budgets))
        run_study(study, folder, workers=workers)
        _, rows = load_results(folder)
    return {
        b: measure([r for r in rows if r["arm"] == f"b{b}"], "iou_players").value for b in budgets
    }


def bisection(games: int, seed: int, workers: int) -> tuple[int, int]:
    """The budget picked by halving the bracket, and the games played."""
    low, high = LOW, HIGH
    known = evaluate([low, high], games, seed, workers)
    played = 2 * games
    while high - low > 1:
        middle = (low + high) // 2
        known.update(evaluate([middle], games, seed, workers))
        played += games
        if known[middle] > TARGET:
            low = middle
        else:
            high = middle
    pick = min((low, high), key=lambda b: abs(known[b] - TARGET))
    return pick, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--seeds", default="1,2,3,4,5")
    parser.add_argument("--grid-seeds", type=int, default=2, help="grids run (the first seeds)")
    parser.add_argument("--reference-games", type=int, default=1500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    started = time.monotonic()
    # the reference: many fresh games at the budgets around the crossing (every method's
    # pick lies there; one outside would show as an infinite distance), on deals no
    # method plays
    reference = evaluate(list(range(30, 43)), args.reference_games, 90_000_000, args.workers)
    truth = {b: abs(m - TARGET) for b, m in reference.items()}
    for budget in range(LOW, HIGH + 1):
        truth.setdefault(budget, float("inf"))
    answer = min(truth, key=lambda b: truth[b])
    grid_games = (HIGH - LOW + 1) * args.games
    found: dict[str, Any] = {
        "reference": {
            "games_per_budget": args.reference_games,
            "means": reference,
            "answer": answer,
        },
        "grid": [],
        "bisection": [],
        "search": [],
    }
    for seed in seeds:
        if len(found["grid"]) < args.grid_seeds:
            means = evaluate(list(range(LOW, HIGH + 1)), args.games, seed, args.workers)
            pick = min(means, key=lambda b: abs(means[b] - TARGET))
            found["grid"].append(
                {"seed": seed, "games": grid_games, "pick": pick, "distance": truth[pick]}
            )
        pick, played = bisection(args.games, seed, args.workers)
        found["bisection"].append(
            {"seed": seed, "games": played, "pick": pick, "distance": truth[pick]}
        )
        with tempfile.TemporaryDirectory() as folder:
            study = parse_study(
                {
                    **_study(seed, args.games, []),
                    "search": {
                        "parameters": {"data:table.budget": [LOW, HIGH]},
                        "metric": "iou_players",
                        "target": TARGET,
                        "trials": args.trials,
                        "confirm_games": args.games,
                    },
                }
            )
            result = tune(study, folder, workers=args.workers)
        pick = result["best"]["data:table.budget"]
        found["search"].append(
            {
                "seed": seed,
                "games": result["search"]["games_played"],
                "confirmation_games": result["confirmation"]["games"] * 2,
                "pick": pick,
                "distance": truth[pick],
                "confirmed": result["confirmation"],
            }
        )
        print(
            f"seed {seed}: bisection {found['bisection'][-1]}, search {found['search'][-1]}",
            file=sys.stderr,
        )
    found["seconds"] = time.monotonic() - started
    print(
        f"Known answer: budget {answer} (reference: {args.reference_games} games a budget; "
        f"mean IOU players {reference[answer]:.3f}, distance {truth[answer]:.3f})"
    )
    print("method     | games a run (mean) | budget picked (runs)        | worst true distance")
    for method in ("grid", "bisection", "search"):
        runs = found[method]
        picks = ", ".join(str(r["pick"]) for r in runs)
        print(
            f"{method:<10} | {statistics.fmean(r['games'] for r in runs):>18.0f} | {picks:<27} | "
            f"{max(r['distance'] for r in runs):.3f}"
        )
    ratio = statistics.fmean(r["games"] for r in found["search"]) / grid_games
    print(
        f"search / grid games: {ratio:.3f}; the search's confirmation runs "
        f"{found['search'][0]['confirmation_games']} more games each"
    )
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
