"""Does the move judge's loss come true? A seat that plays the judge's best move, in games.

The judge says how much win chance the greedy bot's move loses against the best
move it found, with every seat playing on as the greedy bot does. If that is
true, a seat that asks the judge at each of its decisions and plays the best move
found (and otherwise the greedy bot's) gains, over a whole game against greedy
bots, what the judge said it gains: by the performance difference lemma of
reinforcement learning, the expected real gain over a greedy seat on the same
deals is the sum, over the seat's own decisions, of the judge's measured
advantage of the move it played over the greedy bot's (0 where it played the
greedy bot's). This script plays both, seat by seat on paired deals, and sets the
judge's summed claim beside the real gain, in win share and in points (the
seat's score less the others' mean).

The seat changes its move where the judge's measured difference says so, so the
sum of those differences (``claimed``) counts the luck that made them look
large (a winner's curse, as large as a move's noise); each changed move is
therefore measured again on worlds of its own (``rechecked``, as many worlds as
the judge's ``min_worlds``), and that sum is the claim to set beside the real
gain.

Every game is written to ``--out`` as it finishes (JSON lines), and a rerun
skips the deals already there.

    nice -n 10 python examples/judge_improvement.py --game cafe-carnage --deals 40 \\
        --deal-seed 880000 --seconds 0.25 --out results/improvement-cafe.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.agents import InformationSet, make_agent
from potluck.engine.bots import view_reader
from potluck.intervals import wilson_interval
from potluck.judge import PlayoutJudge, _Worlds, make_judge, points
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.review import DEFAULT_THRESHOLDS
from potluck.sim import bot_rng, play_game

PLAYERS = ANALYSIS_PLAYERS


def improved_game(game_id: str, deal: int, seat: int, spec: str, seconds: float) -> dict[str, Any]:
    """One game in which ``seat`` plays the judge's best move, the others greedy."""
    game = potluck.load_game(game_id)
    players = PLAYERS[game_id]
    judge = make_judge(game, spec)
    state = game.new_game(players, deal)
    bots = [make_agent(game, "greedy") for _ in range(players)]
    rngs = [bot_rng(deal, s) for s in range(players)]
    views = [view_reader(bot, game) for bot in bots]
    claimed = claimed_points = rechecked = rechecked_points = 0.0
    decisions = changed = 0
    cpu = time.process_time()
    decision_cpu: list[float] = []  # the seat's CPU seconds at each decision with a choice
    acting = game.to_act(state)
    while acting:
        mover = acting[0]
        view = views[mover]
        seen = None if view is None else view(state, mover)
        legal = game.legal_actions(state, mover)
        began = time.process_time()
        action = bots[mover].choose(game, seen, mover, legal, rngs[mover])
        if mover == seat:
            decisions += 1
            if len(legal) > 1:
                found = judge.judge(
                    state, seat, action, DEFAULT_THRESHOLDS, f"improve:{deal}:{decisions}", seconds
                )
                # what the seat spent choosing (the recheck below is the study's own)
                decision_cpu.append(time.process_time() - began)
                if found.best != action:
                    changed += 1
                    claimed += found.difference
                    claimed_points += found.point_difference
                    win, score = recheck(
                        game, judge, state, seat, action, found.best, deal, decisions
                    )
                    rechecked += win
                    rechecked_points += score
                    action = found.best
        game.step(state, mover, action)
        acting = game.to_act(state)
    outcome = game.outcome(state)
    base = play_game(game, players, ["greedy"] * players, seed=deal)
    return {
        "game": game_id,
        "deal": deal,
        "seat": seat,
        "share": outcome.win_shares()[seat],
        "points": points(outcome.scores, seat),
        "base_share": base.outcome.win_shares()[seat],
        "base_points": points(base.outcome.scores, seat),
        "claimed": claimed,
        "claimed_points": claimed_points,
        "rechecked": rechecked,
        "rechecked_points": rechecked_points,
        "decisions": decisions,
        "changed": changed,
        "cpu_seconds": time.process_time() - cpu,
        "decision_cpu": decision_cpu,
    }


def recheck(
    game: Any,
    judge: PlayoutJudge,
    state: Any,
    seat: int,
    policy: Any,
    chosen: Any,
    deal: int,
    decision: int,
) -> tuple[float, float]:
    """The chosen move's advantage over the policy's on worlds of its own (as many as
    the judge's ``min_worlds``): the judge's own difference decided the change, so
    summing it would count the luck that made it look large."""
    worlds = _Worlds(
        judge,
        InformationSet(game, state, seat),
        seat,
        f"recheck:{deal}:{decision}",
        float("inf"),
    )
    wins: list[float] = []
    scores: list[float] = []
    while len(wins) < judge.min_worlds:
        got = worlds.play([policy, chosen])
        assert got is not None
        wins.append(got[1][0] - got[0][0])
        scores.append(got[1][1] - got[0][1])
    return statistics.fmean(wins), statistics.fmean(scores)


#: The normal quantile of a two-sided 99% interval (the futility stop's).
Z99 = 2.5758293035489


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"games": len(rows)}
    if rows:
        wins = sum(r["share"] for r in rows)
        base = sum(r["base_share"] for r in rows)
        out["win_share"] = wins / len(rows)
        out["ci95"] = list(wilson_interval(wins, len(rows)))
        out["ci99_upper"] = wilson_interval(wins, len(rows), Z99)[1]
        out["baseline_win_share"] = base / len(rows)
        out["baseline_ci95"] = list(wilson_interval(base, len(rows)))
    for name, real, claim in (
        ("share", "share", "claimed"),
        ("points", "points", "claimed_points"),
        ("share_rechecked", "share", "rechecked"),
        ("points_rechecked", "points", "rechecked_points"),
    ):
        if any(claim not in r for r in rows):
            continue
        gains = [r[real] - r[f"base_{real}"] for r in rows]
        claims = [r[claim] for r in rows]
        for label, values in (("real_gain", gains), ("claimed_gain", claims)):
            mean = statistics.fmean(values)
            se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
            out[f"{name}_{label}"] = mean
            out[f"{name}_{label}_95"] = [mean - 1.96 * se, mean + 1.96 * se]
        excess = [c - g for c, g in zip(claims, gains, strict=True)]
        mean = statistics.fmean(excess)
        se = statistics.stdev(excess) / math.sqrt(len(excess)) if len(excess) > 1 else 0.0
        out[f"{name}_claim_less_real_95"] = [mean - 1.96 * se, mean + 1.96 * se]
    out["changed_per_game"] = statistics.fmean(r["changed"] for r in rows)
    out["decisions_per_game"] = statistics.fmean(r["decisions"] for r in rows)
    out["cpu_seconds_per_game"] = statistics.fmean(r["cpu_seconds"] for r in rows)
    timed = [t for r in rows for t in r.get("decision_cpu", [])]
    if timed:
        out["cpu_median_decision_seconds"] = statistics.median(timed)
        out["cpu_slowest_decision_seconds"] = max(timed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PLAYERS), required=True)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--deal-seed", type=int, default=880000)
    parser.add_argument("--seconds", type=float, default=0.25, help="CPU seconds a decision")
    parser.add_argument("--judge", default="playouts")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--stop-below",
        type=float,
        help="futility stop: after every 50 games in --out, stop if the upper end of the "
        "99%% Wilson interval of the seat's win share is below this",
    )
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    done = {row["deal"] for row in rows}
    players = PLAYERS[args.game]
    for index in range(args.deals):
        deal = args.deal_seed + index
        if deal in done:
            continue
        row = improved_game(args.game, deal, index % players, args.judge, args.seconds)
        rows.append(row)
        with args.out.open("a") as out:
            out.write(json.dumps(row) + "\n")
        print(f"{args.game} deal {deal}: {json.dumps(summarise(rows))}", file=sys.stderr)
        if (
            args.stop_below is not None
            and len(rows) % 50 == 0
            and index + 1 < args.deals
            and summarise(rows)["ci99_upper"] < args.stop_below
        ):
            print(f"stopped for futility after {len(rows)} games", file=sys.stderr)
            break
    json.dump(summarise(rows), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
