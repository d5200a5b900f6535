"""Fit Belly Battle's win-chance model (``potluck.games.belly_battle.win_model``).

It plays games (game ``i`` dealt from ``seed + i``, greedy bots in every seat,
or with ``--bot SPEC --bot-every K`` that bot in seat ``i % players`` of every
K-th game, so the positions a search seat reaches are covered too), records
every seat's features at the start of every turn (where the search bot's
``horizon`` cuts its rollouts) and how the game ended, and fits the conditional
logit of the model by maximum likelihood (Newton's method; numpy). The last
``--held-out`` games are left out of the fit and scored: log loss (uniform
guessing scores ln(players)) and how often the seat the model favours won,
beside the same for the standings (``Game.standings``) fitted as a one-weight
logit and the standings' leader.

    nice -n 19 python examples/belly_win_model.py --games 6000 --seed 100000 \\
        --held-out 1000 --write src/potluck/games/belly_battle/data/win_model.toml

The seeds from 100000 are used by no strength run (tuning runs use 0-199,
fresh runs 1000-5999). Without ``--write`` it only reports.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from pathlib import Path
from typing import Any

import numpy as np

import potluck
from potluck.agents import decide, make_agent
from potluck.games.belly_battle.win_model import FEATURES, WinModelData, progress, seat_features
from potluck.sim import bot_rng

Positions = tuple[np.ndarray, np.ndarray, np.ndarray]


def play(
    games: int, seed: int, players: int, bot: str | None, every: int
) -> list[tuple[list[list[list[float]]], list[float], list[float], list[float]]]:
    """Per game: each recorded position's seat features and progress, its
    standings, and the final win shares."""
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    tested = make_agent(game, bot) if bot else None
    out = []
    for i in range(games):
        state = game.new_game(players, seed + i)
        hero = i % players if tested is not None and i % every == 0 else -1
        rngs = [bot_rng(seed + i, s) for s in range(players)]
        rows: list[list[list[float]]] = []
        clocks: list[float] = []
        stands: list[float] = []
        last = -1
        while not game.is_over(state):
            now = game.progress(state)
            if now != last:  # a turn starts: record the position
                last = now
                rows.append(seat_features(game, state))
                clocks.append(progress(state))
                stands.extend(game.standings(state))
            seat = game.to_act(state)[0]
            who = tested if seat == hero and tested is not None else greedy
            game.step(state, seat, decide(who, game, state, seat, rngs[seat]))
        winners = game.outcome(state).winners
        shares = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        out.append((rows, clocks, stands, shares))
    return out


def design(records: list[Any], players: int) -> Positions:
    """X (positions, seats, 2 * features: each feature and it times progress),
    the win shares (positions, seats) and the standings (positions, seats)."""
    xs, ys, ss = [], [], []
    for rows, clocks, stands, shares in records:
        for k, (row, t) in enumerate(zip(rows, clocks, strict=True)):
            xs.append([[*seat, *(x * t for x in seat)] for seat in row])
            ys.append(shares)
            ss.append(stands[k * players : (k + 1) * players])
    return np.array(xs), np.array(ys), np.array(ss)


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-likelihood of the win shares under the logit with weights ``w``."""
    z = x @ w
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(y * logp).sum() / len(x))


def fit(x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """Maximum-likelihood weights of the conditional logit, by Newton's method (the
    log-likelihood is concave; a tiny ridge keeps the Hessian invertible)."""
    w = np.zeros(x.shape[2])
    for _ in range(steps):
        z = x @ w
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("nk,nkd->d", y - p, x)
        mean = np.einsum("nk,nkd->nd", p, x)
        hess = np.einsum("nk,nkd,nke->de", p, x, x) - mean.T @ mean
        hess += 1e-6 * len(x) * np.eye(len(w))
        delta = np.linalg.solve(hess, grad)
        w += delta
        if float(np.abs(delta).max()) < 1e-9:
            break
    return w


def accuracy(z: np.ndarray, y: np.ndarray) -> float:
    """How often a seat with the highest ``z`` had a share of the win."""
    return float((y[np.arange(len(y)), z.argmax(axis=1)] > 0).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--held-out", type=int, default=1000, help="last games kept out of the fit")
    parser.add_argument("--bot", default=None, help="a bot seated in some games (a spec)")
    parser.add_argument("--bot-every", type=int, default=1, help="seat --bot in every K-th game")
    parser.add_argument("--write", type=Path, default=None, help="write the weights file here")
    args = parser.parse_args(argv)
    if not 0 <= args.held_out < args.games:
        parser.error("--held-out must leave some games to fit")
    records = play(args.games, args.seed, args.players, args.bot, max(1, args.bot_every))
    cut = args.games - args.held_out
    x, y, _ = design(records[:cut], args.players)
    w = fit(x, y)
    report: dict[str, Any] = {
        "games": args.games,
        "positions": len(x),
        "fit_log_loss": log_loss(w, x, y),
        "weights": {f: [float(w[k]), float(w[k + len(FEATURES)])] for k, f in enumerate(FEATURES)},
        "uniform_log_loss": math.log(args.players),
    }
    if args.held_out:
        hx, hy, hs = design(records[cut:], args.players)
        scale = fit(design_standings(records[:cut], args.players), y)
        report.update(
            held_out_games=args.held_out,
            held_out_positions=len(hx),
            held_out_log_loss=log_loss(w, hx, hy),
            held_out_accuracy=accuracy(hx @ w, hy),
            standings_logit_log_loss=log_loss(scale, hs[:, :, None] / 1000.0, hy),
            standings_leader_accuracy=accuracy(hs, hy),
        )
    print(json.dumps(report))
    if args.write is not None:
        who = "greedy in every seat"
        if args.bot:
            who += f"; {args.bot} in seat i % {args.players} of every {args.bot_every}th game"
        command = "python examples/belly_win_model.py " + shlex.join(
            a for a in (argv if argv is not None else sys.argv[1:])
        )
        data = {
            "fitted": {
                "command": command,
                "players": args.players,
                "seeds": f"{args.seed}-{args.seed + args.games - 1}",
                "bots": who,
                "games": args.games,
                "positions": len(x),
                "held_out_games": args.held_out,
                "held_out_log_loss": round(report.get("held_out_log_loss", 0.0), 4),
                "held_out_accuracy": round(report.get("held_out_accuracy", 0.0), 4),
                "held_out_standings_log_loss": round(
                    report.get("standings_logit_log_loss", 0.0), 4
                ),
            },
            "weights": {f: [round(a, 4), round(b, 4)] for f, (a, b) in report["weights"].items()},
        }
        WinModelData.model_validate(data)  # never write a file the game would refuse
        args.write.write_text(to_toml(data), "utf-8")
    return 0


def design_standings(records: list[Any], players: int) -> np.ndarray:
    """The standings alone (over 1000) as a one-feature design, for the baseline."""
    return design(records, players)[2][:, :, None] / 1000.0


def to_toml(data: dict[str, Any]) -> str:
    """The weights file's text (two flat tables, so no TOML writer is needed)."""
    lines = [
        "# Belly Battle's win-chance model (potluck.games.belly_battle.win_model).",
        "# FITTED, not hand-set: written by examples/belly_win_model.py with the command",
        "# below; do not edit by hand, run it again. Each weight is [a, b]: a seat's",
        "# utility is sum((a + b * progress) * feature), progress = rounds played / 10.",
        "",
        "[fitted]",
    ]
    for key, value in data["fitted"].items():
        lines.append(f"{key} = {json.dumps(value)}")
    lines += ["", "[weights]"]
    for key, (a, b) in data["weights"].items():
        lines.append(f"{key} = [{a}, {b}]")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
