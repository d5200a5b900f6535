"""Measure the lab's speed-up with more worker processes (best of several trials).

    python -m potluck.lab.speedup --games 2000 --trials 5 --workers 1,2

Plays the same Café Carnage study (4 players, greedy and random) with each
number of workers, alternating them trial by trial so that a neighbour's load
hits both alike, and reports the best wall time of each. Best-of-N is used
because on a shared machine other programs only ever make a run slower. Wall
time includes starting the worker processes and writing the Parquet files:
it is what a user waits for.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from potluck.lab.runner import run_study
from potluck.lab.study import parse_study


def measure(games: int, trials: int, workers: list[int]) -> dict[int, float]:
    """The best wall time in seconds of each worker count over ``trials`` alternating runs."""
    study = parse_study(
        {
            "game": "cafe-carnage",
            "players": 4,
            "games": games,
            "seed": 1,
            "agents": ["greedy", "random"],
        }
    )
    best = {w: float("inf") for w in workers}
    root = Path(tempfile.mkdtemp(prefix="potluck-speedup-"))
    try:
        for trial in range(trials):
            for w in workers:
                out = root / f"w{w}-t{trial}"
                start = time.perf_counter()
                run_study(study, out, workers=w)
                seconds = time.perf_counter() - start
                best[w] = min(best[w], seconds)
                load = os.getloadavg()[0]
                print(f"trial {trial + 1}: {w} worker(s) {seconds:6.2f} s (load {load:.1f})")
                shutil.rmtree(out)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    best = measure(args.games, args.trials, workers)
    one = best[workers[0]]
    for w, seconds in best.items():
        print(
            f"{w} worker(s): best {seconds:.2f} s, {args.games / seconds:,.0f} games/s, "
            f"speed-up {one / seconds:.2f}x over {workers[0]}"
        )


if __name__ == "__main__":
    main()
