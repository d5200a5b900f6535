"""Does the judge price each move truly? Every legal move on many worlds, beside its figures.

The move judge (``potluck.judge``) prices a move at 0.5-2 s of CPU by a race of
the compared moves on common worlds and a comparison on fresh ones. This check
gives the same positions far more work: it plays ``--games`` games (one random
seat, turned round the table, and greedy bots elsewhere), takes every
``--every``-th decision of the random seat and of the greedy seat after it, as
``examples/analysis_benchmark.py`` samples them (forced moves left out), and
plays *every* legal move there on the same ``--worlds`` worlds (drawn from the
seat's information set, greedy play after the move, as the judge's playouts
do). Beside each position's figures it asks the judge itself (``--judge``,
``--seconds`` a move) and saves both, one JSON line a position:

- ``values``: each legal move's mean win share over the worlds (``legal`` order),
  and ``points`` the same in the seat's points;
- ``played`` and ``policy``: the indices of the move played and of the judge's
  policy's choice (the greedy bot's, from the seat's view);
- ``split_best``: an estimate of the best move's value that the luck of choosing
  does not lift: the best move chosen on the even worlds, valued on the odd ones
  (and the other way round, averaged). The best mean over all worlds is too high
  (the maximum of noisy means), this one too low only where the choice errs;
- ``judge``: the judge's ``difference`` (its loss, uncut), ``field_difference``,
  its standard errors, the move it raced to the top and its CPU seconds.

So, over many positions, the judge's mean loss can be set beside
``split_best - values[played]`` (the loss against the best move), its field
difference beside ``values[played] - mean(values)``, and the random seat's moves
beside the mean legal move (a uniformly random move is, in expectation, the mean
one).

    nice -n 12 python examples/judge_positions.py --game burger-joint --games 4 --every 6 \\
        --worlds 200 --seconds 0.5 --deal-seed 100600 --out /tmp/positions.jsonl
    python examples/judge_positions.py --summary /tmp/positions.jsonl

``--summary`` gives, per game and seat, each figure's mean a position with its
standard error, and the random seat's mean over the greedy seat's for the losses,
with a 95% interval from resampling whole deals.
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
from potluck.judge import make_judge
from potluck.judge_params import ANALYSIS_PLAYERS
from potluck.review import DEFAULT_THRESHOLDS
from potluck.search.information import InformationSet
from potluck.sim import play_game

PLAYERS = ANALYSIS_PLAYERS


def every_move(
    judge: Any, info: InformationSet, legal: list[Any], worlds: int, tag: str
) -> tuple[list[list[float]], list[list[float]]]:
    """Each legal move's win share and points on each world where all are legal."""
    wins: list[list[float]] = [[] for _ in legal]
    scores: list[list[float]] = [[] for _ in legal]
    drawn = 0
    while len(wins[0]) < worlds and drawn < 4 * worlds + 16:
        rng = random.Random(f"positions:{tag}:{drawn}")
        drawn += 1
        world = info.sample(rng)
        seed = rng.getrandbits(64)
        got = [judge.play_out(world.clone(), info.seat, move, seed) for move in legal]
        if any(g is None for g in got):
            continue
        for i, g in enumerate(got):
            assert g is not None
            wins[i].append(g[0])
            scores[i].append(g[1])
    return wins, scores


def split_best(wins: list[list[float]]) -> float:
    """The best move's value, chosen on one half of the worlds and valued on the other."""
    halves = []
    for pick, value in ((0, 1), (1, 0)):
        chosen = max(range(len(wins)), key=lambda i: statistics.fmean(wins[i][pick::2]))
        halves.append(statistics.fmean(wins[chosen][value::2]))
    return statistics.fmean(halves)


def positions(args: argparse.Namespace, game_id: str, out: Any) -> None:
    game = potluck.load_game(game_id)
    players = PLAYERS[game_id]
    judge = make_judge(game, args.judge)
    for index in range(args.games):
        deal = args.deal_seed + index
        randomer = index % players
        agents = ["greedy"] * players
        agents[randomer] = "random"
        record = play_game(game, players, agents, seed=deal, keep_record=True).record
        assert record is not None
        seats = {randomer: "random", (randomer + 1) % players: "greedy"}
        # the analysis benchmark's sampling: every ``every``-th decision of each seat,
        # forced ones included, from its ``index % every``-th on (forced ones skipped)
        mine = {
            s: [k for k, (who, _) in enumerate(record["actions"]) if int(who) == s] for s in seats
        }
        wanted = {k for s in seats for k in mine[s][index % args.every :: args.every]}
        state = game.replay(record, upto=0)
        for k, (who, text) in enumerate(record["actions"]):
            who = int(who)
            legal = game.legal_actions(state, who) if k in wanted else []
            if len(legal) > 1:
                row = position(args, judge, game, state, who, text, legal, f"{deal}:{k}")
                row |= {"game": game_id, "deal": deal, "number": k + 1, "label": seats[who]}
                out.write(json.dumps(row) + "\n")
                out.flush()
            game.step(state, who, text)


def position(
    args: argparse.Namespace,
    judge: Any,
    game: Any,
    state: Any,
    seat: int,
    text: str,
    legal: list[Any],
    tag: str,
) -> dict[str, Any]:
    info = InformationSet(game, state, seat)
    judge.ready(info.num_players)
    played = game.parse_action(state, seat, text)
    policy = judge.policy_move(info, legal, f"potluck-review:{args.seed}:{tag}", random.Random(0))
    start = time.process_time()
    wins, scores = every_move(judge, info, legal, args.worlds, tag)
    truth_cpu = time.process_time() - start
    found = judge.judge(
        state, seat, played, DEFAULT_THRESHOLDS, f"potluck-review:{args.seed}:{tag}", args.seconds
    )
    return {
        "seat": seat,
        "legal": [str(a) for a in legal],
        "played": legal.index(played),
        "policy": legal.index(policy),
        "worlds": len(wins[0]),
        "values": [statistics.fmean(w) for w in wins],
        "points": [statistics.fmean(s) for s in scores],
        "split_best": split_best(wins),
        "truth_cpu": truth_cpu,
        "judge": {
            "difference": found.difference,
            "stderr": found.loss_stderr,
            "fixed_difference": found.fixed_difference,
            "field_difference": found.field_difference,
            "field_stderr": found.field_stderr,
            "raced": str(found.raced),
            "best": str(found.best),
            "after": found.after,
            "worlds": found.worlds,
            "compared": len(found.compared),
            "seconds": found.seconds,
        },
    }


#: What ``--summary`` reports per seat: a name and a position's figure.
FIGURES: dict[str, Any] = {
    "judge: loss before the stop (fixed_difference)": lambda r: r["judge"]["fixed_difference"],
    "judge: loss over every judging world": lambda r: r["judge"]["difference"],
    "true loss against the best (split)": lambda r: r["split_best"] - _value(r, r["played"]),
    "true loss against the best mean": lambda r: max(r["values"]) - _value(r, r["played"]),
    "true loss against the policy's move": lambda r: (
        _value(r, r["policy"]) - _value(r, r["played"])
    ),
    "judge (fixed) less the truth of its raced move": lambda r: (
        r["judge"]["fixed_difference"] - _raced(r)
    ),
    "judge (every world) less the truth of its raced move": lambda r: (
        r["judge"]["difference"] - _raced(r)
    ),
    "raced move short of the best (split)": lambda r: (
        r["split_best"] - _value(r, r["legal"].index(r["judge"]["raced"]))
    ),
    "played less the mean legal move, true": lambda r: (
        _value(r, r["played"]) - statistics.fmean(r["values"])
    ),
    "the same, judged less true": lambda r: (
        r["judge"]["field_difference"] - (_value(r, r["played"]) - statistics.fmean(r["values"]))
    ),
}
#: The figures whose random / greedy ratio ``--summary`` gives, with its interval.
RATIOS = (
    "judge: loss before the stop (fixed_difference)",
    "judge: loss over every judging world",
    "true loss against the best (split)",
    "true loss against the best mean",
)


def _value(row: dict[str, Any], index: int) -> float:
    return float(row["values"][index])


def _raced(row: dict[str, Any]) -> float:
    """The true win chance of the move the judge raced to the top, less the played one's."""
    return _value(row, row["legal"].index(row["judge"]["raced"])) - _value(row, row["played"])


def _ratio_interval(
    rows: list[dict[str, Any]], figure: Any, resamples: int = 2000
) -> tuple[float, float]:
    """A 95% interval of the random seat's mean over the greedy seat's, resampling deals
    (inf where the greedy seat's mean is not above 0)."""
    deals = sorted({r["deal"] for r in rows})
    by_deal = {
        d: [[figure(r) for r in rows if r["deal"] == d and r["label"] == lab] for lab in SEATS]
        for d in deals
    }
    rng = random.Random(0)
    ratios = []
    for _ in range(resamples):
        drawn = [by_deal[rng.choice(deals)] for _ in deals]
        mine, theirs = ([x for d in drawn for x in d[i]] for i in (0, 1))
        below = statistics.fmean(theirs) if theirs else 0.0
        ratios.append(statistics.fmean(mine) / below if mine and below > 0 else math.inf)
    ratios.sort()
    return ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]


SEATS = ("random", "greedy")


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per game and seat, each figure's mean a position and its standard error; the
    random / greedy ratios with 95% intervals."""
    out: dict[str, Any] = {}
    for game_id in sorted({r["game"] for r in rows}):
        mine = [r for r in rows if r["game"] == game_id]
        found: dict[str, Any] = {"deals": len({r["deal"] for r in mine})}
        for label in SEATS:
            seat = [r for r in mine if r["label"] == label]
            found[label] = {"positions": len(seat)}
            for name, figure in FIGURES.items():
                values = [figure(r) for r in seat]
                spread = statistics.stdev(values) / math.sqrt(len(values)) if len(seat) > 1 else 0
                found[label][name] = [statistics.fmean(values), spread] if values else None
        for name in RATIOS:
            means = [found[label][name] for label in SEATS]
            if None in means:
                continue
            ratio = means[0][0] / means[1][0] if means[1][0] > 0 else math.inf
            found.setdefault("ratios", {})[name] = [ratio, *_ratio_interval(mine, FIGURES[name])]
        out[game_id] = found
    return out


def _show(out: dict[str, Any]) -> None:
    for game_id, found in out.items():
        counts = " / ".join(str(found[label]["positions"]) for label in SEATS)
        print(f"{game_id}: {found['deals']} deals, positions random / greedy {counts}")
        for name in FIGURES:
            cells = []
            for label in SEATS:
                got = found[label][name]
                cells.append("-" if got is None else f"{got[0]:+.4f} ± {got[1]:.4f}")
            print(f"  {name:55s} {cells[0]:>18s}  {cells[1]:>18s}")
        for name, (ratio, low, high) in found.get("ratios", {}).items():
            print(f"  ratio, {name:48s} {ratio:.2f} [{low:.2f}, {high:.2f}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summary", type=Path, nargs="+", help="summarise saved positions")
    parser.add_argument("--json", action="store_true", help="with --summary: print JSON")
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--judge", default="playouts")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deal-seed", type=int, default=100600)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.summary:
        paths: list[Path] = args.summary
        rows = [json.loads(line) for path in paths for line in path.read_text("utf-8").splitlines()]
        found = summary(rows)
        if args.json:
            print(json.dumps(found, indent=1))
        else:
            _show(found)
        return 0
    if not args.game or args.out is None:
        parser.error("--game and --out are needed to judge positions (or --summary FILE)")
    with args.out.open("a", encoding="utf-8") as out:
        for game_id in args.game:
            positions(args, game_id, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
