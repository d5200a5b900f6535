"""Move analysis benchmark: does ``potluck analyse`` judge truly, stably, and in time?

For each game, it plays ``--games`` games with one random seat and greedy bots in
the others (the random seat turned round the table from game to game), and
analyses the random seat and the greedy seat after it, twice: with ``--seed`` and
with ``--seed + 1`` (other worlds, other rollouts; ``--twice N``: on the first N
games only). ``--every K`` analyses every
K-th decision of each seat (starting from a different one in each game), so that
20 games fit a shared machine's hour. It reports per game:

- each seat's mean loss of win chance per move as shown (shrunk by its noise,
  ``potluck.judge.shrunk_loss``) and their ratio (random / greedy), with a 95%
  interval from resampling whole games; the same for the points lost (the seat's
  score less the others' mean, which does not saturate where the win chance is
  gone) and for the loss not shrunk (``difference``, with the random seat's mean
  minus the greedy seat's and its interval); and the loss over *open* positions
  only (the win chance with the best move between 5% and 95%);
- the verdicts (inaccuracies, mistakes, blunders) of each seat;
- how many verdicts the second seed kept: of all moves, and of the moves flagged
  in either run;
- forced moves (one legal action): how many, how many were played out (never
  none: a forced move carries the position's win chance), their least win chance;
- the seconds per move (median, 95th percentile, most) and worlds per move;
- the Brier score of the win chance after each move against how the game ended
  for that seat (greedy seats; the random seat goes on playing randomly, so its
  chances, which assume good play from here, are too high by design).

Every analysed game is saved as JSON in ``--out`` as it finishes, and a rerun
reads those back instead of analysing them again, so a long run can be stopped
and resumed.

    nice -n 10 python examples/analysis_benchmark.py --game cafe-carnage --games 20 \\
        --every 4 --seed 0 --deal-seed 830000 --out results/analysis
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.review import DEFAULT_THRESHOLDS, review_record
from potluck.sim import play_game

#: Positions counted as open: the win chance with the best move found within these.
OPEN = (0.05, 0.95)

PLAYERS = ANALYSIS_PLAYERS


def analyse_game(
    game_id: str,
    index: int,
    deal_seed: int,
    seed: int,
    spec: str,
    seconds: float | None,
    every: int = 1,
    seeds: int = 2,
) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    players = PLAYERS[game_id]
    randomer = index % players
    greedy = (randomer + 1) % players
    agents = ["greedy"] * players
    agents[randomer] = "random"
    result = play_game(game, players, agents, seed=deal_seed + index, keep_record=True)
    assert result.record is not None
    shares = result.outcome.win_shares()
    out: dict[str, Any] = {
        "game": game_id,
        "deal_seed": deal_seed + index,
        "agents": agents,
        "win_shares": list(shares),
        "seats": {},
    }
    for label, seat in (("random", randomer), ("greedy", greedy)):
        decisions = [k + 1 for k, (who, _) in enumerate(result.record["actions"]) if who == seat]
        numbers = set(decisions[index % every :: every])
        runs = []
        for run_seed in range(seed, seed + seeds):
            start = time.process_time()
            reviews = review_record(
                game,
                result.record,
                seat,
                spec,
                seed=run_seed,
                seconds_per_move=seconds,
                numbers=numbers,
            )
            runs.append(
                {
                    "seed": run_seed,
                    "cpu_seconds": time.process_time() - start,
                    "moves": [r.to_json() for r in reviews],
                }
            )
        out["seats"][label] = {"seat": seat, "runs": runs, "decisions": len(decisions)}
    return out


def ratio_interval(
    results: list[dict[str, Any]], resamples: int = 2000, seed: int = 0, key: str = "loss"
) -> list[float | None] | None:
    """A 95% interval for the ratio of the random seat's mean loss to the greedy seat's,
    resampling whole games (a game's moves are not independent of each other)."""
    sums = _sums(results, key)
    if not sums:
        return None
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        pick = [sums[rng.randrange(len(sums))] for _ in sums]
        loss_r, n_r, loss_g, n_g = (sum(row[i] for row in pick) for i in range(4))
        if n_r and n_g and loss_g > 0:
            ratios.append((loss_r / n_r) / (loss_g / n_g))
        else:
            ratios.append(math.inf)
    ratios.sort()
    bounds = [ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]]
    return [bound if math.isfinite(bound) else None for bound in bounds]  # None: no bound


def gap_interval(
    results: list[dict[str, Any]], resamples: int = 2000, seed: int = 0, key: str = "difference"
) -> list[float] | None:
    """A 95% interval for the random seat's mean ``key`` minus the greedy seat's,
    resampling whole games: above 0, the judge tells the random seat's moves worse."""
    sums = _sums(results, key)
    if not sums:
        return None
    rng = random.Random(seed)
    gaps = []
    for _ in range(resamples):
        pick = [sums[rng.randrange(len(sums))] for _ in sums]
        loss_r, n_r, loss_g, n_g = (sum(row[i] for row in pick) for i in range(4))
        gaps.append(loss_r / max(1, n_r) - loss_g / max(1, n_g))
    gaps.sort()
    return [gaps[int(0.025 * resamples)], gaps[int(0.975 * resamples) - 1]]


def _sums(results: list[dict[str, Any]], key: str) -> list[list[float]]:
    """Per game: the random seat's sum of ``key`` and its moves, then the greedy seat's
    (the first run's)."""
    sums = []
    for result in results:
        row: list[float] = []
        for label in ("random", "greedy"):
            moves = result["seats"][label]["runs"][0]["moves"]
            row += [sum(m.get(key, 0.0) for m in moves), len(moves)]
        sums.append(row)
    return sums


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    losses: dict[str, list[float]] = {"random": [], "greedy": []}
    differences: dict[str, list[float]] = {"random": [], "greedy": []}
    open_losses: dict[str, list[float]] = {"random": [], "greedy": []}
    point_losses: dict[str, list[float]] = {"random": [], "greedy": []}
    point_differences: dict[str, list[float]] = {"random": [], "greedy": []}
    policy_differences: dict[str, list[float]] = {"random": [], "greedy": []}
    policy_point_differences: dict[str, list[float]] = {"random": [], "greedy": []}
    compared = 0  # moves judged under both seeds
    verdicts: dict[str, dict[str, int]] = {}
    same_all = total_all = same_flagged = total_flagged = 0
    forced_values: list[float] = []
    forced_unplayed = 0
    seconds: list[float] = []
    worlds: list[int] = []
    brier: dict[str, list[float]] = {"random": [], "greedy": []}
    for result in results:
        for label, seat_data in result["seats"].items():
            runs = [run["moves"] for run in seat_data["runs"]]
            first = runs[0]
            second: list[Any] = runs[1] if len(runs) > 1 else [None] * len(first)
            outcome = result["win_shares"][seat_data["seat"]]
            counts = verdicts.setdefault(label, {"inaccuracy": 0, "mistake": 0, "blunder": 0})
            for a, b in zip(first, second, strict=True):
                losses[label].append(a["loss"])
                point_losses[label].append(a.get("point_loss", 0.0))
                point_differences[label].append(a.get("point_difference", 0.0))
                policy_differences[label].append(a.get("policy_difference", 0.0))
                policy_point_differences[label].append(a.get("policy_point_difference", 0.0))
                brier[label].append((a["after"] - outcome) ** 2)
                for move in (a, b) if b is not None else (a,):
                    seconds.append(move["seconds"])
                    worlds.append(move["worlds"])
                    if move["forced"]:
                        forced_values.append(move["after"])
                        forced_unplayed += move["worlds"] == 0
                differences[label].append(a.get("difference", 0.0))
                if OPEN[0] <= a["before"] <= OPEN[1]:
                    open_losses[label].append(a["loss"])
                if a["verdict"]:
                    counts[a["verdict"]] += 1
                if b is None:
                    continue
                compared += 1
                total_all += 1
                same_all += a["verdict"] == b["verdict"]
                if a["verdict"] or b["verdict"]:
                    total_flagged += 1
                    same_flagged += a["verdict"] == b["verdict"]
    mean_loss = {label: statistics.fmean(v) if v else 0.0 for label, v in losses.items()}
    ratio_95 = ratio_interval(results)
    mean_difference = {label: statistics.fmean(v) if v else 0.0 for label, v in differences.items()}
    greedy_difference = mean_difference["greedy"]
    open_loss = {label: statistics.fmean(v) if v else 0.0 for label, v in open_losses.items()}
    point_loss = {label: statistics.fmean(v) if v else 0.0 for label, v in point_losses.items()}
    point_difference = {
        label: statistics.fmean(v) if v else 0.0 for label, v in point_differences.items()
    }
    seconds.sort()
    return {
        "games": len(results),
        "moves": {label: len(v) for label, v in losses.items()},
        "mean_loss": mean_loss,
        "ratio": mean_loss["random"] / mean_loss["greedy"] if mean_loss["greedy"] else None,
        "ratio_95": ratio_95,
        "mean_difference": mean_difference,
        "difference_ratio": (
            mean_difference["random"] / greedy_difference if greedy_difference > 0 else None
        ),
        "difference_ratio_95": ratio_interval(results, key="difference"),
        "difference_gap": mean_difference["random"] - mean_difference["greedy"],
        "difference_gap_95": gap_interval(results),
        "mean_point_loss": point_loss,
        "point_ratio": (
            point_loss["random"] / point_loss["greedy"] if point_loss["greedy"] else None
        ),
        "point_ratio_95": ratio_interval(results, key="point_loss"),
        "mean_point_difference": point_difference,
        "point_difference_ratio": (
            point_difference["random"] / point_difference["greedy"]
            if point_difference["greedy"] > 0
            else None
        ),
        "point_difference_ratio_95": ratio_interval(results, key="point_difference"),
        "point_difference_gap_95": gap_interval(results, key="point_difference"),
        # the loss against the greedy bot's own choice (the judge's versus_policy): a
        # true judge's random seat averages the real gap a game between a greedy and
        # a random seat over its decisions (examples/analysis_truth.py)
        "mean_policy_difference": {
            label: statistics.fmean(v) if v else 0.0 for label, v in policy_differences.items()
        },
        "policy_difference_gap_95": gap_interval(results, key="policy_difference"),
        "mean_policy_point_difference": {
            label: statistics.fmean(v) if v else 0.0
            for label, v in policy_point_differences.items()
        },
        "policy_point_difference_gap_95": gap_interval(results, key="policy_point_difference"),
        "open_moves": {label: len(v) for label, v in open_losses.items()},
        "open_mean_loss": open_loss,
        "open_ratio": open_loss["random"] / open_loss["greedy"] if open_loss["greedy"] else None,
        "verdicts": verdicts,
        "moves_judged_twice": compared,
        "verdicts_kept": same_all / total_all if total_all else None,
        "flagged_kept": same_flagged / total_flagged if total_flagged else None,
        "flagged": total_flagged,
        "forced_moves": len(forced_values),
        "forced_unplayed": forced_unplayed,
        "forced_lowest": min(forced_values) if forced_values else None,
        "seconds_median": statistics.median(seconds) if seconds else None,
        "seconds_p95": seconds[int(0.95 * (len(seconds) - 1))] if seconds else None,
        "seconds_max": seconds[-1] if seconds else None,
        "worlds_median": statistics.median(worlds) if worlds else None,
        "brier": {label: statistics.fmean(v) if v else None for label, v in brier.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deal-seed", type=int, default=700000)
    parser.add_argument("--seed", type=int, default=0, help="the first run's analysis seed")
    parser.add_argument("--judge", default="playouts", help="the judge spec")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per move")
    parser.add_argument("--every", type=int, default=1, help="analyse every K-th decision")
    parser.add_argument(
        "--twice",
        type=int,
        default=None,
        help="judge with the second seed only the first N games (default: all)",
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    folder = args.out / args.game
    folder.mkdir(parents=True, exist_ok=True)
    results = []
    for index in range(args.games):
        every = f"-every{args.every}" if args.every > 1 else ""
        path = folder / f"{args.deal_seed + index}-{args.seed}{every}.json"
        if path.exists():
            results.append(json.loads(path.read_text("utf-8")))
            continue
        start = time.perf_counter()
        seeds = 2 if args.twice is None or index < args.twice else 1
        result = analyse_game(
            args.game, index, args.deal_seed, args.seed, args.judge, args.seconds, args.every, seeds
        )
        result["judge"] = args.judge
        result["thresholds"] = DEFAULT_THRESHOLDS
        path.write_text(json.dumps(result) + "\n", "utf-8")
        results.append(result)
        took = time.perf_counter() - start
        print(f"{args.game} game {index + 1}/{args.games} in {took:.0f} s", file=sys.stderr)
    print(json.dumps({"game": args.game, "judge": args.judge, **summarise(results)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
