"""Do cut playouts judge moves as whole games do? The check behind each game's judge defaults.

A judge may stop its playouts early and score them by a fitted win chance
(``depth``/``horizon`` with ``cutoff``): far less noise a world, and cheaper, but
only as true as the fit. This plays ``--games`` games (one random seat, greedy
bots in the others), takes every ``--every``-th decision of the random seat and of
the greedy seat after it, and for each sets the played move against another (the
greedy bot's choice, or a legal move drawn at random when the played move is the
greedy one). For every judge spec given it measures the difference between the two
moves' win chances on the same ``--worlds`` worlds (common random numbers), and
beside it the same with whole games (``playouts:depth=0,horizon=0``, on three
times as many worlds). It reports per spec: the mean difference from whole games
(bias), the mean absolute difference, the standard deviation of a world's paired
difference (noise) and the CPU milliseconds a playout.

    nice -n 10 python examples/judge_agreement.py --game cafe-carnage --games 6 \\
        --every 3 --worlds 300 playouts:cutoff=model,depth=16 playouts:cutoff=model,depth=8
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import potluck
from potluck.agents import InformationSet, make_agent
from potluck.judge import make_judge
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.sim import play_game

PLAYERS = ANALYSIS_PLAYERS
WHOLE = "playouts:depth=0,horizon=0"


def measure(
    judge: Any, info: InformationSet, seat: int, moves: list[Any], worlds: int, tag: str
) -> tuple[float, float, float]:
    """Mean paired difference (second move minus first), its per-world deviation,
    and CPU seconds a playout."""
    diffs = []
    start = time.process_time()
    for w in range(worlds):
        rng = random.Random(f"agree:{tag}:{w}")
        world = info.sample(rng)
        seed = rng.getrandbits(64)
        first = judge.playout(world.clone(), seat, moves[0], seed)
        second = judge.playout(world.clone(), seat, moves[1], seed)
        if first is not None and second is not None:
            diffs.append(second - first)
    cpu = (time.process_time() - start) / (2 * worlds)
    return statistics.fmean(diffs), statistics.pstdev(diffs), cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--deal-seed", type=int, default=820000)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("specs", nargs="+", help="judge specs to set beside whole games")
    args = parser.parse_args(argv)
    game = potluck.load_game(args.game)
    players = PLAYERS[args.game]
    judges = {spec: make_judge(game, spec) for spec in [WHOLE, *args.specs]}
    for judge in judges.values():
        judge.ready(players)
    greedy = make_agent(game, "greedy")
    rows: list[dict[str, Any]] = []
    for index in range(args.games):
        deal = args.deal_seed + index
        agents = ["greedy"] * players
        agents[index % players] = "random"
        record = play_game(game, players, agents, seed=deal, keep_record=True).record
        assert record is not None
        seats = {index % players, (index + 1) % players}
        state = game.replay(record, upto=0)
        counts = dict.fromkeys(seats, 0)
        for k, (who, text) in enumerate(record["actions"]):
            legal = game.legal_actions(state, who)
            if who in seats and len(legal) > 1:
                counts[who] += 1
                if counts[who] % args.every == 0:
                    rng = random.Random(f"{deal}:{k}")
                    played = game.parse_action(state, who, text)
                    view = game.view(state, who) if greedy.needs_view else None
                    other = greedy.choose(game, view, who, legal, rng)
                    if other == played:
                        other = rng.choice([a for a in legal if a != played])
                    info = InformationSet(game, state, who)
                    row: dict[str, Any] = {"deal": deal, "number": k + 1, "seat": who}
                    for spec, judge in judges.items():
                        n = args.worlds * 3 if spec == WHOLE else args.worlds
                        row[spec] = measure(judge, info, who, [played, other], n, f"{deal}:{k}")
                    rows.append(row)
                    line = " ".join(f"{row[s][0]:+.3f}/{row[s][1]:.2f}" for s in judges)
                    print(f"{deal} #{k + 1} {text} vs {other}: {line}", file=sys.stderr)
            game.step(state, who, text)
    summary = {}
    for spec in judges:
        bias = [row[spec][0] - row[WHOLE][0] for row in rows]
        summary[spec] = {
            "bias": statistics.fmean(bias),
            "mean_abs_difference": statistics.fmean(abs(b) for b in bias),
            "noise_sd": statistics.fmean(row[spec][1] for row in rows),
            "cpu_ms_a_playout": 1000 * statistics.fmean(row[spec][2] for row in rows),
        }
    whole_se = statistics.fmean(row[WHOLE][1] for row in rows) / (3 * args.worlds) ** 0.5
    print(
        json.dumps(
            {
                "game": args.game,
                "pairs": len(rows),
                "whole_games_standard_error": whole_se,
                "specs": summary,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
