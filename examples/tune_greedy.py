"""Tune a game's greedy bot's weights with Optuna: one tuned seat against the default greedy bots.

Each trial plays ``--games`` games (game ``i`` dealt from ``--seed + i``, the tuned
seat in seat ``i % players``; every trial plays the same deals, so trials are
compared on common deals) and scores the tuned seat's mean win share. The best
trial's weights are then checked on ``--check`` deals from ``--check-seed`` that no
trial played, beside the default weights in the same seats.

    nice python examples/tune_greedy.py cafe-carnage --players 4 --trials 60 \\
        --games 800 --seed 40000 --check 2000 --check-seed 45000 --json

Needs the ``lab`` extra (Optuna). The sampler is seeded (``--sampler-seed``), so a
run is reproducible. The weights found go into ``potluck.search.presets.TUNED_GREEDY``
as the game's ``greedy-tuned`` bot (docs/bots.md, "Tuned greedy bots").
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import optuna

import potluck
from potluck.agents import decide, make_agent
from potluck.engine.botspec import bot_params
from potluck.intervals import wilson_interval
from potluck.sim import bot_rng


def share(game_id: str, players: int, spec: str, others: str, seed: int, games: int) -> float:
    """The tested spec's summed win share over the deals, one seat each, rotated."""
    game = potluck.load_game(game_id)
    tested, rival = make_agent(game, spec), make_agent(game, others)
    total = 0.0
    for i in range(games):
        state = game.new_game(players, seed + i)
        hero = i % players
        rngs = [bot_rng(seed + i, s) for s in range(players)]
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            bot = tested if seat == hero else rival
            game.step(state, seat, decide(bot, game, state, seat, rngs[seat]))
        total += game.outcome(state).win_shares()[hero]
    return total


def space(game_id: str) -> list[tuple[str, Any, float, float, bool]]:
    """Each greedy parameter: name, type, low, high, and whether to search it on a log
    scale. The range is the default's neighbourhood (a quarter to four times it; -100 to
    100 around a default of 0) within the parameter's declared bounds."""
    game = potluck.load_game(game_id)
    found = []
    for param in bot_params(game.bots()["greedy"]):
        default = float(param.default)
        low, high = (default / 4, default * 4) if default > 0 else (-100.0, 100.0)
        if param.low is not None:
            low = max(low, float(param.low))
        if param.high is not None:
            high = min(high, float(param.high))
        if param.type is int:
            low, high = float(math.floor(low)), float(math.ceil(high))
        found.append((param.name, param.type, low, high, low > 0 and high / low >= 8))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--seed", type=int, default=40000)
    parser.add_argument("--check", type=int, default=2000)
    parser.add_argument("--check-seed", type=int, default=45000)
    parser.add_argument("--sampler-seed", type=int, default=1)
    parser.add_argument("--skip", default="", help="parameters left at their defaults")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    params = [p for p in space(args.game) if p[0] not in skip]

    def spec_of(values: dict[str, Any]) -> str:
        return "greedy:" + ",".join(f"{k}={v}" for k, v in values.items())

    def objective(trial: optuna.Trial) -> float:
        values: dict[str, Any] = {}
        for name, kind, low, high, log in params:
            if kind is int:
                values[name] = trial.suggest_int(name, int(low), int(high), log=log)
            else:
                values[name] = round(trial.suggest_float(name, low, high, log=log), 4)
        won = share(args.game, args.players, spec_of(values), "greedy", args.seed, args.games)
        print(f"trial {trial.number}: {won / args.games:.4f} {values}", file=sys.stderr)
        return won / args.games

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.sampler_seed)
    )
    defaults = {
        p.name: p.default for p in bot_params(potluck.load_game(args.game).bots()["greedy"])
    }
    study.enqueue_trial({name: defaults[name] for name, *_ in params})  # trial 0: the defaults
    study.optimize(objective, n_trials=args.trials)
    best = spec_of(
        {k: (round(v, 4) if isinstance(v, float) else v) for k, v in study.best_params.items()}
    )
    tuned = share(args.game, args.players, best, "greedy", args.check_seed, args.check)
    plain = share(args.game, args.players, "greedy", "greedy", args.check_seed, args.check)
    result = {
        "game": args.game,
        "players": args.players,
        "best": best,
        "tuning_share": study.best_value,
        "check_deals": [args.check_seed, args.check_seed + args.check - 1],
        "check_share": tuned / args.check,
        "check_ci95": wilson_interval(tuned, args.check),
        "default_share_same_seats": plain / args.check,
    }
    print(json.dumps(result) if args.json else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
