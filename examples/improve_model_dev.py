"""Development runs: two `improve` bots, each with its own value-model file, paired on deals.

``examples/ismcts_strength.py --baseline`` pairs two specs, but both read the one model
file a game ships (``potluck/search/models``). To tell whether a retrained model plays
better, this script plays each deal three times, one seat against the ``--others``
bots (seat ``i % players`` of deal ``seed + i``, as ``ismcts_strength.py``): with the
tested bot (``--bot``, its cut playouts scored by ``--bot-model`` if given), with the
baseline (``--baseline``, scored by ``--baseline-model`` if given, else the shipped
model) and with the greedy bot, and reports each one's win share with its 95% Wilson
interval, the tested bot's paired lead over the baseline and over greedy, and the
tested bot's CPU seconds a decision (``time.process_time`` around ``decide``,
decisions with a choice). Results are appended game by game (``--results``) and a run
started again with the same file plays only the games it lacks.

For development deals only (never a registered run: a registered run plays one spec
through ``ismcts_strength.py`` with the shipped model).

    python examples/improve_model_dev.py food-advice --players 4 --games 100 \\
        --seed 84000 --bot improve:depth=40,cutoff=model --bot-model new.json \\
        --baseline improve:depth=40,cutoff=model --results dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.agents import decide, make_agent
from potluck.intervals import wilson_interval
from potluck.search.improve import PolicyImprovementBot
from potluck.search.value import ValueModel
from potluck.sim import bot_rng


def with_model(bot: Any, game: Any, players: int, path: Path | None) -> Any:
    """``bot``, its judge's cut playouts scored by the model in ``path`` (if given)."""
    if path is None:
        return bot
    if not isinstance(bot, PolicyImprovementBot):
        raise SystemExit(f"a model file is for an improve bot, not {bot!r}")
    model = ValueModel(game, players, json.loads(path.read_text()))
    judge = bot.judge(game)
    ready = judge.ready

    def ready_with_model(num_players: int) -> None:
        ready(num_players)
        if judge._cut and judge.cutoff == "model":
            judge._chances = model.world_chances

    judge.ready = ready_with_model  # type: ignore[method-assign,assignment]
    return bot


def one_game(
    game: Any, players: int, deal: int, hero: int, tested: Any, rival: Any, cpu: list[float]
) -> float:
    """The hero's win share in one game; each of its decisions' CPU seconds in ``cpu``."""
    state = game.new_game(players, deal)
    rngs = [bot_rng(deal, s) for s in range(players)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        bot = tested if seat == hero else rival
        if seat == hero and len(game.legal_actions(state, seat)) > 1:
            began = time.process_time()
            action = decide(bot, game, state, seat, rngs[seat])
            cpu.append(time.process_time() - began)
        else:
            action = decide(bot, game, state, seat, rngs[seat])
        game.step(state, seat, action)
    return float(game.outcome(state).win_shares()[hero])


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    if len(diffs) < 2:
        return 0.0, 0.0
    return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def report(records: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"deals": len(records)}
    for key in ("bot", "baseline", "greedy"):
        shares = [r[key] for r in records]
        low, high = wilson_interval(sum(shares), len(shares)) if shares else (0.0, 1.0)
        out[key] = {"share": sum(shares) / max(1, len(shares)), "ci95": [low, high]}
    tested = [r["bot"] for r in records]
    for key in ("baseline", "greedy"):
        mean, error = paired(tested, [r[key] for r in records])
        out[f"lead_over_{key}"] = [mean, error]
    out["alike"] = sum(r["bot"] == r["baseline"] for r in records)
    cpu = [c for r in records for c in r["cpu"]]
    out["cpu_median"] = statistics.median(cpu) if cpu else 0.0
    out["cpu_slowest"] = max(cpu, default=0.0)
    out["decisions"] = len(cpu)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--bot", required=True)
    parser.add_argument("--bot-model", type=Path)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--baseline-model", type=Path)
    parser.add_argument("--others", default="greedy")
    parser.add_argument("--results", type=Path, required=True)
    args = parser.parse_args(argv)
    game = potluck.load_game(args.game)
    tested = with_model(make_agent(game, args.bot), game, args.players, args.bot_model)
    base = with_model(make_agent(game, args.baseline), game, args.players, args.baseline_model)
    greedy, rival = make_agent(game, "greedy"), make_agent(game, args.others)
    header = {
        key: str(value) if isinstance(value, Path) else value
        for key, value in vars(args).items()
        if key not in ("games", "results")
    }
    done: dict[int, dict[str, Any]] = {}
    if args.results.exists():
        lines = [json.loads(line) for line in args.results.read_text().splitlines() if line]
        if not lines or lines[0].get("run") != header:
            raise SystemExit(f"{args.results} holds another run")
        done = {int(line["index"]): line for line in lines[1:]}
    else:
        args.results.write_text(json.dumps({"run": header}) + "\n")
    for i in range(args.games):
        if i in done:
            continue
        deal, hero = args.seed + i, i % args.players
        cpu: list[float] = []
        record = {
            "index": i,
            "deal": deal,
            "hero": hero,
            "bot": one_game(game, args.players, deal, hero, tested, rival, cpu),
            "baseline": one_game(game, args.players, deal, hero, base, rival, []),
            "greedy": one_game(game, args.players, deal, hero, greedy, rival, []),
            "cpu": cpu,
        }
        done[i] = record
        with args.results.open("a") as out:
            out.write(json.dumps(record) + "\n")
        so_far = [done[j] for j in sorted(done)]
        figures = report(so_far)
        lead, error = figures["lead_over_baseline"]
        print(
            f"{len(so_far)} deals: bot {figures['bot']['share']:.3f} baseline "
            f"{figures['baseline']['share']:.3f} greedy {figures['greedy']['share']:.3f} "
            f"lead {lead:+.3f} ± {error:.3f}",
            file=sys.stderr,
            flush=True,
        )
    print(json.dumps(report([done[j] for j in sorted(done)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
