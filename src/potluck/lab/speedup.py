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
from multiprocessing import get_context
from pathlib import Path

from potluck.lab.runner import run_study
from potluck.lab.study import parse_study


def _spin() -> None:
    total = 0
    for i in range(30_000_000):
        total += i


def machine_ceiling() -> float:
    """How much faster two busy processes finish two jobs than one process does one twice.

    Pure CPU and no lab at all: on an idle 2-core machine about 2.0; when other
    programs load the machine, lower. It is the ceiling for the lab's speed-up
    at that moment, printed beside it so that a low figure can be read.
    """
    start = time.perf_counter()
    _spin()
    one = time.perf_counter() - start
    context = get_context("fork")  # no interpreter start-up in the timing
    workers = [context.Process(target=_spin) for _ in range(2)]
    start = time.perf_counter()
    for process in workers:
        process.start()
    for process in workers:
        process.join()
    return 2 * one / (time.perf_counter() - start)


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
    print(f"machine ceiling before: {machine_ceiling():.2f}x")
    best = measure(args.games, args.trials, workers)
    print(f"machine ceiling after: {machine_ceiling():.2f}x")
    one = best[workers[0]]
    for w, seconds in best.items():
        print(
            f"{w} worker(s): best {seconds:.2f} s, {args.games / seconds:,.0f} games/s, "
            f"speed-up {one / seconds:.2f}x over {workers[0]}"
        )


if __name__ == "__main__":
    main()
