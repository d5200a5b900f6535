"""Is the move analysis's win chance a calibrated probability? Brier score and reliability.

It plays ``--games`` held-out games with the greedy bot in every seat (game ``i``
dealt from ``--deal-seed + i``), analyses seat ``i % players`` of game ``i`` with
the default judge (``potluck.review.review_record``), and sets the win chance
after each of that seat's moves beside how the game ended for the seat (1 won, 0
lost, a share for a shared win). The greedy bot plays every seat in the judge's
playouts too, so in these games its chances should come true as often as they
say. It reports the Brier score (with a 95% interval from resampling whole games,
since the moves of one game end alike), the Brier score of always saying the fair
share (1 / players), and the reliability table; ``--plot`` draws the reliability
diagram of every game named. ``--every K`` analyses every K-th decision of the
seat (starting from a different one in each game); ``--every GAME=K`` sets it for
one game.

Every analysed game is saved as JSON in ``--out`` as it finishes, and a rerun
reads those back, so a long run can be stopped and resumed.

    nice -n 10 python examples/analysis_calibration.py --game cafe-carnage --games 20 \\
        --every 4 --deal-seed 810000 --out results/calibration \\
        --plot docs/analysis-reliability.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.calibration import brier_interval, brier_score, reliability
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.review import review_record
from potluck.sim import play_game

PLAYERS = ANALYSIS_PLAYERS


def analyse_game(
    game_id: str, deal: int, seat: int, judge: str, every: int = 1, offset: int = 0
) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    players = PLAYERS[game_id]
    result = play_game(game, players, ["greedy"] * players, seed=deal, keep_record=True)
    assert result.record is not None
    decisions = [k + 1 for k, (who, _) in enumerate(result.record["actions"]) if who == seat]
    numbers = set(decisions[offset % every :: every])
    start = time.process_time()
    reviews = review_record(game, result.record, seat, judge, seed=deal, numbers=numbers)
    return {
        "game": game_id,
        "deal_seed": deal,
        "seat": seat,
        "judge": judge,
        "outcome": result.outcome.win_shares()[seat],
        "cpu_seconds": time.process_time() - start,
        "moves": [r.to_json() for r in reviews],
    }


def load_or_run(
    game_id: str, games: int, deal_seed: int, judge: str, out: Path, every: int = 1
) -> list[Any]:
    folder = out / game_id
    folder.mkdir(parents=True, exist_ok=True)
    results = []
    for index in range(games):
        path = folder / (f"{deal_seed + index}" + (f"-every{every}" if every > 1 else "") + ".json")
        if path.exists():
            results.append(json.loads(path.read_text("utf-8")))
            continue
        started = time.perf_counter()
        seat = index % PLAYERS[game_id]
        result = analyse_game(game_id, deal_seed + index, seat, judge, every, index)
        path.write_text(json.dumps(result) + "\n", "utf-8")
        results.append(result)
        took = time.perf_counter() - started
        print(f"{game_id} game {index + 1}/{games} in {took:.0f} s", file=sys.stderr)
    return results


def summarise(game_id: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    groups = [([m["after"] for m in r["moves"]], [r["outcome"]] * len(r["moves"])) for r in results]
    predictions = [p for ps, _ in groups for p in ps]
    outcomes = [o for _, os in groups for o in os]
    fair = 1.0 / PLAYERS[game_id]
    low, high = brier_interval(groups)
    return {
        "game": game_id,
        "games": len(results),
        "moves": len(predictions),
        "brier": brier_score(predictions, outcomes),
        "brier_95": [low, high],
        "brier_fair_share": brier_score([fair] * len(outcomes), outcomes),
        "mean_predicted": sum(predictions) / len(predictions),
        "mean_outcome": sum(outcomes) / len(outcomes),
        "reliability": [
            {
                "bin": [b.low, b.high],
                "moves": b.count,
                "predicted": b.predicted,
                "observed": b.observed,
                "observed_95": [b.observed_low, b.observed_high],
            }
            for b in reliability(predictions, outcomes, bins=10)
        ],
    }


def plot(summaries: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(summaries), figsize=(3.2 * len(summaries), 3.4), sharey=True)
    if len(summaries) == 1:
        axes = [axes]
    for ax, summary in zip(axes, summaries, strict=True):
        rows = summary["reliability"]
        xs = [r["predicted"] for r in rows]
        ys = [r["observed"] for r in rows]
        errors = [
            [r["observed"] - r["observed_95"][0] for r in rows],
            [r["observed_95"][1] - r["observed"] for r in rows],
        ]
        ax.plot([0, 1], [0, 1], color="0.7", linewidth=1)
        ax.errorbar(xs, ys, yerr=errors, fmt="o", markersize=3, capsize=2)
        ax.set_title(
            f"{summary['game']}\nBrier {summary['brier']:.3f} "
            f"(fair share {summary['brier_fair_share']:.3f})",
            fontsize=8,
        )
        ax.set_xlabel("win chance after the move", fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.tick_params(labelsize=7)
    axes[0].set_ylabel("share of those moves' games won", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", action="append", required=True, choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deal-seed", type=int, default=810000)
    parser.add_argument("--judge", default="playouts", help="the judge spec")
    parser.add_argument(
        "--every",
        action="append",
        default=[],
        help="analyse every K-th decision: K for every game, or GAME=K (repeatable)",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--plot", type=Path, default=None, help="write a reliability PNG")
    args = parser.parse_args(argv)
    summaries = []
    every = dict.fromkeys(args.game, 1)
    for text in args.every:
        name, _, count = text.rpartition("=")
        for game_id in [name] if name else args.game:
            if game_id not in every:
                parser.error(f"--every {text}: {game_id} is not a --game of this run")
            every[game_id] = int(count)
    for game_id in args.game:
        results = load_or_run(
            game_id, args.games, args.deal_seed, args.judge, args.out, every[game_id]
        )
        summaries.append(summarise(game_id, results))
    print(json.dumps(summaries, indent=1))
    if args.plot is not None:
        plot(summaries, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
